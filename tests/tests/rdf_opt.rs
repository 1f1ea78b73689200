//! RDF copy propagation and dead-code elimination against LLVM's `hexagon-rdf-opt`: on LLVM's greedy allocation of the Hexagon corpus and held-out sets, our optimiser leaves at most as many instructions as `llc-19 -run-pass=hexagon-rdf-opt` per function and in total, every output passes `llc-19 -run-pass=none -verify-machineinstrs`, and its CPU time is printed beside LLVM's pass (from `-time-passes`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use regalloc::ir::{MachineFunction, Op};
use regalloc::mir;
use regalloc::rdf::optimize;
use regalloc::timing::thread_cpu_time;
use regalloc_tests::corpus_alloc::{flat_name, llc_bad_functions, mir_files};
use regalloc_tests::require_llvm_tool;

const FLAGS: &[&str] = &[
    "-mtriple=hexagon-unknown-linux-musl",
    "-relocation-model=pic",
    "-machine-sink-split=0",
];

fn cache_dir() -> PathBuf {
    let d = std::env::var_os("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("regalloc-tests"))
        .join("rdf_opt");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The O2 Hexagon MIR of a set (`corpus`, `heldout`).
fn set_root(set: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out")
        .join(set)
        .join("hexagon/O2")
}

/// LLVM's greedy allocation of `input`, cached.
fn llvm_greedy(llc: &Path, input: &Path, name: &str) -> Option<PathBuf> {
    let out = cache_dir().join(format!("{name}.greedy.mir"));
    if out.exists() {
        return Some(out);
    }
    let tmp = cache_dir().join(format!("{name}.greedy.tmp"));
    let st = Command::new(llc)
        .args(["-O2", "-regalloc=greedy", "-start-after=machine-scheduler"])
        .arg("-stop-after=virtregrewriter")
        .args(FLAGS)
        .arg(input)
        .arg("-o")
        .arg(&tmp)
        .status()
        .ok()?;
    if !st.success() {
        return None;
    }
    std::fs::rename(&tmp, &out).ok()?;
    Some(out)
}

/// LLVM's `hexagon-rdf-opt` on `allocated`: the output file and the pass's
/// user+system time from `-time-passes` (with the dominator tree and
/// frontiers it asks for).
fn llvm_rdf_opt(llc: &Path, allocated: &Path, name: &str) -> Option<(PathBuf, Duration)> {
    let out = cache_dir().join(format!("{name}.llvm-rdf.mir"));
    let run = Command::new(llc)
        .args(FLAGS)
        .args(["-run-pass=hexagon-rdf-opt", "-time-passes", "-o"])
        .arg(&out)
        .arg(allocated)
        .output()
        .ok()?;
    if !run.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&run.stderr);
    // The pass and the two analyses it asks for (ours builds its own
    // dominator tree and frontiers).
    let rows = [
        "Hexagon RDF optimizations",
        "MachineDominator Tree Construction",
        "Machine Dominance Frontier Construction",
    ];
    // A file without functions runs no pass and prints no row.
    let secs: f64 = rows
        .iter()
        .filter_map(|row| text.lines().find(|l| l.ends_with(row)))
        .filter_map(user_plus_system)
        .sum();
    Some((out, Duration::from_secs_f64(secs)))
}

/// The user+system seconds of a `-time-passes` row: `user (%) system (%)
/// user+system (%) wall (%) name`, the percentages in parentheses.
fn user_plus_system(row: &str) -> Option<f64> {
    let times: Vec<f64> = row
        .split_whitespace()
        .filter(|w| !w.contains('(') && !w.contains('%'))
        .filter_map(|w| w.parse().ok())
        .collect();
    times.get(2).copied()
}

/// Instructions of `f` (debug instructions not counted).
fn instructions(f: &MachineFunction) -> usize {
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|&&i| !matches!(f.inst(i).op, Op::Generic(g) if g.name().starts_with("DBG_")))
        .count()
}

/// What one run compared.
#[derive(Default)]
struct Totals {
    files: usize,
    functions: usize,
    before: usize,
    ours: usize,
    llvm: usize,
    propagated: usize,
    ours_cpu: Duration,
    llvm_cpu: Duration,
    over: Vec<String>,
    unverified: Vec<String>,
}

