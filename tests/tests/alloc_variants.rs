//! The three allocators on the wide-register variants (`bench/out/variants`): the corpus libraries and zstd built for richer machines, so that vector, mask and predicate classes (x86 YMM, ZMM and K, AArch64 SVE Z and P, Hexagon HVX V, W and Q) are allocated, checked and verified by `llc-19` function by function.
//!
//! `bench/corpus/build --variants` makes the set (`.ci/run` builds it):
//! `x86_64-v3`, `x86_64-v4`, `aarch64-sve2` and `hexagon-hvx`, each with
//! an `llc-flags` file, the llc flags its MIR was made with, which the
//! verifier run here gets too (so that llc knows the subtarget's
//! features). Greedy and Basic allocate the -O2 form, Fast the -O0 form
//! (the same vectorized IR lowered at -O0). Prints, per variant and
//! allocator:
//!
//! ```text
//! x86_64-v4 greedy: N/N allocated, N/N checked, N/N verified by llc
//! ```
//!
//! and then every failure counted by cause, with one function for each.
//! Outside CI a missing set or llc-19 skips with a notice.
//! `REGALLOC_VARIANTS=x86_64-v3,hexagon-hvx` runs only the variants named.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regalloc::Allocator;
use regalloc::target::TargetInfo;
use regalloc_tests::corpus_alloc::{Outcome, assert_all_allocated, run_root};

/// Each variant's directory name and the tables of its base target.
fn variants() -> Vec<(&'static str, &'static TargetInfo<'static>)> {
    let only = std::env::var("REGALLOC_VARIANTS").ok();
    let all: [(&'static str, &'static TargetInfo<'static>); 4] = [
        ("x86_64-v3", &regalloc_targets::x86::TARGET),
        ("x86_64-v4", &regalloc_targets::x86::TARGET),
        ("aarch64-sve2", &regalloc_targets::aarch64::TARGET),
        ("hexagon-hvx", &regalloc_targets::hexagon::TARGET),
    ];
    all.into_iter()
        .filter(|(v, _)| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|n| n.trim() == *v))
        })
        .collect()
}

/// The directory of one variant.
fn variant_dir(variant: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out/variants")
        .join(variant)
}

/// The llc flags recorded beside a variant's MIR, one per line.
fn llc_flags(dir: &Path) -> Vec<String> {
    let path = dir.join("llc-flags");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (bench/corpus/build --variants writes it beside the MIR)",
            path.display()
        )
    });
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Prints `o`'s failures counted by cause, most frequent first, each with
/// its first function.
fn print_causes(variant: &str, allocator: Allocator, o: &Outcome) {
    let mut by_cause: BTreeMap<String, (usize, &str)> = BTreeMap::new();
    for f in &o.failures {
        by_cause
            .entry(f.cause.clone())
            .or_insert((0, &f.function))
            .0 += 1;
    }
    let mut rows: Vec<_> = by_cause.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    for (cause, (n, example)) in rows {
        println!(
            "{variant} {}: {n} x {cause} (e.g. {example})",
            allocator.name()
        );
    }
}

/// Prints how much of the variant's code uses opcodes its target's
/// description lacks: their ties, early-clobbers and implicit operands
/// are known only where the MIR prints them.
fn print_unknown_opcodes(variant: &str, o: &Outcome) {
    let mut rows: Vec<(&str, usize)> = o.unknown_opcodes.iter().map(|(k, v)| (*k, *v)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let insts: usize = rows.iter().map(|r| r.1).sum();
    let top: Vec<String> = rows
        .iter()
        .take(10)
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!(
        "{variant}: {insts} instructions of {} opcodes the description lacks (most used: {})",
        rows.len(),
        top.join(", ")
    );
}

/// Allocates every function of every variant at `level` with `allocator`,
/// then asserts that each was read, allocated, checked and verified.
fn every_function_allocates(allocator: Allocator, level: &str) {
    let ci = std::env::var_os("CI").is_some();
    let mut outcomes = Vec::new();
    for (variant, t) in variants() {
        let dir = variant_dir(variant);
        if !dir.join(level).is_dir() {
            assert!(
                !ci,
                "{variant}: no variant MIR on CI (bench/corpus/build --variants makes it)"
            );
            println!("notice: no {variant} MIR at {}", dir.display());
            continue;
        }
        let flags = llc_flags(&dir);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let Some(o) = run_root(variant, &dir.join(level), t, &flags, allocator) else {
            assert!(!ci, "{variant}: no {level} MIR on CI");
            continue;
        };
        print_unknown_opcodes(variant, &o);
        print_causes(variant, allocator, &o);
        outcomes.push((variant, o));
    }
    // Every variant runs before the first assertion, so that one report
    // shows them all.
    for (variant, o) in &outcomes {
        assert!(o.total > 0, "{variant}: the variant has functions");
        assert_eq!(
            o.rejected, 0,
            "{variant}: the MIR reader reads every function"
        );
        assert_all_allocated(variant, o, ci);
    }
}

#[test]
fn greedy_allocates_the_variants() {
    every_function_allocates(Allocator::Greedy, "O2");
}

#[test]
fn basic_allocates_the_variants() {
    every_function_allocates(Allocator::Basic, "O2");
}

#[test]
fn fast_allocates_the_variants() {
    every_function_allocates(Allocator::Fast, "O0");
}
