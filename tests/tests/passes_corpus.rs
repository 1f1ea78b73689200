//! The pre-allocation passes against llc's, function by function, on SSA MIR of the corpus (`bench/out/ssa`, made by `bench/corpus/ssa`).
//!
//! For each pass, two comparisons with llc's output after that pass
//! (`llc-19 -O2 -start-before=detect-dead-lanes -stop-after=NAME`,
//! canonicalized with `-run-pass=none`):
//!
//! - **alone**: our pass on llc's output of the pass before it (the SSA
//!   file itself for `detect-dead-lanes`), so that a difference is this
//!   pass's own;
//! - **chained**: our passes from the SSA file up to the pass (`init-undef`
//!   changes nothing on our four targets, and has no pass here).
//!
//! Both sides are printed by our MIR writer (llc's file read and written
//! back; `tests/tests/mir_roundtrip.rs` holds that round trip to llc's
//! text), and compared as whole function documents: the same
//! instructions, operands, flags, registers, blocks and block order.
//! Our chained output of PHI elimination (critical edges split) and of
//! two-address lowering is written back into its file and read by
//! `llc-19 -run-pass=none -verify-machineinstrs`. Two-address lowering
//! alone starts from llc's PHI elimination with the kills its flags give
//! (`LiveVariables::from_flags`), as LLVM's pass finds them.
//! Prints the counts per target and pass; fails when a pass refuses a
//! function, when llc's verifier rejects one, when PHI elimination
//! or two-address lowering matches llc on fewer functions than
//! [`PHI_ELIMINATION_AT_LEAST`] or [`TWO_ADDRESS_AT_LEAST`], or
//! when a pass that matches llc on every function today stops doing so:
//! `detect-dead-lanes`, `processimpdefs`, `unreachable-mbb-elimination`
//! and `livevars` on all four targets.
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use regalloc::ir::MachineFunction;
use regalloc::mir::{FunctionDoc, MirFile};
use regalloc::passes::{self, LiveVariables, Pass, PassState};
use regalloc::target::TargetInfo;
use regalloc_tests::corpus_alloc::{llc_bad_functions, ssa_targets as targets};

/// The passes whose llc output `bench/corpus/ssa` caches (the coalescer's
/// is compared in `coalescer_corpus.rs`).
const CACHED: [Pass; 6] = [
    Pass::DetectDeadLanes,
    Pass::ProcessImplicitDefs,
    Pass::UnreachableBlockElim,
    Pass::LiveVariables,
    Pass::PhiElimination,
    Pass::TwoAddress,
];

/// At least this many functions per target match llc exactly after our
/// `phi-node-elimination` alone (critical edges split as LLVM splits
/// them): x86-64, AArch64, Hexagon, BPF.
const PHI_ELIMINATION_AT_LEAST: [(&str, usize); 4] = [
    ("x86_64", 93),
    ("aarch64", 97),
    ("hexagon", 66),
    ("bpf", 64),
];

/// At least this many functions per target match llc exactly after our
/// `twoaddressinstruction` alone (on llc's output of PHI elimination,
/// with the kills its flags give): x86-64, AArch64, Hexagon, BPF.
const TWO_ADDRESS_AT_LEAST: [(&str, usize); 4] = [
    ("x86_64", 152),
    ("aarch64", 175),
    ("hexagon", 174),
    ("bpf", 99),
];

