//! The greedy allocator on the developers' corpus: every function allocated, the result accepted by the checker and by `llc-19 -verify-machineinstrs`, and its spill code beside LLVM's own `-regalloc=greedy` on the same files.
//!
//! Prints, per target, `bpf greedy: N/N allocated, N/N checked, N/N
//! verified by llc`, the spill statistics, and (the ignored comparison)
//! the ratios ours/LLVM greedy.

use regalloc::alloc::Allocator;
use regalloc_tests::corpus_alloc::{compare, run_target, targets};

#[test]
fn greedy_on_the_corpora() {
    for (name, dir, t, flags, _) in targets() {
        let Some(o) = run_target(dir, t, flags, Allocator::Greedy) else {
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

/// LLVM's `-regalloc=greedy` on the same files, counted the same way, and
/// the ratios of weighted spill+reload cost, per target (slow: runs llc on
/// every corpus file; its outputs are cached in the target directory).
#[test]
#[ignore]
fn greedy_beside_llvm_greedy() {
    let Some(llc) = regalloc_tests::llvm_tool("llc") else {
        println!("notice: llc-19 not found; skipping the comparison");
        return;
    };
    for (_, dir, t, flags, start_after) in targets() {
        compare(&llc, dir, t, flags, start_after, Allocator::Greedy);
    }
}
