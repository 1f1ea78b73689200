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

/// Copies no template can state: LLVM copies these registers through their
/// super-registers (AArch64 B registers with a Q-register ORR) or one
/// sub-register at a time (register tuples). The allocator keeps `COPY`.
const NO_COPY_TEMPLATE: &[(&str, &str)] = &[
    ("aarch64", "FPR8"),
    ("aarch64", "DD"),
    ("aarch64", "DDD"),
    ("aarch64", "DDDD"),
    ("aarch64", "QQ"),
    ("aarch64", "QQQ"),
    ("aarch64", "QQQQ"),
];

/// Every allocatable class the corpus names has spill, reload and copy
/// templates in `targets/<t>/<t>.td` (own or inherited), as tdgen lays them
/// out, except the copies in [`NO_COPY_TEMPLATE`]. Prints `<t>: templates
/// N/N classes` per target.
#[test]
fn corpus_classes_have_spill_reload_and_copy_templates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut failures = Vec::new();
    for t in ["bpf", "aarch64", "x86", "hexagon"] {
        let dir = if t == "x86" { "x86_64" } else { t };
        let corpus = root.join(format!("bench/out/corpus/{dir}"));
        let mut files = Vec::new();
        for level in ["O2", "O0", "ssa"] {
            mir_files(&corpus.join(level), &mut files);
        }
        if files.is_empty() {
            println!("notice: no corpus for {t}; skipping it");
            continue;
        }
        let mut uses = Uses::default();
        for f in &files {
            scan_file(
                &std::fs::read_to_string(f).expect("corpus file is readable"),
                &mut uses,
            );
        }
        let td = root.join(format!("targets/{t}/{t}.td"));
        let compiled =
            tdgen::emit::compile(&td, &[], None).unwrap_or_else(|f| panic!("{t}: {}", f.rendered));
        let tables = compiled.tables;
        let mut used = 0;
        let mut missing = Vec::new();
        for c in &tables.classes {
            if !c.allocatable || !uses.classes.contains(&c.name.to_ascii_lowercase()) {
                continue;
            }
            used += 1;
            let lacks: Vec<&str> = [
                ("spill", &c.spill),
                ("reload", &c.reload),
                ("copy", &c.copy),
            ]
            .into_iter()
            .filter(|(_, x)| x.is_empty())
            .filter(|(k, _)| *k != "copy" || !NO_COPY_TEMPLATE.contains(&(t, &c.name)))
            .map(|(k, _)| k)
            .collect();
            if !lacks.is_empty() {
                missing.push(format!("{} ({})", c.name, lacks.join(", ")));
            }
        }
        println!(
            "{t}: templates {}/{used} classes{}",
            used - missing.len(),
            if missing.is_empty() {
                String::new()
            } else {
                format!("; missing: {}", missing.join(", "))
            }
        );
        if !missing.is_empty() {
            failures.push(format!("{t}: {}", missing.join(", ")));
        }
    }
    assert!(
        failures.is_empty(),
        "classes without templates:\n{}",
        failures.join("\n")
    );
}

/// One instruction as `llvm-tblgen-19 -gen-instr-info` describes it.
#[derive(Debug, PartialEq)]
struct LlvmInstr {
    /// Per operand: class name (`None` for no class and for pointer classes), tied-to, early-clobber.
    operands: Vec<(Option<String>, Option<u8>, bool)>,
    num_defs: u8,
    implicit_defs: Vec<String>,
    implicit_uses: Vec<String>,
    flags: Vec<String>,
}

/// The flag names of `MCID` in the bit order of `regalloc::target::InstrFlags`.
const MCID_FLAGS: &[&str] = &[
    "Rematerializable",
    "CheapAsAMove",
    "MoveImm",
    "Commutable",
    "ConvertibleTo3Addr",
    "Call",
    "Terminator",
    "Branch",
    "IndirectBranch",
    "Return",
    "Barrier",
    "MayLoad",
    "MayStore",
    "MoveReg",
    "Pseudo",
    "Variadic",
    "UnmodeledSideEffects",
];

