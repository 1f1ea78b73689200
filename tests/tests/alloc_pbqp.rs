//! The PBQP allocator on the developers' corpus: every function allocated, the result accepted by `llc-19 -verify-machineinstrs` and by the checker, spill code counted beside LLVM's own `-regalloc=pbqp`.
//!
//! The exact mode (`Allocator::PbqpExact`) goes through the same checker
//! and verifier.
//!
//! Corpora: BPF, x86-64, AArch64 and Hexagon (`bench/out/corpus/<t>/O2`),
//! each with the tables `regalloc_targets` generates from `targets/<t>/<t>.td`.
//! Without `llc-19` the verifier and the LLVM comparison are skipped with a
//! notice. Prints, per target, the `N/N allocated, checked, verified` line,
//! and (ignored test) the spill and reload counts and weighted costs beside
//! LLVM's PBQP allocator's on the same files, with their ratios.

use regalloc::Allocator;
use regalloc_tests::corpus_alloc::{assert_every_function_allocates, compare_every_target};

#[test]
fn pbqp_on_the_corpora() {
    assert_every_function_allocates(Allocator::Pbqp);
}

/// The exact mode (each round's problem solved to the optimum where the
/// search ends within the default limit) through the same checker and
/// verifier: its solutions differ from the heuristic's, and whatever they
/// are, the spill rounds and clean-up stages must make correct code.
#[test]
fn exact_pbqp_on_the_corpora() {
    assert_every_function_allocates(Allocator::PbqpExact {
        node_limit: regalloc::DEFAULT_PBQP_EXACT_LIMIT,
    });
}

/// LLVM's `-regalloc=pbqp` on the same files, counted the same way, and
/// the ratios, per target. Slow (runs llc on every corpus); LLVM's outputs
/// are cached in the target directory.
#[test]
#[ignore]
fn pbqp_beside_llvm_pbqp() {
    compare_every_target(Allocator::Pbqp);
}
