//! Our pre-allocation passes up to the register coalescer on every function of the SSA corpus (`bench/out/ssa`, made by `bench/corpus/ssa`), the result read by llc's verifier, and the COPYs left beside LLVM's `-stop-after=register-coalescer`.
//!
//! For each SSA file, llc's own coalescer output is made on the spot
//! (`llc-19 -O2 <flags> -start-before=detect-dead-lanes
//! -stop-after=register-coalescer`, into the test's temporary
//! directory). Our chain runs from the SSA file to `register-coalescer`;
//! our output is written back into the file and read by `llc-19
//! -run-pass=none -verify-machineinstrs`. Prints per target the COPYs
//! after our two-address lowering, after our coalescer and after LLVM's
//! coalescer, and why ours left the copies it left; fails when a pass
//! refuses a function or llc's verifier rejects one.
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use regalloc::ir::{Generic, MachineFunction, Op};
use regalloc::mir::{FunctionDoc, MirFile};
use regalloc::passes::{self, Pass, register_coalescer::CoalescerStats};
use regalloc::target::TargetInfo;
use regalloc_tests::corpus_alloc::{llc_bad_functions, ssa_targets as targets};

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

fn read(t: &TargetInfo<'_>, path: &Path) -> MirFile {
    let text = std::fs::read_to_string(path).expect("a MIR file");
    let file = regalloc::mir::read(t, &path.display().to_string(), &text);
    assert_eq!(
        file.errors().count(),
        0,
        "{}: unreadable functions",
        path.display()
    );
    file
}

/// The `COPY`s of a function.
fn copies(f: &MachineFunction) -> usize {
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|&&i| f.inst(i).op == Op::Generic(Generic::Copy))
        .count()
}

/// llc's coalescer output for `ssa`, written to `out`.
fn llc_coalescer(llc: &Path, flags: &[&str], ssa: &Path, out: &Path) -> Result<(), String> {
    let run = Command::new(llc)
        .arg("-O2")
        .args(flags)
        .args([
            "-start-before=detect-dead-lanes",
            "-stop-after=register-coalescer",
            "-o",
        ])
        .arg(out)
        .arg(ssa)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", llc.display()))?;
    if run.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&run.stderr)
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

#[derive(Default)]
struct Count {
    functions: usize,
    verified: usize,
    before: usize,
    ours: usize,
    llvm: usize,
    stats: CoalescerStats,
}

fn add(a: &mut CoalescerStats, b: &CoalescerStats) {
    a.joined += b.joined;
    a.rematerialized += b.rematerialized;
    a.dead += b.dead;
    a.left_interference += b.left_interference;
    a.left_class += b.left_class;
    a.left_sub_register += b.left_sub_register;
    a.left_physical += b.left_physical;
}

/// Every SSA function through our passes to the coalescer, verified by
/// llc, COPYs counted beside LLVM's.
#[test]
fn coalescer_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/ssa");
    let Some(llc) = regalloc_tests::llvm_tool("llc") else {
        println!("skipped: llc-19 not found");
        return;
    };
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("coalescer_corpus");
    std::fs::create_dir_all(&tmp).expect("a temporary directory");
    let mut any = false;
    let mut refused = Vec::new();
    let mut unverified = Vec::new();
    let mut report = String::new();
    for (dir, t, flags) in targets() {
        let files = ssa_files(&root.join(dir));
        if files.is_empty() {
            continue;
        }
        any = true;
        let mut c = Count::default();
        for ssa in &files {
            let lib = ssa
                .parent()
                .and_then(Path::file_name)
                .unwrap_or_default()
                .to_string_lossy();
            let stem = ssa.file_stem().unwrap_or_default().to_string_lossy();
            let theirs_path = tmp.join(format!("{dir}-{lib}-{stem}.llc.mir"));
            if let Err(e) = llc_coalescer(&llc, flags, ssa, &theirs_path) {
                refused.push(format!("{}: llc: {e}", ssa.display()));
                continue;
            }
            let theirs: HashMap<String, usize> = read(t, &theirs_path)
                .read_functions()
                .map(|f| (f.name.clone(), copies(f)))
                .collect();
            let mut file = read(t, ssa);
            for doc in &mut file.functions {
                let FunctionDoc::Read(f) = doc else { continue };
                c.functions += 1;
                let mut lowered = f.clone();
                if let Err(e) = passes::run_until(t, &mut lowered, Pass::TwoAddress) {
                    refused.push(format!("{}: {e}", ssa.display()));
                    continue;
                }
                c.before += copies(&lowered);
                match passes::register_coalescer::run(t, &mut lowered) {
                    Ok(s) => add(&mut c.stats, &s),
                    Err(e) => {
                        refused.push(format!("{}: {e}", ssa.display()));
                        continue;
                    }
                }
                c.ours += copies(&lowered);
                c.llvm += theirs.get(&f.name).copied().unwrap_or(0);
                *f = lowered;
            }
            let out = tmp.join(format!("{dir}-{lib}-{stem}.ours.mir"));
            std::fs::write(&out, regalloc::mir::write(t, &file)).expect("a temporary MIR file");
            let written = file
                .functions
                .iter()
                .filter(|d| matches!(d, FunctionDoc::Read(_)))
                .count();
            match llc_bad_functions(&llc, flags, &out) {
                Ok(bad) => {
                    c.verified += written - bad.len().min(written);
                    unverified.extend(bad.into_iter().map(|(f, (what, inst))| {
                        format!("{}: {f}: {what} {inst:?}", out.display())
                    }));
                }
                Err(e) => unverified.push(format!("{}: {e}", out.display())),
            }
        }
        let s = &c.stats;
        report.push_str(&format!(
            "{dir:8} {:5} functions, verified by llc {:5}; COPYs after two-address {:6}, \
             after our coalescer {:6}, after LLVM's {:6} ({:.3}x); \
             joined {}, rematerialized {}, dead {}; left: interference {}, \
             no common class {}, sub-register {}, physical {}\n",
            c.functions,
            c.verified,
            c.before,
            c.ours,
            c.llvm,
            c.ours as f64 / c.llvm.max(1) as f64,
            s.joined,
            s.rematerialized,
            s.dead,
            s.left_interference,
            s.left_class,
            s.left_sub_register,
            s.left_physical,
        ));
    }
    if !any {
        println!("skipped: no SSA MIR under bench/out/ssa (run bench/corpus/ssa)");
        return;
    }
    print!("{report}");
    assert!(refused.is_empty(), "refused:\n{}", refused.join("\n"));
    assert!(
        unverified.is_empty(),
        "llc's verifier rejects our coalescer's output:\n{}",
        unverified.join("\n")
    );
}
