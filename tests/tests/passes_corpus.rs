//! The pre-allocation passes against llc's, function by function, on SSA MIR of the corpus (`bench/out/ssa`, made by `bench/corpus/ssa`).
//!
//! For each pass, two comparisons with llc's output after that pass
//! (`llc-19 -O2 -start-before=detect-dead-lanes -stop-after=NAME`,
//! canonicalized with `-run-pass=none`):
//!
//! - **alone**: our pass on llc's output of the pass before it, so that a
//!   difference is this pass's own;
//! - **chained**: our passes from the SSA file up to the pass, which
//!   differs from llc's also where `detect-dead-lanes` or `init-undef`
//!   (not implemented here) changed the function.
//!
//! Both sides are printed by our MIR writer (llc's file read and written
//! back; `tests/tests/mir_roundtrip.rs` holds that round trip to llc's
//! text), and compared as whole function documents: the same
//! instructions, operands, flags, registers, blocks and block order.
//! Prints the counts per target and pass; fails when a pass refuses a
//! function (other than PHI elimination for an edge LLVM splits), or when
//! a pass that matches llc on every function today stops doing so:
//! `processimpdefs` and `unreachable-mbb-elimination` on all four
//! targets, `livevars` on all but Hexagon (whose hardware-loop registers
//! LLVM reserves and our description does not).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use regalloc::ir::MachineFunction;
use regalloc::passes::{self, Pass, PassState};
use regalloc::target::TargetInfo;

fn targets() -> [(&'static str, &'static TargetInfo<'static>); 4] {
    [
        ("x86_64", &regalloc_targets::x86::TARGET),
        ("aarch64", &regalloc_targets::aarch64::TARGET),
        ("hexagon", &regalloc_targets::hexagon::TARGET),
        ("bpf", &regalloc_targets::bpf::TARGET),
    ]
}

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

/// The functions of a file, read, by name.
fn functions(t: &TargetInfo<'_>, path: &Path) -> HashMap<String, MachineFunction> {
    let text = std::fs::read_to_string(path).expect("a cached MIR file");
    let file = regalloc::mir::read(t, &path.display().to_string(), &text);
    assert_eq!(
        file.errors().count(),
        0,
        "{}: unreadable functions",
        path.display()
    );
    file.read_functions()
        .map(|f| (f.name.clone(), f.clone()))
        .collect()
}

#[derive(Default)]
struct Count {
    functions: usize,
    alone: usize,
    chained: usize,
    /// Refused because LLVM splits a critical edge there.
    splits: usize,
}

/// Whether PHI elimination refused the function for an edge it would
/// have to split (not done yet: it needs the target's branch analysis).
fn splits(e: &regalloc::AllocError) -> bool {
    e.message.contains("splits the critical edge")
}

/// Every function through every pass, alone and chained, beside llc's.
#[test]
fn passes_match_llc_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/ssa");
    let mut any = false;
    let mut refused = Vec::new();
    let mut mismatched = Vec::new();
    let mut report = String::new();
    for (dir, t) in targets() {
        let files = ssa_files(&root.join(dir));
        if files.is_empty() {
            continue;
        }
        any = true;
        let mut counts: Vec<Count> = Pass::ALL.iter().map(|_| Count::default()).collect();
        for ssa in &files {
            let input = functions(t, ssa);
            let mut previous = functions(t, &after(ssa, "init-undef"));
            for (k, pass) in Pass::ALL.into_iter().enumerate() {
                let theirs = functions(t, &after(ssa, pass.name()));
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
                    match passes::run(t, &mut alone, pass, &mut state) {
                        Ok(()) => {
                            c.alone += usize::from(regalloc::mir::write_function(t, &alone) == want)
                        }
                        Err(e) if splits(&e) => c.splits += 1,
                        Err(e) => refused.push(format!("{}: {e}", ssa.display())),
                    }
                    let mut chained = input[name].clone();
                    match passes::run_until(t, &mut chained, pass) {
                        Ok(_) => {
                            c.chained +=
                                usize::from(regalloc::mir::write_function(t, &chained) == want)
                        }
                        Err(e) if splits(&e) => {}
                        Err(e) => refused.push(format!("{}: {e}", ssa.display())),
                    }
                }
                previous = theirs;
            }
        }
        for (pass, c) in Pass::ALL.iter().zip(&counts) {
            let exact = matches!(pass, Pass::ProcessImplicitDefs | Pass::UnreachableBlockElim)
                || (*pass == Pass::LiveVariables && dir != "hexagon");
            if exact && c.alone != c.functions {
                mismatched.push(format!(
                    "{dir} {}: {}/{}",
                    pass.name(),
                    c.alone,
                    c.functions
                ));
            }
            report.push_str(&format!(
                "{dir:8} {:28} {:5} functions: alone {:5} ({:.1}%), chained {:5} ({:.1}%), refused for a split {}\n",
                pass.name(),
                c.functions,
                c.alone,
                100.0 * c.alone as f64 / c.functions.max(1) as f64,
                c.chained,
                100.0 * c.chained as f64 / c.functions.max(1) as f64,
                c.splits,
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
        mismatched.is_empty(),
        "no longer llc's everywhere: {mismatched:?}"
    );
}
