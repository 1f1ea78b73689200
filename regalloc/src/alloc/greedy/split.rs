//! The greedy allocator's splitting strategies: region split (where the spill placement says a register pays), block split (each block of uses on its own), and the analysis of a range's blocks they share (LLVM's `SplitAnalysis`).

use crate::analysis::{Segment, Slot, SlotIndex};
use crate::ir::{Block, Inst, VReg};

use super::super::AllocError;
use super::super::order::AllocationOrder;
use super::super::split::kit::live_blocks;
use super::super::split::{BlockPlan, Gap, SplitPlan};
use super::{Greedy, Stage};

/// How a range meets one block where it has uses (LLVM's `BlockInfo`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct UseBlock {
    /// The block.
    pub block: Block,
    /// The first instruction touching the range, and its index.
    pub first: Inst,
    /// Its index.
    pub first_at: SlotIndex,
    /// The last instruction touching the range.
    pub last: Inst,
    /// Its index.
    pub last_at: SlotIndex,
    /// How many instructions touch the range here.
    pub uses: usize,
    /// The range is live into the block.
    pub live_in: bool,
    /// The range is live out of the block.
    pub live_out: bool,
    /// An instruction here defines the range.
    pub defines: bool,
    /// An instruction from the first terminator on touches the range.
    pub at_terminator: bool,
}

impl UseBlock {
    /// Where a value leaving this block's interval is copied: after the
    /// last use, or before the terminators when a terminator uses it.
    pub fn after_last(&self) -> Gap {
        if self.at_terminator {
            Gap::End
        } else {
            Gap::After(self.last)
        }
    }

    /// Whether the first use is a terminator (no room before it for an
    /// interval of its own).
    pub fn starts_at_terminator(&self, g: &Greedy<'_, '_, '_>) -> bool {
        g.func.inst(self.first).op.is_terminator(g.t)
    }
}

/// The blocks of a range: those with uses, and those it only lives through.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SplitAnalysis {
    /// Blocks with instructions touching the range, in layout order.
    pub use_blocks: Vec<UseBlock>,
    /// Blocks the range is live through without touching them.
    pub through: Vec<Block>,
    /// Every block the range covers.
    pub blocks: Vec<Block>,
}

/// Analyses `v`'s blocks.
pub fn analyze(g: &Greedy<'_, '_, '_>, v: VReg) -> SplitAnalysis {
    let mut sa = SplitAnalysis::default();
    let Some(iv) = g.an.intervals.vreg(v) else {
        return sa;
    };
    let slots = &g.an.intervals.slots;
    sa.blocks = live_blocks(&g.an, &iv.range, g.func);
    // The instructions touching `v` are known in layout order: walk them
    // beside the live blocks (also in layout order) instead of every
    // instruction of every live block.
    let mut users = g
        .spiller
        .users(v)
        .iter()
        .filter_map(|&i| {
            let at = slots.inst(i)?;
            Some((slots.block_of(at)?, i, at))
        })
        .peekable();
    // The points asked about only increase (the blocks are in layout
    // order): a cursor over the segments answers them without a search.
    let mut live = LiveCursor {
        segments: &iv.range.segments,
        at: 0,
    };
    for &b in &sa.blocks {
        while users.next_if(|u| u.0 < b).is_some() {}
        let start = slots.block_start(b);
        let end = slots.block_end(b);
        let live_in = live.live_at(start);
        let live_out = live.live_at(SlotIndex(end.0 - 1));
        let mut ub: Option<UseBlock> = None;
        while let Some((_, i, at)) = users.next_if(|u| u.0 == b) {
            let inst = g.func.inst(i);
            let defines = inst.operands.iter().any(|o| {
                matches!(o, crate::ir::Operand::Reg(r) if r.reg == crate::ir::RegRef::Virt(v) && r.is_def())
            });
            // Terminators come last in a block: an instruction is at or
            // after the first one when it is one.
            let at_term = inst.op.is_terminator(g.t);
            match ub.as_mut() {
                None => {
                    ub = Some(UseBlock {
                        block: b,
                        first: i,
                        first_at: at,
                        last: i,
                        last_at: at,
                        uses: 1,
                        live_in,
                        live_out,
                        defines,
                        at_terminator: at_term,
                    })
                }
                Some(u) => {
                    u.last = i;
                    u.last_at = at;
                    u.uses += 1;
                    u.defines |= defines;
                    u.at_terminator |= at_term;
                }
            }
        }
        match ub {
            Some(u) => sa.use_blocks.push(u),
            None if live_in && live_out => sa.through.push(b),
            None => {}
        }
    }
    sa
}

/// [`LiveRange::live_at`](crate::analysis::LiveRange::live_at) for points
/// asked about in increasing order.
struct LiveCursor<'a> {
    /// The range's segments: sorted and disjoint.
    segments: &'a [Segment],
    /// The first segment that may contain a point asked about from now
    /// on: those before end at or before the last point asked about.
    at: usize,
}

