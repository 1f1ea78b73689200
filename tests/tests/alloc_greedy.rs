//! The greedy allocator on the developers' corpus: every function allocated, the result accepted by the checker and by `llc-19 -verify-machineinstrs`, and its spill code beside LLVM's own `-regalloc=greedy` on the same files.
//!
//! Prints, per target, `bpf greedy: N/N allocated, N/N checked, N/N
//! verified by llc`, the spill statistics, and (the ignored comparison)
//! the ratios ours/LLVM greedy.

use regalloc::Allocator;
use regalloc_tests::corpus_alloc::{assert_every_function_allocates, compare_every_target};

#[test]
fn greedy_on_the_corpora() {
    assert_every_function_allocates(Allocator::Greedy);
}

/// LLVM's `-regalloc=greedy` on the same files, counted the same way, and
/// the ratios of weighted spill+reload cost, per target (slow: runs llc on
/// every corpus file; its outputs are cached in the target directory).
#[test]
#[ignore]
fn greedy_beside_llvm_greedy() {
    compare_every_target(Allocator::Greedy);
}
