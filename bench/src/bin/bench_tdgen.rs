//! Benchmark: tdgen's front end on LLVM 19's Target.td set against `llvm-tblgen-19 -print-records`, measured in the same run.
//!
//! `cargo run --release -p regalloc-bench --bin bench-tdgen [-- RUNS]` parses and
//! evaluates `include "llvm/Target/Target.td"` plus a stub target (23,696
//! records) RUNS times (default 7), times llvm-tblgen on the same file in
//! alternation, and prints the medians and their ratio. A ratio at or below
//! 1.0 means tdgen is at least as fast.
use std::path::Path;
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
        .unwrap_or(7);
    let include = Path::new("/usr/lib/llvm-19/include");
    if !include.join("llvm/Target/Target.td").is_file() {
        eprintln!(
            "LLVM 19's Target.td not found under {}: apt-get install llvm-19-dev",
            include.display()
        );
        std::process::exit(2);
    }
    let dir = std::env::temp_dir().join("tdgen-bench");
    std::fs::create_dir_all(&dir).expect("temporary directory is writable");
    let top = dir.join("stub.td");
    std::fs::write(
        &top,
        "include \"llvm/Target/Target.td\"\ndef Stub : Target;\n",
    )
    .expect("temporary file is writable");
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let mut records = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let mut loader = tdgen::Loader::new();
        loader.include_dir(include);
        let rk = loader
            .records(&top)
            .unwrap_or_else(|d| panic!("tdgen rejected Target.td:\n{}", loader.render(&d)));
        records = rk.def_order.len();
        drop(rk);
        ours.push(t.elapsed());
        let t = Instant::now();
        let out = Command::new("llvm-tblgen-19")
            .arg("-print-records")
            .arg("-I")
            .arg(include)
            .arg(&top)
            .output()
            .expect("llvm-tblgen-19 runs");
        assert!(out.status.success(), "llvm-tblgen-19 failed");
        theirs.push(t.elapsed());
    }
    let (o, l) = (median(ours), median(theirs));
    println!("Target.td set: {records} defs, {runs} runs each");
    println!(
        "tdgen parse+evaluate: {:>8.1} ms (median)",
        o.as_secs_f64() * 1e3
    );
    println!(
        "llvm-tblgen-19 -print-records: {:>8.1} ms (median, whole process)",
        l.as_secs_f64() * 1e3
    );
    println!(
        "ratio tdgen / llvm-tblgen: {:.2}",
        o.as_secs_f64() / l.as_secs_f64()
    );
}
