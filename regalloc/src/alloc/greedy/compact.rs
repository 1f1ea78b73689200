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

use super::super::split::{BlockConstraint, BorderConstraint};
use super::region::{Candidate, Region};
use super::split::SplitAnalysis;

/// The compact region of the range `sa` describes, whose live-through
/// blocks carry the stamp `through` in `region`; `None` when the range
/// lives through no block (it is compact already) or no bundle wants a
/// register.
pub(super) fn compact_region(
    region: &mut Region,
    sa: &SplitAnalysis,
    through: u32,
) -> Option<Candidate> {
    if sa.through.is_empty() {
        return None;
    }
    let seen = region.next_stamp();
    let placer = &mut region.placer;
    placer.prepare();
    let border = |live: bool| {
        if live {
            BorderConstraint::PrefReg
        } else {
            BorderConstraint::DontCare
        }
    };
    let constraints: Vec<BlockConstraint> = sa
        .use_blocks
        .iter()
        .map(|u| BlockConstraint {
            block: u.block,
            entry: border(u.live_in),
            exit: border(u.live_out),
            change_state: true,
        })
        .collect();
    placer.add_constraints(&constraints);
    if !placer.scan_active_bundles() {
        return None;
    }
    loop {
        let mut added: Vec<Block> = Vec::new();
        for &bu in placer.recent_positive() {
            for &b in region.bundles.blocks(bu) {
                if region.through[b.index()] == through && region.seen[b.index()] != seen {
                    region.seen[b.index()] = seen;
                    added.push(b);
                }
            }
        }
        if added.is_empty() {
            break;
        }
        placer.add_pref_spill(&added, true);
        placer.iterate();
    }
    placer.finish();
    let positive: Vec<_> = placer.positive_bundles().collect();
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
