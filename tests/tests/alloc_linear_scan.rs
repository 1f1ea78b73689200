//! Linear scan on the developers' corpus and the held-out libraries: every function allocated, the result accepted by `llc-19 -verify-machineinstrs` and by the checker, spill code counted beside Greedy's on the same files.
//!
//! Corpora: BPF, x86-64, AArch64 and Hexagon (`bench/out/corpus/<t>/O2`
//! and `bench/out/heldout/<t>/O2`), each with the tables
//! `regalloc_targets` generates from `targets/<t>/<t>.td`. LLVM 19 has no
//! linear-scan allocator to compare with; the ignored test sets its spill
//! traffic beside our Greedy's on the same functions instead. Without
//! `llc-19` the verifier is skipped with a notice (on CI it is a failure).
//! Prints, per target and set, the `N/N allocated, checked, verified`
//! line.

use std::path::{Path, PathBuf};

use regalloc::{Allocator, Stats};
use regalloc_tests::corpus_alloc::{
    Outcome, assert_all_allocated, assert_every_function_allocates, corpus, run_root, targets,
};

/// The held-out -O2 MIR of `target` (as `alloc_heldout.rs` finds it).
fn held_out(target: &str) -> PathBuf {
    std::env::var_os("REGALLOC_HELD_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/heldout"))
        .join(target)
        .join("O2")
}

#[test]
fn linear_scan_on_the_corpora() {
    assert_every_function_allocates(Allocator::LinearScan);
}

#[test]
fn linear_scan_allocates_the_held_out_library() {
    let ci = std::env::var_os("CI").is_some();
    for (name, dir, t, flags, _) in targets() {
        let Some(o) = run_root(dir, &held_out(dir), t, flags, Allocator::LinearScan) else {
            assert!(
                !ci,
                "{name}: no held-out set on CI (bench/corpus/build --held-out makes it)"
            );
            continue;
        };
        assert!(o.total > 0, "{name}: the held-out set has functions");
        assert_eq!(o.rejected, 0, "{name}: the MIR reader reads every function");
        assert_all_allocated(name, &o, ci);
    }
}

/// Spill traffic of linear scan beside Greedy's on the same functions of
/// the corpus and the held-out set, per target, with the ratios and each
/// side's time. Slow (allocates everything twice and runs llc on it).
#[test]
#[ignore]
fn linear_scan_beside_greedy() {
    for (name, dir, t, flags, _) in targets() {
        for (set, root) in [("corpus", corpus(dir)), ("held-out", held_out(dir))] {
            let Some(ours) = run_root(dir, &root, t, flags, Allocator::LinearScan) else {
                continue;
            };
            let Some(greedy) = run_root(dir, &root, t, flags, Allocator::Greedy) else {
                continue;
            };
            print_beside(&format!("{name} {set}"), &ours, &greedy);
        }
    }
}

/// Prints `ours` (linear scan) beside `greedy` over the functions both
/// allocated: counts, weighted costs, copies, time, and the ratios.
fn print_beside(what: &str, ours: &Outcome, greedy: &Outcome) {
    let (mut a, mut b) = (Stats::default(), Stats::default());
    let mut both = 0;
    for (f, s) in &ours.per_function {
        if let Some(g) = greedy.per_function.get(f) {
            a.add(s);
            b.add(g);
            both += 1;
        }
    }
    let ratio = |x: f64, y: f64| x / y.max(1e-9);
    let traffic = |s: &Stats| {
        s.spill_cost + s.reload_cost + s.folded_reload_cost + s.folded_spill_cost + s.remat_cost
    };
    println!(
        "{what}: {both} functions; linear scan / greedy: spills {}/{} = {:.3}, reloads {}/{} = {:.3}, folded reloads {}/{}, remats {}/{}, copies left {}/{} = {:.3}",
        a.spills,
        b.spills,
        ratio(a.spills as f64, b.spills as f64),
        a.reloads,
        b.reloads,
        ratio(a.reloads as f64, b.reloads as f64),
        a.folded_reloads,
        b.folded_reloads,
        a.remats,
        b.remats,
        a.copies,
        b.copies,
        ratio(a.copies as f64, b.copies as f64),
    );
    println!(
        "{what}: weighted spill+reload {:.1}/{:.1} = {:.3}; all spill-slot accesses and remats weighted {:.1}/{:.1} = {:.3}",
        a.spill_cost + a.reload_cost,
        b.spill_cost + b.reload_cost,
        ratio(a.spill_cost + a.reload_cost, b.spill_cost + b.reload_cost),
        traffic(&a),
        traffic(&b),
        ratio(traffic(&a), traffic(&b)),
    );
    println!(
        "{what}: time (whole pipeline, this build) {:.3} s / {:.3} s = {:.3}",
        ours.time.as_secs_f64(),
        greedy.time.as_secs_f64(),
        ratio(ours.time.as_secs_f64(), greedy.time.as_secs_f64()),
    );
}