impl LiveCursor<'_> {
    /// Whether `idx`, at or after the last point asked about, is live.
    fn live_at(&mut self, idx: SlotIndex) -> bool {
        while self.segments.get(self.at).is_some_and(|s| s.end <= idx) {
            self.at += 1;
        }
        // The first segment ending after `idx` is the only one that can
        // hold it.
        self.segments.get(self.at).is_some_and(|s| s.start <= idx)
    }
}

/// The frequency of block `b` relative to the entry.
pub fn freq(g: &Greedy<'_, '_, '_>, b: Block) -> f32 {
    g.an.flow.freq.relative(b)
}

/// What spilling `v` costs in spill code frequency (LLVM's
/// `calcSpillCost`): a load or a store per block of uses, both where the
/// value is live through and redefined.
pub fn spill_cost(g: &Greedy<'_, '_, '_>, v: VReg) -> f32 {
    spill_cost_of(g, &analyze(g, v))
}

/// [`spill_cost`] from an analysis already made.
pub fn spill_cost_of(g: &Greedy<'_, '_, '_>, sa: &SplitAnalysis) -> f32 {
    sa.use_blocks
        .iter()
        .map(|u| {
            let f = freq(g, u.block);
            if u.live_in && u.live_out && u.defines {
                2.0 * f
            } else {
                f
            }
        })
        .sum()
}

/// LLVM's `trySplit`: local split, then per-instruction split, for ranges
/// inside one block; region
/// split, then block split, for ranges that cross blocks; `Ok(true)` when
/// `v` was split (its pieces are queued).
pub fn try_split(
    g: &mut Greedy<'_, '_, '_>,
    v: VReg,
    order: &AllocationOrder,
) -> Result<bool, AllocError> {
    if g.stage(v) >= Stage::Spill {
        return Ok(false);
    }
    // Sub-register liveness: the kit copies whole registers, which would
    // read undefined lanes; such ranges are spilled instead.
    if g.lanes
        && g.an
            .intervals
            .vreg(v)
            .is_some_and(|iv| !iv.subranges.is_empty())
    {
        return Ok(false);
    }
    if g.is_local(v) {
        return Ok(super::local::try_local_split(g, v, order)
            || super::instr_split::try_instruction_split(g, v));
    }
    let sa = analyze(g, v);
    if g.opts.region_split
        && g.stage(v) < Stage::Split2
        && super::region::try_region_split(g, v, order, &sa)?
    {
        return Ok(true);
    }
    Ok(try_block_split(g, v, &sa))
}

/// LLVM's `tryBlockSplit`: every block with several uses gets a range of
/// its own, from before its first use to after its last; the rest (the
/// remainder, live through the other blocks) is only spilled if it does
/// not get a register.
pub fn try_block_split(g: &mut Greedy<'_, '_, '_>, v: VReg, sa: &SplitAnalysis) -> bool {
    let mut plan = SplitPlan {
        intervals: 1,
        default: 0,
        blocks: Default::default(),
        hoist: None,
        hoist_at: None,
    };
    for u in &sa.use_blocks {
        if u.uses < 2 {
            continue;
        }
        // The interval must start before the terminators.
        if u.starts_at_terminator(g) {
            continue;
        }
        let k = plan.intervals;
        plan.intervals += 1;
        let mut switches = vec![(Gap::Before(u.first), k)];
        if u.live_out {
            switches.push((u.after_last(), 0));
        }
        plan.blocks
            .insert(u.block, BlockPlan { entry: 0, switches });
    }
    if plan.intervals == 1 {
        return false;
    }
    let users = g.spiller.users(v).to_vec();
    let Some(res) = g
        .kit
        .apply(g.t, g.func, &mut g.an, &mut g.vrm, v, &users, &plan)
    else {
        return false;
    };
    tracing::debug!(
        vreg = v.0,
        intervals = plan.intervals,
        copies = res.copies,
        "block split"
    );
    g.note_split(v, crate::events::SplitKind::Block, &res.regs);
    for (k, (r, users)) in res.regs.iter().zip(res.users).enumerate() {
        let Some(n) = *r else { continue };
        g.spiller.set_users(n, users);
        g.set_stage(
            n,
            if res.interval[k] == 0 {
                Stage::Spill
            } else {
                Stage::New
            },
        );
        g.set_cascade(n, 0);
        g.enqueue(n);
    }
    true
}

/// The index where block `b`'s value can last be copied before leaving
/// it: its first terminator, or its end.
pub fn last_split_point(g: &Greedy<'_, '_, '_>, b: Block) -> SlotIndex {
    let slots = &g.an.intervals.slots;
    g.func
        .block(b)
        .insts
        .iter()
        .find(|&&i| g.func.inst(i).op.is_terminator(g.t))
        .and_then(|&i| slots.inst(i))
        .unwrap_or_else(|| slots.block_end(b))
        .with(Slot::Block)
}