/// The class LLVM 19's `getPointerRegClass` gives each pointer-like operand
/// kind of target `t` (C++ in LLVM, so tblgen cannot say; x86-64 System V:
/// `X86RegisterInfo::getPointerRegClass`). Our targets state the same with
/// `PointerRegClass` defs.
fn pointer_class(t: &str, kind: &str) -> Option<String> {
    let classes: &[&str] = match t {
        "x86" => &[
            "GR64",
            "GR64_NOSP",
            "GR64_NOREX",
            "GR64_NOREX_NOSP",
            "GR64_TC",
        ],
        _ => &[],
    };
    kind.parse::<usize>()
        .ok()
        .and_then(|k| classes.get(k))
        .map(|c| c.to_string())
}

/// Reads the instruction table of an `-gen-instr-info` file of target `t`:
/// operand info groups, implicit-register groups (`/* N */ ...` lines) and
/// descriptor rows.
fn parse_instr_inc(t: &str, text: &str) -> BTreeMap<String, LlvmInstr> {
    let strip_ns = |s: &str| s.rsplit("::").next().unwrap_or(s).trim().to_string();
    let mut ops: BTreeMap<usize, (Option<String>, Option<u8>, bool)> = BTreeMap::new();
    let mut imps: BTreeMap<usize, String> = BTreeMap::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("/* ") {
            let Some((n, body)) = rest.split_once(" */ ") else {
                continue;
            };
            let Ok(mut k) = n.parse::<usize>() else {
                continue;
            };
            if body.starts_with('{') {
                for item in body.split('}').filter(|s| s.contains('{')) {
                    let f: Vec<&str> = item
                        .trim_start_matches([',', ' '])
                        .trim_start_matches('{')
                        .split(',')
                        .map(str::trim)
                        .collect();
                    let class = if f[1].contains("LookupPtrRegClass") {
                        pointer_class(t, f[0])
                    } else {
                        (f[0] != "-1")
                            .then(|| strip_ns(f[0]).trim_end_matches("RegClassID").to_string())
                    };
                    let tied = f[3]
                        .split_once("MCOI_TIED_TO(")
                        .and_then(|(_, r)| r.split(')').next())
                        .and_then(|x| x.parse().ok());
                    ops.insert(k, (class, tied, f[3].contains("EARLY_CLOBBER")));
                    k += 1;
                }
            } else if !body.contains('"') && body.contains("::") {
                for r in body.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    imps.insert(k, strip_ns(r));
                    k += 1;
                }
            }
        } else if l.starts_with("{ ") && l.contains("// Inst #") {
            let (fields, name) = l.split_once("// Inst #").unwrap();
            let name = name.split(" = ").nth(1).unwrap_or("").trim().to_string();
            let f: Vec<&str> = fields
                .trim()
                .trim_start_matches('{')
                .split(',')
                .map(str::trim)
                .collect();
            let num = |i: usize| f[i].parse::<usize>().unwrap_or(0);
            let imp_off = f[7]
                .rsplit('+')
                .next()
                .unwrap()
                .trim()
                .parse::<usize>()
                .unwrap_or(0);
            let flags: Vec<String> = f[9]
                .split("MCID::")
                .skip(1)
                .map(|s| s.split(')').next().unwrap_or("").to_string())
                .collect();
            rows.push((name, num(1), num(2), num(5), num(6), imp_off, num(8), flags));
        }
    }
    rows.into_iter()
        .map(|(name, nops, ndefs, nuses, nimpdefs, imp, opoff, flags)| {
            let operands = (0..nops).map(|i| ops[&(opoff + i)].clone()).collect();
            let implicit_uses = (0..nuses).map(|i| imps[&(imp + i)].clone()).collect();
            let implicit_defs = (0..nimpdefs)
                .map(|i| imps[&(imp + nuses + i)].clone())
                .collect();
            let mut flags: Vec<String> = flags
                .into_iter()
                .filter(|f| MCID_FLAGS.contains(&f.as_str()))
                .collect();
            flags.sort();
            (
                name,
                LlvmInstr {
                    operands,
                    num_defs: ndefs as u8,
                    implicit_defs,
                    implicit_uses,
                    flags,
                },
            )
        })
        .collect()
}

