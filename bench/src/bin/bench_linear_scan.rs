//! `bench-linear-scan`: linear scan alone over the -O2 corpus in the modes of [`regalloc_bench::alloc_bench`] (dump, time, passes, profile), and `curve`: its compile time beside Greedy's by function size ([`regalloc_bench::curve`]).
//!
//! ```text
//! bench-linear-scan curve [RUNS] [TARGET...]   # per size bucket: linear scan's and Greedy's us per 1k instructions, ratio
//! ```

use regalloc::Allocator;
use regalloc_bench::alloc_bench::Bench;
use regalloc_bench::{corpus, curve};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some("curve") {
        Bench {
            name: "bench-linear-scan",
            allocator: Allocator::LinearScan,
            level: "O2",
            env: "BENCH_LINEAR_SCAN",
        }
        .main();
        return;
    }
    regalloc_bench::keep_freed_memory();
    let runs: Option<usize> = args.get(1).and_then(|s| s.parse().ok());
    let names = &args[1 + usize::from(runs.is_some())..];
    let targets: Vec<corpus::CorpusTarget> = if names.is_empty() {
        corpus::targets().to_vec()
    } else {
        names
            .iter()
            .map(|n| corpus::target(n).unwrap_or_else(|| panic!("unknown target {n}")))
            .collect()
    };
    let sides = [Allocator::LinearScan, Allocator::Greedy];
    let timed = curve::measure(&targets, sides, runs.unwrap_or(3));
    let names = ["linscan", "greedy"];
    for ct in &targets {
        let here: Vec<curve::Timed> = timed
            .iter()
            .filter(|t| t.target == ct.dir)
            .cloned()
            .collect();
        curve::print_table(ct.dir, names, &here);
    }
    if targets.len() > 1 {
        curve::print_table("all targets", names, &timed);
    }
}
