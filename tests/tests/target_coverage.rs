//! Every register class, register and opcode the real-code MIR corpus uses is described by the target's `.td` files, as tdgen reads them.
//!
//! For each target, the corpus (`bench/out/corpus/<t>/{O2,O0,ssa}`) is scanned
//! for virtual-register classes (`%3:gpr32`, `class: gpr32`), physical
//! registers (`$w0`) and opcodes, and each is looked up in tdgen's evaluation of
//! `targets/oracle/<t>-instrs-top.td` (LLVM 19's Target.td + the target's
//! `registers.td` + `instrs.td`): classes and registers in the target model
//! (case-insensitively, as MIR lower-cases them), opcodes among the
//! `Instruction` defs. Prints `classes N/N, registers N/N, opcodes N/N
//! (instructions covered N/N)` per target. Without the corpus it prints a
//! notice and checks nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const FLAGS: &[&str] = &[
    "frame-setup",
    "frame-destroy",
    "nnan",
    "ninf",
    "nsz",
    "arcp",
    "contract",
    "afn",
    "reassoc",
    "nuw",
    "nsw",
    "exact",
    "nofpexcept",
    "unpredictable",
    "noconvergent",
    "nneg",
    "disjoint",
    "samesign",
];
const DEF_PREFIXES: &[&str] = &[
    "early-clobber ",
    "dead ",
    "undef ",
    "renamable ",
    "internal ",
    "implicit-def ",
    "implicit ",
    "def ",
    "killed ",
];

#[derive(Default)]
struct Uses {
    classes: BTreeSet<String>,
    regs: BTreeSet<String>,
    opcodes: BTreeMap<String, u64>,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(x) if x.is_ascii_alphabetic() || x == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_' || x == '.')
}

fn starts_with_def(s: &str) -> bool {
    let mut t = s;
    loop {
        match DEF_PREFIXES.iter().find(|p| t.starts_with(**p)) {
            Some(p) => t = &t[p.len()..],
            None => return t.starts_with('%') || t.starts_with('$'),
        }
    }
}

fn scan_tokens(s: &str, u: &mut Uses) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'$' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                let name = &s[start..j];
                if !name.is_empty() && name != "noreg" {
                    u.regs.insert(name.to_ascii_lowercase());
                }
                i = j;
            }
            b'%' => {
                // `%12:gpr32` names a class after the colon.
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                if j > i + 1 && j < b.len() && b[j] == b':' {
                    let start = j + 1;
                    let mut k = start;
                    while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                        k += 1;
                    }
                    // `%0:gpr(s64)` names a GlobalISel register bank with a type, not a class.
                    if k > start && b.get(k) != Some(&b'(') {
                        u.classes.insert(s[start..k].to_ascii_lowercase());
                    }
                    i = k;
                } else {
                    i = j.max(i + 1);
                }
            }
            _ => i += 1,
        }
    }
}

fn scan_file(text: &str, u: &mut Uses) {
    let mut in_body = false;
    for line in text.lines() {
        let s = line.trim();
        // Classes are read from the body only: the `registers:` table also
        // names GlobalISel register banks (`class: gpr`) at -O0.
        if !in_body {
            if line.starts_with("body:") {
                in_body = true;
            }
            continue;
        }
        if line.starts_with("...") || line.starts_with("---") {
            in_body = false;
            continue;
        }
        if s.is_empty()
            || s.starts_with(';')
            || s.starts_with("bb.")
            || s.starts_with("successors:")
            || s.starts_with('}')
            || s.starts_with('{')
        {
            continue;
        }
        if s.starts_with("liveins:") {
            scan_tokens(s, u);
            continue;
        }
        // Operands after `::` are memory operands, which name IR values, not registers.
        let code = s.split(" :: ").next().unwrap_or(s);
        scan_tokens(code, u);
        let rest = if starts_with_def(code) {
            match code.find(" = ") {
                Some(k) => &code[k + 3..],
                None => continue,
            }
        } else {
            code
        };
        let mut toks = rest.split_whitespace().skip_while(|t| FLAGS.contains(t));
        if let Some(op) = toks.next() {
            let op = op.trim_end_matches(',');
            if is_ident(op) {
                *u.opcodes.entry(op.to_string()).or_default() += 1;
            }
        }
    }
}

fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            mir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "mir") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_classes_registers_and_opcodes_are_described() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let Some(include) = regalloc_tests::llvm_include_dir() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "LLVM 19's include directory is required under CI"
        );
        println!("skipped: LLVM 19 not found");
        return;
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for t in ["bpf", "aarch64", "x86", "hexagon"] {
        let dir = if t == "x86" { "x86_64" } else { t };
        let corpus = root.join(format!("bench/out/corpus/{dir}"));
        let mut files = Vec::new();
        for level in ["O2", "O0", "ssa"] {
            mir_files(&corpus.join(level), &mut files);
        }
        if files.is_empty() {
            println!(
                "notice: no corpus for {t} under {}; skipping it (build it with bench/corpus/build)",
                corpus.display()
            );
            continue;
        }
        let mut uses = Uses::default();
        for f in &files {
            scan_file(
                &std::fs::read_to_string(f).expect("corpus file is readable"),
                &mut uses,
            );
        }
        let mut loader = tdgen::Loader::new();
        loader.include_dir(&include);
        loader.include_dir(root.join(format!("targets/{t}")));
        let top = root.join(format!("targets/oracle/{t}-instrs-top.td"));
        let rk = loader
            .records(&top)
            .unwrap_or_else(|d| panic!("{}", loader.render(&d)));
        let model = tdgen::target::TargetModel::build(&rk)
            .unwrap_or_else(|d| panic!("{}", loader.render(&d)));
        let classes: BTreeSet<String> = model
            .classes
            .list
            .iter()
            .map(|c| c.name.to_ascii_lowercase())
            .collect();
        let regs: BTreeSet<String> = model
            .bank
            .regs
            .iter()
            .map(|r| r.name.to_ascii_lowercase())
            .collect();
        let opcodes: BTreeSet<String> = rk
            .derived_defs("Instruction")
            .iter()
            .map(|&d| rk.name_of(d))
            .collect();
        let missing_classes: Vec<&String> = uses
            .classes
            .iter()
            .filter(|c| !classes.contains(*c))
            .collect();
        let missing_regs: Vec<&String> = uses.regs.iter().filter(|r| !regs.contains(*r)).collect();
        let missing_ops: Vec<&String> = uses
            .opcodes
            .keys()
            .filter(|o| !opcodes.contains(*o))
            .collect();
        let total: u64 = uses.opcodes.values().sum();
        let covered: u64 = uses
            .opcodes
            .iter()
            .filter(|(o, _)| opcodes.contains(*o))
            .map(|(_, n)| n)
            .sum();
        println!(
            "{t}: classes {}/{}, registers {}/{}, opcodes {}/{} (instructions covered {covered}/{total})",
            uses.classes.len() - missing_classes.len(),
            uses.classes.len(),
            uses.regs.len() - missing_regs.len(),
            uses.regs.len(),
            uses.opcodes.len() - missing_ops.len(),
            uses.opcodes.len()
        );
        checked += 1;
        if !missing_classes.is_empty() || !missing_regs.is_empty() || !missing_ops.is_empty() {
            failures.push(format!("{t}: classes {missing_classes:?}, registers {missing_regs:?}, opcodes {missing_ops:?}"));
        }
    }
    if checked == 0 {
        assert!(
            std::env::var_os("CI").is_none(),
            "the corpus is required under CI (.ci/run builds it)"
        );
    }
    assert!(
        failures.is_empty(),
        "not described:\n{}",
        failures.join("\n")
    );
}
