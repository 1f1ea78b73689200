//! The whole path from SSA MIR: our pre-allocation passes and Greedy on the SSA corpus (`bench/out/ssa`, made by `bench/corpus/ssa` at `-stop-before=detect-dead-lanes`), every function allocated, checked and verified by llc, and spill traffic and COPYs beside LLVM's own whole path from the same file.
//!
//! `regalloc::allocate` lowers SSA input itself (stage 0 of the pipeline:
//! `processimpdefs` through `register-coalescer`, then the allocator);
//! the checker is given the lowered function as the original, and the
//! written output is read by `llc-19 -run-pass=none
//! -verify-machineinstrs` (`corpus_alloc::run_files`).
//!
//! The default test runs a few small modules of every target. The ignored
//! one (`cargo test --release -p regalloc-tests --test ssa_path --
//! --ignored --nocapture`) runs every SSA file and prints per target the
//! spill traffic (spills, reloads and folded reloads, weighted by block
//! frequency) and the COPYs left, ours beside LLVM's
//! `llc-19 -O2 <flags> -start-before=detect-dead-lanes
//! -stop-after=virtregrewriter` on the same file, each side counted by
//! one rule (`corpus_alloc::count_llvm`, as `count-spill-code` counts).
//! LLVM's path also runs its machine scheduler, which ours does not; the
//! same path with `-enable-misched=false` is printed beside it, to say
//! what the scheduler changes.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regalloc::Allocator;
use regalloc_tests::corpus_alloc::{
    LlvmCounts, Outcome, assert_all_allocated, llvm_counts, run_files, ssa_files, ssa_targets,
};

/// The modules of the default test: small, with loops and PHIs.
const SUBSET: [&str; 3] = ["zlib/adler32.mir", "zlib/crc32.mir", "bzip2/huffman.mir"];

/// `bench/out/ssa`.
fn ssa_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/ssa")
}

/// Our whole path on the files of every target that `keep` keeps:
/// each target's outcome, after asserting that every function was
/// allocated, checked and verified. None when there is no SSA corpus.
fn run_every_target(keep: impl Fn(&Path) -> bool) -> Option<Vec<(&'static str, Outcome)>> {
    let ci = regalloc_tests::in_ci();
    let mut outcomes = Vec::new();
    for (dir, t, flags) in ssa_targets() {
        let root = ssa_root().join(dir);
        let files: Vec<PathBuf> = ssa_files(&root).into_iter().filter(|p| keep(p)).collect();
        if files.is_empty() {
            continue;
        }
        let Some(o) = run_files("ssa", dir, &root, &files, t, flags, Allocator::Greedy) else {
            continue;
        };
        for f in o.failures.iter().take(20) {
            println!("{dir}: {} failed at {}: {}", f.function, f.stage, f.message);
        }
        assert_all_allocated(dir, &o, ci);
        outcomes.push((dir, o));
    }
    if outcomes.is_empty() {
        assert!(
            !ci,
            "no SSA MIR under bench/out/ssa on CI (bench/corpus/ssa makes it)"
        );
        println!("skipped: no SSA MIR under bench/out/ssa (run bench/corpus/ssa)");
        return None;
    }
    Some(outcomes)
}

/// Every function of a few small SSA modules of each target through our
/// passes and Greedy: allocated, accepted by our checker and by llc's
/// verifier.
#[test]
fn ssa_subset_allocates_checks_and_verifies() {
    run_every_target(|p| SUBSET.iter().any(|s| p.ends_with(s)));
}

/// Weighted spill traffic (spills, reloads, folded reloads) and COPYs
/// summed over the functions both sides have.
#[derive(Default, Debug)]
struct Sums {
    functions: usize,
    traffic: f64,
    copies: u64,
    other_traffic: f64,
    other_copies: u64,
}

/// The weighted traffic of one function's spill code.
fn traffic(c: &LlvmCounts) -> f64 {
    c.spill_cost + c.reload_cost + c.folded_reload_cost
}

/// `ours` beside `theirs`, over the functions both have.
fn sums(ours: &BTreeMap<String, LlvmCounts>, theirs: &[(String, LlvmCounts)]) -> Sums {
    let mut s = Sums::default();
    for (key, l) in theirs {
        let Some(o) = ours.get(key) else { continue };
        s.functions += 1;
        s.traffic += traffic(o);
        s.copies += o.copies;
        s.other_traffic += traffic(l);
        s.other_copies += l.copies;
    }
    s
}

/// `a / b`, 1 when both are 0.
fn ratio(a: f64, b: f64) -> f64 {
    if a == b { 1.0 } else { a / b.max(1e-9) }
}

/// Every SSA file of every target through our whole path, beside LLVM's
/// whole path with and without its machine scheduler.
#[test]
#[ignore = "the whole SSA corpus against LLVM's whole path: minutes"]
fn ssa_path_against_llvm() {
    let Some(llc) = regalloc_tests::require_llvm_tool("llc") else {
        return;
    };
    let Some(outcomes) = run_every_target(|_| true) else {
        return;
    };
    let whole_path = [
        "-O2",
        "-regalloc=greedy",
        "-start-before=detect-dead-lanes",
        "-stop-after=virtregrewriter",
    ]
    .map(String::from);
    let mut without_misched = whole_path.to_vec();
    without_misched.push("-enable-misched=false".into());
    let mut report = String::new();
    for (dir, o) in &outcomes {
        let (_, t, flags) = ssa_targets()
            .into_iter()
            .find(|(d, _, _)| d == dir)
            .expect("a target of the SSA corpus");
        let root = ssa_root().join(dir);
        let files = ssa_files(&root);
        let llvm = |label: &str, args: &[String]| {
            llvm_counts(&llc, "ssa", dir, label, &root, &files, t, flags, args)
        };
        let with = sums(&o.counted, &llvm("greedy-whole-path", &whole_path));
        let without = sums(
            &o.counted,
            &llvm("greedy-whole-path-no-misched", &without_misched),
        );
        report.push_str(&format!(
            "{dir:8} {}/{} allocated, {} checked, {} verified by llc\n",
            o.allocated,
            o.total,
            o.checked,
            o.verified.unwrap_or(0),
        ));
        for (name, s) in [("LLVM", &with), ("LLVM -enable-misched=false", &without)] {
            report.push_str(&format!(
                "{dir:8}   ours/{name} ({} functions): spill traffic {:.1}/{:.1} = {:.3}x, COPYs {}/{} = {:.3}x\n",
                s.functions,
                s.traffic,
                s.other_traffic,
                ratio(s.traffic, s.other_traffic),
                s.copies,
                s.other_copies,
                ratio(s.copies as f64, s.other_copies as f64),
            ));
        }
        report.push_str(&format!(
            "{dir:8}   LLVM's scheduler: spill traffic with/without {:.1}/{:.1} = {:.3}x, COPYs {}/{} = {:.3}x\n",
            with.other_traffic,
            without.other_traffic,
            ratio(with.other_traffic, without.other_traffic),
            with.other_copies,
            without.other_copies,
            ratio(with.other_copies as f64, without.other_copies as f64),
        ));
    }
    print!("{report}");
}