/// Instruction facts agree with `llvm-tblgen-19 -gen-instr-info` on the same
/// files (`targets/oracle/<t>-instrs-top.td`, LLVM's Target.td): per
/// instruction the operands (class, tied-to, early-clobber), the number of
/// definitions, implicit defs and uses, and the flags. A pointer-like
/// operand (LLVM resolves its kind per subtarget, in C++) must have the
/// class [`pointer_class`] gives its kind.
/// Prints `<t>: instruction facts N/N agree`.
#[test]
fn instruction_facts_agree_with_llvm_tblgen() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let Some(include) = regalloc_tests::llvm_include_dir() else {
        assert!(!regalloc_tests::in_ci(), "LLVM 19 is required under CI");
        println!("skipped: LLVM 19 not found");
        return;
    };
    let tmp = std::env::temp_dir().join(format!("regalloc-instr-facts-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    for t in ["bpf", "aarch64", "x86", "hexagon"] {
        let inc = tmp.join(format!("{t}.inc"));
        let out = std::process::Command::new("llvm-tblgen-19")
            .arg("-gen-instr-info")
            .arg("-I")
            .arg(&include)
            .arg("-I")
            .arg(root.join(format!("targets/{t}")))
            .arg(root.join(format!("targets/oracle/{t}-instrs-top.td")))
            .arg("-o")
            .arg(&inc)
            .output();
        let Ok(out) = out else {
            println!("skipped: llvm-tblgen-19 does not run");
            return;
        };
        assert!(
            out.status.success(),
            "{t}: llvm-tblgen-19 rejects the description:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let llvm = parse_instr_inc(t, &std::fs::read_to_string(&inc).unwrap());
        let td = root.join(format!("targets/{t}/{t}.td"));
        let tables = tdgen::emit::compile(&td, &[], None)
            .unwrap_or_else(|f| panic!("{t}: {}", f.rendered))
            .tables;
        let mut agree = 0;
        let mut differ = Vec::new();
        for i in &tables.instrs {
            let Some(l) = llvm.get(&i.name) else {
                differ.push(format!("{}: not in llvm-tblgen's table", i.name));
                continue;
            };
            let ours = LlvmInstr {
                operands: i
                    .operands
                    .iter()
                    .map(|o| {
                        (
                            o.class.map(|c| tables.classes[c as usize].name.clone()),
                            o.tied_to,
                            o.early_clobber,
                        )
                    })
                    .collect(),
                num_defs: i.num_defs,
                implicit_defs: i
                    .implicit_defs
                    .iter()
                    .map(|&r| tables.regs[r as usize].name.clone())
                    .collect(),
                implicit_uses: i
                    .implicit_uses
                    .iter()
                    .map(|&r| tables.regs[r as usize].name.clone())
                    .collect(),
                flags: {
                    let mut v: Vec<String> = (0..MCID_FLAGS.len())
                        .filter(|b| i.flags >> b & 1 == 1)
                        .map(|b| MCID_FLAGS[b].to_string())
                        .collect();
                    v.sort();
                    v
                },
            };
            if &ours == l {
                agree += 1;
            } else {
                differ.push(format!("{}: llvm-tblgen {l:?}\n    tdgen {ours:?}", i.name));
            }
        }
        println!(
            "{t}: instruction facts {agree}/{} agree",
            tables.instrs.len()
        );
        for d in differ.iter().take(10) {
            println!("  {d}");
        }
        if !differ.is_empty() {
            failures.push(format!("{t}: {} instructions differ", differ.len()));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
