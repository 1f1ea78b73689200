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

use regalloc::Allocator;
use regalloc_tests::corpus_alloc::{assert_every_function_allocates, compare_every_target};

#[test]
fn basic_on_the_corpora() {
    assert_every_function_allocates(Allocator::Basic);
}

/// LLVM's `-regalloc=basic` on the same files, counted the same way, and
/// the ratios, per target. Slow (runs llc on every corpus); LLVM's outputs
/// are cached in the target directory.
#[test]
#[ignore]
fn basic_beside_llvm_basic() {
    compare_every_target(Allocator::Basic);
}
