//! The basic allocator on the developers' corpus: every function allocated, the result accepted by `llc-19 -verify-machineinstrs` and by the checker, spill code counted beside LLVM's own `-regalloc=basic`.
//!
//! Corpora: BPF, x86-64, AArch64 and Hexagon (`bench/out/corpus/<t>/O2`),
//! each with the tables `regalloc_targets` generates from `targets/<t>/<t>.td`.
//! Without `llc-19` the verifier and the LLVM comparison are skipped with a
//! notice. Prints, per target:
//!
//! ```text
//! bpf basic: N/N allocated, N/N checked, N/N verified by llc
//! bpf basic: spills S reloads R remats M (weighted spill+reload cost C)
//! bpf llvm basic: spills S reloads R (weighted cost C); ratio ours/llvm ...
//! ```

use regalloc::alloc::Allocator;
use regalloc_tests::corpus_alloc::{compare, run_target, targets};

#[test]
fn basic_on_the_corpora() {
    for (name, dir, t, flags, _) in targets() {
        let Some(o) = run_target(dir, t, flags, Allocator::Basic) else {
            continue;
        };
        assert_eq!(o.allocated, o.total, "{name}: every function allocates");
        if let Some(v) = o.verified {
            assert_eq!(v, o.total, "{name}: llc verifies every allocated function");
        }
        assert_eq!(
            o.checked, o.total,
            "{name}: the checker accepts every allocation"
        );
    }
}

/// LLVM's `-regalloc=basic` on the same files, counted the same way, and
/// the ratios, per target. Slow (runs llc on every corpus); LLVM's outputs
/// are cached in the target directory.
#[test]
#[ignore]
fn basic_beside_llvm_basic() {
    let Some(llc) = regalloc_tests::llvm_tool("llc") else {
        println!("notice: llc-19 not found; skipping the comparison");
        return;
    };
    for (_, dir, t, flags, start_after) in targets() {
        compare(&llc, dir, t, flags, start_after, Allocator::Basic);
    }
}
