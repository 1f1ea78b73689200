//! The greedy allocator's queue and LLVM's priority layout: stage, hint, global versus local, class priority, then size or instruction distance.

use std::collections::BinaryHeap;

use crate::analysis::Hint;
use crate::analysis::slots::INSTR_DIST;
use crate::ir::VReg;

use super::{Greedy, Stage};

/// A max-heap of (priority, register); among equal priorities the lower
/// register number comes first, as LLVM's `(Prio, ~Reg)` pairs do.
#[derive(Clone, Debug, Default)]
pub struct Queue {
    heap: BinaryHeap<(u32, std::cmp::Reverse<u32>)>,
}

impl Queue {
    /// Adds `v` with priority `p`.
    pub fn push(&mut self, p: u32, v: VReg) {
        self.heap.push((p, std::cmp::Reverse(v.0)));
    }

    /// The register of highest priority.
    pub fn pop(&mut self) -> Option<VReg> {
        self.heap.pop().map(|(_, r)| VReg(r.0))
    }
}

/// The priority of `v` (LLVM's `DefaultPriorityAdvisor::getPriority`).
///
/// Bit 31 marks ranges of the primary queue above deferred ones (stage
/// `Split` or later, which are ordered by size alone, after everything
/// else); bit 30 ranges with a known physical preference; then either the
/// global bit (29) above the class's `AllocationPriority` (28-24), or the
/// other way round (`class_priority_trumps_globalness`); the low 24 bits
/// are the size of the range, or for a range inside one block, on its
/// first time through, its distance from the function's end (so that local
/// ranges are coloured in instruction order, which is optimal for singly
/// defined local ranges without other constraints).
pub(crate) fn priority(g: &mut Greedy<'_, '_, '_>, v: VReg) -> u32 {
    let Some(iv) = g.an.intervals.vreg(v) else {
        return 0;
    };
    let size = iv.range.size();
    let stage = g.stage(v);
    if stage == Stage::Split {
        return size.min((1 << 24) - 1);
    }
    let begin = iv.range.segments.first().map(|s| s.start);
    let class = g
        .func
        .vreg_class(v)
        .filter(|c| c.index() < g.t.classes.len());
    // The tables carry `AllocationPriority` but not `GlobalPriority`
    // (no target of ours sets it), so only size forces globalness.
    let (alloc_prio, global_prio, nregs) = match class {
        Some(c) => (
            u32::from(g.t.class(c).priority).min(31),
            false,
            g.orders.num_allocatable(g.t, c),
        ),
        None => (0, false, 0),
    };
    let force_global = global_prio
        || (size / (INSTR_DIST / crate::analysis::slots::LLVM_SCALE)) as usize > 2 * nregs;
    let local = g.is_local(v);
    let first_turn = stage == Stage::Assign || stage == Stage::New;
    let (mut prio, global_bit) = match begin {
        Some(b) if first_turn && !force_global && local => {
            let last = g.an.intervals.slots.last_index();
            (last.base().saturating_sub(b.base()) / INSTR_DIST, 0)
        }
        _ => (size, 1),
    };
    prio = prio.min((1 << 24) - 1);
    if g.opts.class_priority_trumps_globalness {
        prio |= alloc_prio << 25 | global_bit << 24;
    } else {
        prio |= global_bit << 29 | alloc_prio << 24;
    }
    prio |= 1 << 31;
    if has_known_preference(g, v) {
        prio |= 1 << 30;
    }
    prio
}

/// Whether `v` has a physical hint, directly or through an assigned
/// copy partner (LLVM's `hasKnownPreference`: the first hint only).
fn has_known_preference(g: &Greedy<'_, '_, '_>, v: VReg) -> bool {
    match g.an.hints.get(v.index()).and_then(|h| h.first()) {
        Some((Hint::Phys(_), _)) => true,
        Some((Hint::Virt(w), _)) => g.vrm.phys(*w).is_some(),
        None => false,
    }
}