/// The SSA files of a target: `<lib>/<name>.mir` without a pass suffix.
fn ssa_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(libs) = std::fs::read_dir(dir) else {
        return out;
    };
    for lib in libs.flatten() {
        let Ok(files) = std::fs::read_dir(lib.path()) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if name.ends_with(".mir") && name.matches('.').count() == 1 {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// llc's output after `pass` for the SSA file `ssa`.
fn after(ssa: &Path, pass: &str) -> PathBuf {
    ssa.with_extension(format!("{pass}.mir"))
}

/// A file, read, every function of it readable.
fn read(t: &TargetInfo<'_>, path: &Path) -> MirFile {
    let text = std::fs::read_to_string(path).expect("a cached MIR file");
    let file = regalloc::mir::read(t, &path.display().to_string(), &text);
    assert_eq!(
        file.errors().count(),
        0,
        "{}: unreadable functions",
        path.display()
    );
    file
}

/// The functions of a file, read, by name.
fn functions(t: &TargetInfo<'_>, path: &Path) -> HashMap<String, MachineFunction> {
    read(t, path)
        .read_functions()
        .map(|f| (f.name.clone(), f.clone()))
        .collect()
}

/// Writes `file` with its functions replaced by `ours` (by name) where
/// there, and has `llc-19 -run-pass=none -verify-machineinstrs` read it;
/// the functions verified, and a line per complaint (or llc failure).
fn verify_with_llc(
    llc: &Path,
    flags: &[&str],
    t: &TargetInfo<'_>,
    mut file: MirFile,
    ours: &HashMap<String, MachineFunction>,
    out: &Path,
) -> (usize, Vec<String>) {
    let mut written = Vec::new();
    for doc in &mut file.functions {
        if let FunctionDoc::Read(f) = doc
            && let Some(g) = ours.get(&f.name)
        {
            *f = g.clone();
            written.push(f.name.clone());
        }
    }
    std::fs::write(out, regalloc::mir::write(t, &file)).expect("a temporary MIR file");
    match llc_bad_functions(llc, flags, out) {
        Ok(bad) => (
            written.iter().filter(|n| !bad.contains_key(*n)).count(),
            bad.into_iter()
                .map(|(f, (what, inst))| format!("{}: {f}: {what} {inst:?}", out.display()))
                .collect(),
        ),
        Err(e) => (0, vec![format!("{}: {e}", out.display())]),
    }
}

#[derive(Default)]
struct Count {
    functions: usize,
    alone: usize,
    chained: usize,
    /// Chained output that llc's verifier accepted (PHI elimination,
    /// two-address lowering).
    verified: usize,
}

/// With `PASSES_CORPUS_DUMP=DIR` set, writes a function that differs
/// from llc's after a pass alone to `DIR/<target>.<pass>.<function>.ours`
/// and `.llc`, for diffing.
fn dump_difference(target: &str, pass: Pass, function: &str, ours: &str, llc: &str) {
    let Some(dir) = std::env::var_os("PASSES_CORPUS_DUMP") else {
        return;
    };
    let stem = format!("{target}.{}.{function}", pass.name());
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("the dump directory");
    std::fs::write(dir.join(format!("{stem}.ours")), ours).expect("a dump file");
    std::fs::write(dir.join(format!("{stem}.llc")), llc).expect("a dump file");
}

/// Every function through every pass, alone and chained, beside llc's.
#[test]
fn passes_match_llc_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/ssa");
    let mut any = false;
    let mut refused = Vec::new();
    let mut mismatched = Vec::new();
    let mut unverified = Vec::new();
    let mut report = String::new();
    let llc = regalloc_tests::llvm_tool("llc");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("passes_corpus");
    std::fs::create_dir_all(&tmp).expect("a temporary directory");
    for (dir, t, flags) in targets() {
        let files = ssa_files(&root.join(dir));
        if files.is_empty() {
            continue;
        }
        any = true;
        let mut counts: Vec<Count> = CACHED.iter().map(|_| Count::default()).collect();
        for ssa in &files {
            let input = functions(t, ssa);
            let mut previous = input.clone();
            for (k, pass) in CACHED.into_iter().enumerate() {
                // `processimpdefs` starts from llc's `init-undef`, which
                // follows `detect-dead-lanes` (and changes nothing here).
                if pass == Pass::ProcessImplicitDefs {
                    previous = functions(t, &after(ssa, "init-undef"));
                }
                let theirs = functions(t, &after(ssa, pass.name()));
                let mut ours = HashMap::new();
                let c = &mut counts[k];
                for (name, want) in &theirs {
                    c.functions += 1;
                    let want = regalloc::mir::write_function(t, want);
                    let mut alone = previous[name].clone();
                    let mut state = PassState::default();
                    // PHI elimination uses what `livevars` found (which
                    // changes nothing on its own output).
                    if pass == Pass::PhiElimination
                        && let Err(e) = passes::run(t, &mut alone, Pass::LiveVariables, &mut state)
                    {
                        refused.push(format!("{}: {e}", ssa.display()));
                    }
                    // Two-address lowering uses the kills `livevars` and
                    // PHI elimination left, which llc's flags show.
                    if pass == Pass::TwoAddress {
                        state.live_variables = Some(LiveVariables::from_flags(&alone));
                    }
                    match passes::run(t, &mut alone, pass, &mut state) {
                        Ok(()) => {
                            let ours = regalloc::mir::write_function(t, &alone);
                            if ours != want {
                                dump_difference(dir, pass, name, &ours, &want);
                            }
                            c.alone += usize::from(ours == want)
                        }
                        Err(e) => refused.push(format!("{}: {e}", ssa.display())),
                    }
                    let mut chained = input[name].clone();
                    match passes::run_until(t, &mut chained, pass) {
                        Ok(_) => {
                            c.chained +=
                                usize::from(regalloc::mir::write_function(t, &chained) == want);
                            ours.insert(name.clone(), chained);
                        }
                        Err(e) => refused.push(format!("{}: {e}", ssa.display())),
                    }
                }
                if matches!(pass, Pass::PhiElimination | Pass::TwoAddress)
                    && let Some(llc) = &llc
                {
                    let stem = ssa.file_stem().unwrap_or_default().to_string_lossy();
                    let out = tmp.join(format!("{dir}-{stem}.{}.mir", pass.name()));
                    let (verified, bad) = verify_with_llc(llc, flags, t, read(t, ssa), &ours, &out);
                    c.verified += verified;
                    unverified.extend(bad);
                }
                previous = theirs;
            }
        }
        for (pass, c) in CACHED.iter().zip(&counts) {
            let exact = matches!(
                pass,
                Pass::DetectDeadLanes
                    | Pass::ProcessImplicitDefs
                    | Pass::UnreachableBlockElim
                    | Pass::LiveVariables
            );
            if exact && c.alone != c.functions {
                mismatched.push(format!(
                    "{dir} {}: {}/{}",
                    pass.name(),
                    c.alone,
                    c.functions
                ));
            }
            let at_least = match pass {
                Pass::PhiElimination => PHI_ELIMINATION_AT_LEAST.iter().find(|(d, _)| *d == dir),
                Pass::TwoAddress => TWO_ADDRESS_AT_LEAST.iter().find(|(d, _)| *d == dir),
                _ => None,
            };
            if let Some(&(_, least)) = at_least
                && c.alone < least
            {
                mismatched.push(format!(
                    "{dir} {}: {}/{} (at least {least} before)",
                    pass.name(),
                    c.alone,
                    c.functions
                ));
            }
            let verified =
                if matches!(pass, Pass::PhiElimination | Pass::TwoAddress) && llc.is_some() {
                    format!(", verified by llc {}", c.verified)
                } else {
                    String::new()
                };
            report.push_str(&format!(
                "{dir:8} {:28} {:5} functions: alone {:5} ({:.1}%), chained {:5} ({:.1}%){verified}\n",
                pass.name(),
                c.functions,
                c.alone,
                100.0 * c.alone as f64 / c.functions.max(1) as f64,
                c.chained,
                100.0 * c.chained as f64 / c.functions.max(1) as f64,
            ));
        }
    }
    if !any {
        println!("skipped: no SSA MIR under bench/out/ssa (run bench/corpus/ssa)");
        return;
    }
    print!("{report}");
    assert!(refused.is_empty(), "refused:\n{}", refused.join("\n"));
    assert!(
        unverified.is_empty(),
        "llc's verifier rejects our PHI elimination's or two-address lowering's output:\n{}",
        unverified.join("\n")
    );
    assert!(
        mismatched.is_empty(),
        "no longer llc's everywhere: {mismatched:?}"
    );
}
