//! The four allocators on held-out libraries (mimalloc and zstd, `bench/out/heldout`): code no tuning has looked at, with what the corpus lacks (atomics, thread-local storage, opcodes the target descriptions do not have), allocated, checked and verified by `llc-19` function by function.
//!
//! `bench/corpus/build --held-out` makes the set (mimalloc for x86-64,
//! AArch64 and Hexagon, zstd for those and BPF; `.ci/run` builds it).
//! Greedy, Basic and PBQP allocate its -O2 form,
//! Fast its -O0 form. Prints, per target and allocator:
//!
//! ```text
//! x86_64 greedy: N/N allocated, N/N checked, N/N verified by llc
//! ```
//!
//! Outside CI a missing set or llc-19 skips with a notice.
//!
//! `REGALLOC_HELD_OUT=DIR` points the tests at another set laid out the
//! same way (`DIR/<target>/<level>/<lib>/<module>.mir`), so that code
//! from elsewhere can be allocated, checked and compared the same way.

use std::path::{Path, PathBuf};

use regalloc::Allocator;
use regalloc_tests::corpus_alloc::{assert_all_allocated, compare_root, run_root, targets};

/// The held-out MIR of `target` at `level`.
fn held_out(target: &str, level: &str) -> PathBuf {
    std::env::var_os("REGALLOC_HELD_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/heldout"))
        .join(target)
        .join(level)
}

fn every_function_allocates(allocator: Allocator, level: &str) {
    let ci = std::env::var_os("CI").is_some();
    for (name, dir, t, flags, _) in targets() {
        let Some(o) = run_root(dir, &held_out(dir, level), t, flags, allocator) else {
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

#[test]
fn greedy_allocates_the_held_out_library() {
    every_function_allocates(Allocator::Greedy, "O2");
}

#[test]
fn basic_allocates_the_held_out_library() {
    every_function_allocates(Allocator::Basic, "O2");
}

#[test]
fn pbqp_allocates_the_held_out_library() {
    every_function_allocates(Allocator::Pbqp, "O2");
}

#[test]
fn fast_allocates_the_held_out_library() {
    every_function_allocates(Allocator::Fast, "O0");
}

/// Greedy beside LLVM's greedy on the held-out library, counted as on the
/// corpus (`alloc_greedy`'s comparison): the figure no tuning could fit.
/// Slow; LLVM's outputs are cached in the target directory.
#[test]
#[ignore]
fn greedy_beside_llvm_greedy_on_the_held_out_library() {
    beside_llvm(Allocator::Greedy);
}

/// PBQP beside LLVM's `-regalloc=pbqp` on the held-out library, counted
/// the same way (`alloc_pbqp`'s comparison on the corpus). Slow, cached
/// like the Greedy comparison.
#[test]
#[ignore]
fn pbqp_beside_llvm_pbqp_on_the_held_out_library() {
    beside_llvm(Allocator::Pbqp);
}

/// `allocator` beside LLVM's allocator of the same name on the held-out
/// -O2 set of every target, with the ratios printed per target.
fn beside_llvm(allocator: Allocator) {
    let Some(llc) = regalloc_tests::llvm_tool("llc") else {
        println!("notice: llc-19 not found; skipping the comparison");
        return;
    };
    for (name, dir, t, flags, start_after) in targets() {
        let compared = compare_root(
            &llc,
            dir,
            &held_out(dir, "O2"),
            t,
            flags,
            start_after,
            allocator,
        );
        // The figure exists: both sides allocated the library and LLVM
        // left spill code to compare with.
        let Some((ours, llvm)) = compared else {
            println!("notice: no {name} held-out set");
            continue;
        };
        assert!(ours.is_finite() && llvm > 0.0, "{name}: {ours} / {llvm}");
    }
}
