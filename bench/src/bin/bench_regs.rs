//! Benchmark: `tdgen regs` (front end + register semantics) on the four targets against `llvm-tblgen-19 -gen-register-info`, measured in the same run.
//!
//! `cargo run --release -p regalloc-bench --bin bench-regs [-- RUNS]` times, for
//! each of targets/{bpf,aarch64,x86,hexagon}, tdgen's load + `TargetModel::build`
//! in process and `llvm-tblgen-19 -gen-register-info` as a process, alternating,
//! RUNS times each (default 5), and prints medians and the ratio per target.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

// The same allocator as the tdgen binary, so the in-process measurement matches it.
#[global_allocator]
static GLOBAL: tdgen::alloc::Allocator = tdgen::alloc::Allocator;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    regalloc_bench::keep_freed_memory();
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ sits in the workspace")
        .to_path_buf();
    let include = PathBuf::from("/usr/lib/llvm-19/include");
    println!(
        "{:<8} {:>10} {:>12} {:>8}",
        "target", "tdgen ms", "tblgen ms", "ratio"
    );
    for t in ["bpf", "aarch64", "x86", "hexagon"] {
        let top = root.join(format!("targets/oracle/{t}-top.td"));
        let dir = root.join(format!("targets/{t}"));
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let start = Instant::now();
            let mut loader = tdgen::Loader::new();
            loader.include_dir(&include);
            loader.include_dir(&dir);
            let rk = loader
                .records(&top)
                .unwrap_or_else(|d| panic!("{}", loader.render(&d)));
            let model = tdgen::target::TargetModel::build(&rk)
                .unwrap_or_else(|d| panic!("{}", loader.render(&d)));
            std::hint::black_box(&model);
            ours.push(start.elapsed());
            let start = Instant::now();
            let out = Command::new("llvm-tblgen-19")
                .args(["-gen-register-info", "-o", "/dev/null", "-I"])
                .arg(&include)
                .arg("-I")
                .arg(&dir)
                .arg(&top)
                .output()
                .expect("llvm-tblgen-19 runs");
            assert!(out.status.success(), "llvm-tblgen-19 failed on {t}");
            theirs.push(start.elapsed());
        }
        let (o, l) = (median(ours), median(theirs));
        println!(
            "{t:<8} {:>10.1} {:>12.1} {:>8.2}",
            o.as_secs_f64() * 1e3,
            l.as_secs_f64() * 1e3,
            o.as_secs_f64() / l.as_secs_f64()
        );
    }
}
