//! Benchmark: reading MIR and computing the allocation analyses, per 1,000 instructions, from the smallest to the largest corpus function, beside `llc-19 -run-pass=none` reading the same files.
//!
//! `cargo run --release -p regalloc-bench --bin bench-mir [-- RUNS]` reads
//! every -O2 corpus file of the four targets (`bench/out/corpus/<t>/O2`),
//! RUNS times (default 3, best kept), and times per function: reading (the
//! file's share, by instructions) and the analyses (`FlowAnalyses`: CFG,
//! dominators, loops, block frequencies; `Analyses`: slot indexes, live
//! intervals, spill weights, hints). It prints, per target, the whole-corpus
//! read time beside `llc-19 -run-pass=none` on the same files (a process
//! per file, so its start-up is included), a table of time per 1,000
//! instructions by function-size bucket, and the exponent `b` of a
//! least-squares fit `time = a * size^b` over all functions (1.0 is linear).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use regalloc::inspect::{Analyses, FlowAnalyses};
use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The .mir files under `dir`, sorted.
fn mir_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// One function's measurements.
struct Sample {
    insts: usize,
    read: Duration,
    analyses: Duration,
}

fn best<T>(runs: usize, mut f: impl FnMut() -> (Duration, T)) -> (Duration, T) {
    let (mut d, mut v) = f();
    for _ in 1..runs {
        let (d2, v2) = f();
        if d2 < d {
            (d, v) = (d2, v2);
        }
    }
    (d, v)
}

/// Least-squares slope of ln(time) over ln(size).
fn exponent(samples: &[Sample]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| s.insts >= 8)
        .map(|s| {
            (
                (s.insts as f64).ln(),
                (s.read + s.analyses).as_secs_f64().max(1e-9).ln(),
            )
        })
        .collect();
    if pts.len() < 3 {
        return None;
    }
    let n = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (num, den) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    (den > 0.0).then(|| num / den)
}

fn per_k(d: Duration, insts: usize) -> f64 {
    d.as_secs_f64() * 1e6 / (insts.max(1) as f64 / 1000.0)
}

fn run_target(root: &Path, dir: &str, t: &TargetInfo<'_>, triple: &[&str], runs: usize) {
    let files = mir_files(&root.join("bench/out/corpus").join(dir).join("O2"));
    if files.is_empty() {
        println!("{dir}: no corpus (run bench/corpus/build); skipped");
        return;
    }
    let mut samples = Vec::new();
    let (mut ours_read, mut llc_read) = (Duration::ZERO, Duration::ZERO);
    let llc = Command::new("llc-19").arg("--version").output().is_ok();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let name = f.display().to_string();
        let (read, file) = best(runs, || {
            let start = Instant::now();
            let file = mir::read(t, &name, &text);
            (start.elapsed(), file)
        });
        ours_read += read;
        let funcs: Vec<_> = file
            .functions
            .iter()
            .filter_map(|d| match d {
                FunctionDoc::Read(f) => Some(f),
                _ => None,
            })
            .collect();
        let total: usize = funcs.iter().map(|f| f.insts.len()).sum::<usize>().max(1);
        for func in funcs {
            let (analyses, ()) = best(runs, || {
                let start = Instant::now();
                std::hint::black_box(FlowAnalyses::new(func));
                std::hint::black_box(Analyses::new(t, func));
                (start.elapsed(), ())
            });
            let insts = func.insts.len();
            samples.push(Sample {
                insts,
                read: read.mul_f64(insts as f64 / total as f64),
                analyses,
            });
        }
        if llc {
            let (d, ok) = best(runs, || {
                let start = Instant::now();
                let out = Command::new("llc-19")
                    .args(triple)
                    .args(["-run-pass=none", "-o", "/dev/null"])
                    .arg(f)
                    .output();
                (start.elapsed(), out.is_ok_and(|o| o.status.success()))
            });
            if ok {
                llc_read += d;
            }
        }
    }
    let insts: usize = samples.iter().map(|s| s.insts).sum();
    let analyses: Duration = samples.iter().map(|s| s.analyses).sum();
    println!(
        "{dir}: {} functions, {insts} instructions, {} files; read {:.1} ms ({:.1} us per 1k instructions), analyses {:.1} ms ({:.1} us per 1k)",
        samples.len(),
        files.len(),
        ours_read.as_secs_f64() * 1e3,
        per_k(ours_read, insts),
        analyses.as_secs_f64() * 1e3,
        per_k(analyses, insts)
    );
    if llc {
        println!(
            "{dir}: llc-19 -run-pass=none on the same files {:.1} ms; ratio ours (read) / llc {:.3}, ours (read + analyses) / llc {:.3}",
            llc_read.as_secs_f64() * 1e3,
            ours_read.as_secs_f64() / llc_read.as_secs_f64().max(1e-9),
            (ours_read + analyses).as_secs_f64() / llc_read.as_secs_f64().max(1e-9)
        );
    }
    println!(
        "  {:>16} {:>9} {:>14} {:>18}",
        "instructions", "functions", "read us/1k", "analyses us/1k"
    );
    let mut lo = 1;
    while lo <= samples.iter().map(|s| s.insts).max().unwrap_or(0) {
        let hi = lo * 4;
        let b: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.insts >= lo && s.insts < hi)
            .collect();
        if !b.is_empty() {
            let n: usize = b.iter().map(|s| s.insts).sum();
            let r: Duration = b.iter().map(|s| s.read).sum();
            let a: Duration = b.iter().map(|s| s.analyses).sum();
            println!(
                "  {:>16} {:>9} {:>14.1} {:>18.1}",
                format!("{lo}-{}", hi - 1),
                b.len(),
                per_k(r, n),
                per_k(a, n)
            );
        }
        lo = hi;
    }
    if let Some(largest) = samples.iter().max_by_key(|s| s.insts) {
        println!(
            "  largest function: {} instructions, read {:.2} ms, analyses {:.2} ms",
            largest.insts,
            largest.read.as_secs_f64() * 1e3,
            largest.analyses.as_secs_f64() * 1e3
        );
    }
    if let Some(b) = exponent(&samples) {
        println!("  fit time = a * size^b over functions of 8+ instructions: b = {b:.2}");
    }
}

fn main() {
    regalloc_bench::keep_freed_memory();
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ sits in the workspace")
        .to_path_buf();
    run_target(
        &root,
        "bpf",
        &regalloc_targets::bpf::TARGET,
        &["-mtriple=bpf", "-mcpu=v3"],
        runs,
    );
    run_target(
        &root,
        "x86_64",
        &regalloc_targets::x86::TARGET,
        &["-mtriple=x86_64-linux-gnu"],
        runs,
    );
    run_target(
        &root,
        "aarch64",
        &regalloc_targets::aarch64::TARGET,
        &["-mtriple=aarch64-linux-gnu"],
        runs,
    );
    run_target(
        &root,
        "hexagon",
        &regalloc_targets::hexagon::TARGET,
        &["-mtriple=hexagon"],
        runs,
    );
}