fn compare_file(llc: &Path, root: &Path, path: &Path, n: &mut Totals) {
    let t = &regalloc_targets::hexagon::TARGET;
    let name = flat_name(root, path);
    let Some(allocated) = llvm_greedy(llc, path, &name) else {
        println!("notice: llc -regalloc=greedy failed on {}", path.display());
        return;
    };
    let Some((llvm_out, llvm_cpu)) = llvm_rdf_opt(llc, &allocated, &name) else {
        n.unverified
            .push(format!("{name}: llc -run-pass=hexagon-rdf-opt failed"));
        return;
    };
    let llvm_text = std::fs::read_to_string(&llvm_out).unwrap();
    let llvm_file = mir::read(t, &name, &llvm_text);
    let llvm_counts: BTreeMap<&str, usize> = llvm_file
        .read_functions()
        .map(|f| (f.name.as_str(), instructions(f)))
        .collect();
    let text = std::fs::read_to_string(&allocated).unwrap();
    let mut file = mir::read(t, &name, &text);
    for doc in &mut file.functions {
        let mir::FunctionDoc::Read(f) = doc else {
            n.unverified
                .push(format!("{name}: a function was not read"));
            continue;
        };
        let before = instructions(f);
        let start = thread_cpu_time();
        let r = optimize(t, f);
        n.ours_cpu += thread_cpu_time().saturating_sub(start);
        let ours = instructions(f);
        let Some(&llvm) = llvm_counts.get(f.name.as_str()) else {
            n.unverified
                .push(format!("{name}:{}: not in LLVM's output", f.name));
            continue;
        };
        n.functions += 1;
        n.before += before;
        n.ours += ours;
        n.llvm += llvm;
        n.propagated += r.rewritten;
        if ours > llvm {
            n.over
                .push(format!("{name}:{}: ours {ours} > llvm {llvm}", f.name));
        }
    }
    n.llvm_cpu += llvm_cpu;
    n.files += 1;
    let ours_out = cache_dir().join(format!("{name}.ours-rdf.mir"));
    std::fs::write(&ours_out, mir::write(t, &file)).unwrap();
    match llc_bad_functions(llc, FLAGS, &ours_out) {
        Ok(bad) => {
            for (f, (what, inst)) in bad {
                n.unverified
                    .push(format!("{name}:{f}: {what} {}", inst.unwrap_or_default()));
            }
        }
        Err(e) => n.unverified.push(format!("{name}: {e}")),
    }
}

fn run(files: &[(PathBuf, PathBuf)]) {
    let Some(llc) = require_llvm_tool("llc") else {
        return;
    };
    if files.is_empty() {
        eprintln!("notice: no Hexagon corpus under bench/out: skipped");
        return;
    }
    let mut n = Totals::default();
    for (root, path) in files {
        compare_file(&llc, root, path, &mut n);
    }
    for o in n.over.iter().take(30) {
        println!("more instructions than LLVM: {o}");
    }
    for u in n.unverified.iter().take(30) {
        println!("not verified: {u}");
    }
    let ratio = n.ours_cpu.as_secs_f64() / n.llvm_cpu.as_secs_f64().max(1e-9);
    println!(
        "rdf-opt: {} files, {} functions: instructions {} before, ours {} (removed {}), \
         llvm {} (removed {}); {} uses propagated",
        n.files,
        n.functions,
        n.before,
        n.ours,
        n.before - n.ours,
        n.llvm,
        n.before - n.llvm,
        n.propagated
    );
    println!(
        "rdf-opt CPU time: ours {:.4} s, llvm's pass {:.4} s (ratio {ratio:.2})",
        n.ours_cpu.as_secs_f64(),
        n.llvm_cpu.as_secs_f64()
    );
    assert!(n.functions > 0, "no function compared");
    assert!(
        n.unverified.is_empty(),
        "outputs not verified (listed above)"
    );
    assert!(
        n.over.is_empty(),
        "functions over LLVM's count (listed above)"
    );
    assert!(n.ours <= n.llvm, "more instructions than LLVM in total");
}

/// The `.mir` files of `sets`, each with its set's root.
fn files_of(sets: &[&str]) -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for s in sets {
        let root = set_root(s);
        for p in mir_files(&root) {
            out.push((root.clone(), p));
        }
    }
    out
}

#[test]
fn rdf_opt_leaves_no_more_than_llvm_on_lz4_and_zlib() {
    let files: Vec<_> = files_of(&["corpus"])
        .into_iter()
        .filter(|(_, p)| {
            let s = p.to_string_lossy();
            s.contains("/lz4/") || s.contains("/zlib/")
        })
        .collect();
    run(&files);
}

#[test]
#[ignore = "the whole Hexagon corpus and held-out sets: minutes"]
fn rdf_opt_leaves_no_more_than_llvm_on_everything() {
    run(&files_of(&["corpus", "heldout", "heldout2"]));
}
