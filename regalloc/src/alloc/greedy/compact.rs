//! The compact region (LLVM's `calcCompactRegion`): the bundles where a range's own uses want it in a register, with no register's interference taken into account, for a region split when no register's region pays.
//!
//! A range that is live through many blocks but used in a few hot ones
//! (a loop's invariant address, a value compared in a chain of tests)
//! may find every register taken somewhere in its use blocks, so that no
//! candidate register's region costs less than spilling, and the block
//! split that follows leaves each block with a single use to a reload.
//! The compact region asks the spill placement network where the value
//! wants a register by its uses alone: the use blocks' borders prefer a
//! register, and the blocks the value only lives through prefer the stack
//! strongly, so that the region does not follow a loop's back edge or wander
//! through cold code. The region's interval is shorter and denser in uses
//! than the range, so it weighs more and can evict its way into a register,
//! where the range as a whole could not.

use crate::ir::Block;

use super::super::split::BlockConstraint;
use super::region::{Candidate, Region, newly_reached, wish};
use super::split::SplitAnalysis;

/// The compact region of the range `sa` describes, whose live-through
/// blocks are `region.through`; `None` when the range
/// lives through no block (it is compact already) or no bundle wants a
/// register.
pub(super) fn compact_region(region: &mut Region, sa: &SplitAnalysis) -> Option<Candidate> {
    if sa.through.is_empty() {
        return None;
    }
    region.seen.clear();
    let placer = &mut region.placer;
    placer.prepare();
    let constraints: Vec<BlockConstraint> = sa.use_blocks.iter().map(wish).collect();
    placer.add_constraints(&constraints);
    if !placer.scan_active_bundles() {
        return None;
    }
    let mut added: Vec<Block> = Vec::new();
    loop {
        newly_reached(
            placer,
            &region.bundles,
            &region.through,
            &mut region.seen,
            &mut added,
        );
        if added.is_empty() {
            break;
        }
        placer.add_pref_spill(&added, true);
        placer.iterate();
    }
    placer.finish();
    let positive = placer.positive_bundles();
    if positive.is_empty() {
        return None;
    }
    tracing::debug!(bundles = positive.len(), "compact region");
    Some(Candidate {
        reg: None,
        cost: 0.0,
        positive,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::VReg;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    use super::super::split::analyze;
    use super::super::{Greedy, GreedyOptions};

    /// `%0` is defined in bb.0, lives through the loop header bb.1 and
    /// the latch bb.3 without a use, is read twice in the loop body bb.2
    /// and once after the loop in bb.4.
    const LOOP: &str = "---
name: compact
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = LDD %1, 0
    JMP %bb.1
  bb.1:
    successors: %bb.4, %bb.2
    JEQ_ri %1, 0, %bb.4
    JMP %bb.2
  bb.2:
    successors: %bb.3
    %2:gpr = LDD %0, 0
    %2:gpr = ADD_rr %2, %0
    STD %2, %1, 0
    JMP %bb.3
  bb.3:
    successors: %bb.1
    JMP %bb.1
  bb.4:
    $r0 = COPY %0
    RET implicit $r0
...
";

    /// A loop whose header and latch run as often as its body: their
    /// strong stack preference outweighs the body's uses, so the value is
    /// not kept in a register around the back edge.
    #[test]
    fn a_loop_as_hot_as_its_uses_gives_no_compact_region() {
        let mut f = read(LOOP);
        let g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let sa = analyze(&g, VReg(0));
        assert_eq!(sa.through.len(), 2, "bb.1 and bb.3 are live-through");
        let mut region = Region::new(&g);
        mark_through(&mut region, &sa);
        assert!(compact_region(&mut region, &sa).is_none());
    }

    /// `%0` is defined in bb.0 and read on the hot side of a branch (bb.2,
    /// twice) and at the join (bb.3); the cold side bb.1 only passes it on.
    const DIAMOND: &str = "---
name: diamond
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1(0x08000000), %bb.2(0x78000000)
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = LDD %1, 0
    JEQ_ri %1, 0, %bb.1
    JMP %bb.2
  bb.1:
    successors: %bb.3
    JMP %bb.3
  bb.2:
    successors: %bb.3
    %2:gpr = LDD %0, 0
    %2:gpr = ADD_rr %2, %0
    STD %2, %1, 0
    JMP %bb.3
  bb.3:
    $r0 = COPY %0
    RET implicit $r0
...
";

    /// The cold side's stack preference, strong as it is, weighs less
    /// than the uses on the hot side and at the join: the region covers
    /// every bundle, the cold block included.
    #[test]
    fn hot_uses_outweigh_a_cold_live_through_block() {
        let mut f = read(DIAMOND);
        let g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let sa = analyze(&g, VReg(0));
        assert_eq!(sa.through, vec![Block::new(1)]);
        let mut region = Region::new(&g);
        mark_through(&mut region, &sa);
        let c = compact_region(&mut region, &sa).expect("a compact region");
        assert_eq!(c.reg, None);
        let bundle = |b: usize, out: bool| region.bundles.bundle(Block::new(b), out);
        let mut want = vec![bundle(0, true), bundle(2, true)];
        want.sort();
        assert_eq!(c.positive, want);
        assert_eq!(bundle(1, false), bundle(0, true));
        assert_eq!(bundle(1, true), bundle(2, true));
    }

    fn mark_through(region: &mut Region, sa: &SplitAnalysis) {
        region.through.clear();
        for &b in &sa.through {
            region.through.insert(b.index());
        }
    }

    #[test]
    fn a_range_without_live_through_blocks_is_compact_already() {
        let mut f = read(LOOP);
        let g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        // `%2` lives in bb.2 only.
        let sa = analyze(&g, VReg(2));
        let mut region = Region::new(&g);
        region.through.clear();
        assert!(compact_region(&mut region, &sa).is_none());
    }
}
