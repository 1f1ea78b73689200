//! Local split (LLVM's `tryLocalSplit`): a range that lives in one block and found no register gets a new interval around the run of its uses where some register's interference is lightest compared with the weight the new interval would have.
//!
//! The uses of the range cut its block into gaps (use 0 to use 1, use 1 to
//! use 2, ...). For every register of the allocation order, each gap gets
//! a weight: the heaviest virtual range assigned to an overlapping register
//! that lives in the gap, or infinity when a fixed register or a call
//! clobbering the register lives there. A new interval from use `a` to use
//! `b` could take the register if it outweighs the gaps it spans: its
//! weight is estimated from its uses (each one read or write) and its
//! length, as the spill weight would be. A window slides over the gaps,
//! growing while it does not outweigh them and shrinking from the front
//! when it does, and the window that wins by the widest margin over all
//! registers is split off; the uses outside it stay with the rest of the
//! range (in one or two pieces, see [`super::super::split::components`]).
//!
//! Termination: a split that leaves the new interval with as many gaps as
//! the range had marks the new interval `Split2`, and a range at `Split2`
//! only accepts splits that make its interval strictly shorter in gaps.

use crate::analysis::{Slot, SlotIndex};
use crate::ir::{Block, Inst, VReg};
use crate::target::Reg;

use super::super::matrix::mask_clobbers_reg;
use super::super::order::AllocationOrder;
use super::super::split::{BlockPlan, Gap, SplitPlan};
use super::{Greedy, Stage};

/// LLVM's hysteresis factor: a split is taken only if the new interval's
/// estimated weight beats the interference by a small margin, so that
/// near-ties do not cause splits that change nothing.
const HYSTERESIS: f32 = 2007.0 / 2048.0;

/// The uses of a range that lives in one block.
struct LocalUses {
    block: Block,
    /// The instructions using the range, in order.
    insts: Vec<Inst>,
    /// Their indexes (base slots).
    at: Vec<SlotIndex>,
    /// The range is live into the block (a phi-def reading undefined values
    /// from a predecessor, or a one-block loop).
    live_in: bool,
    /// The range is live out of the block.
    live_out: bool,
}

impl LocalUses {
    fn gaps(&self) -> usize {
        self.at.len() - 1
    }

    /// Where the range starts and stops for interference purposes.
    fn bounds(&self, g: &Greedy<'_, '_, '_>) -> (SlotIndex, SlotIndex) {
        let slots = &g.an.intervals.slots;
        let start = if self.live_in {
            slots.block_start(self.block)
        } else {
            self.at[0].with(Slot::Register)
        };
        let stop = if self.live_out {
            slots.block_end(self.block)
        } else {
            self.at[self.gaps()].with(Slot::Register)
        };
        (start, stop)
    }

    /// The first gap touched by interference starting at `s`, from gap
    /// `from` on: the first gap whose closing use is not wholly before `s`.
    fn first_gap(&self, mut from: usize, s: SlotIndex) -> usize {
        while from < self.gaps() && self.at[from + 1].with(Slot::Dead) < s {
            from += 1;
        }
        from
    }

    /// Raises to `w` the weight of every gap that interference `[s, e)`
    /// touches, from gap `from` on; returns where the next interference
    /// (starting no earlier) may begin its search. Interference over a use
    /// counts in both gaps around it.
    fn mark(&self, weights: &mut [f32], from: usize, s: SlotIndex, e: SlotIndex, w: f32) -> usize {
        let mut gap = self.first_gap(from, s);
        let first = gap;
        while gap < self.gaps() {
            weights[gap] = weights[gap].max(w);
            if self.at[gap + 1].with(Slot::Block) >= e {
                break;
            }
            gap += 1;
        }
        first
    }
}

/// The uses of `v`, a range inside one block, with at least three of them
/// (two uses make one gap, which cannot be split usefully).
fn local_uses(g: &Greedy<'_, '_, '_>, v: VReg) -> Option<LocalUses> {
    let iv = g.an.intervals.vreg(v)?;
    let slots = &g.an.intervals.slots;
    let mut insts = Vec::new();
    let mut at = Vec::new();
    for &i in g.spiller.users(v) {
        if let Some(x) = slots.inst(i)
            && at.last().is_none_or(|&l| l < x)
        {
            insts.push(i);
            at.push(x);
        }
    }
    if at.len() <= 2 {
        return None;
    }
    let block = slots.block_of(at[0])?;
    let live_in = iv.range.live_at(slots.block_start(block));
    let live_out = iv.range.live_at(SlotIndex(slots.block_end(block).0 - 1));
    Some(LocalUses {
        block,
        insts,
        at,
        live_in,
        live_out,
    })
}

/// The gap weights of register `p` for `uses` into `weights`; `mask_gaps`
/// are the gaps holding a call, each with its mask.
fn gap_weights(
    g: &Greedy<'_, '_, '_>,
    uses: &LocalUses,
    p: Reg,
    mask_gaps: &[(usize, usize)],
    weights: &mut Vec<f32>,
) {
    weights.clear();
    weights.resize(uses.gaps(), 0.0);
    let (start, stop) = uses.bounds(g);
    for &u in g.t.units(p) {
        let mut from = 0;
        for (s, e, x) in g.matrix.union_segments(u, start, stop) {
            if from >= uses.gaps() {
                break;
            }
            from = uses.mark(weights, from, s, e, g.weight(x));
        }
        if let Some(fixed) = g.matrix.fixed_range(u) {
            let k = fixed.segments.partition_point(|x| x.end <= start);
            let mut from = 0;
            for x in fixed.segments[k..].iter().take_while(|x| x.start < stop) {
                if from >= uses.gaps() {
                    break;
                }
                from = uses.mark(weights, from, x.start, x.end, f32::INFINITY);
            }
        }
    }
    let masks = &g.an.intervals.regmasks;
    for &(gap, m) in mask_gaps {
        if mask_clobbers_reg(g.t, &masks[m].mask, p) {
            weights[gap] = f32::INFINITY;
        }
    }
}

/// The gaps of `uses` that hold a call, each with the index of its mask in
/// the function's list. A call at a use counts in both gaps around it; a
/// call at the last use is after the range.
fn call_gaps(g: &Greedy<'_, '_, '_>, uses: &LocalUses) -> Vec<(usize, usize)> {
    let masks = &g.an.intervals.regmasks;
    let first = uses.at[0].base();
    let last = uses.at[uses.gaps()].base();
    let k = masks.partition_point(|m| m.at.base() < first);
    let mut out = Vec::new();
    for (m, mask) in masks.iter().enumerate().skip(k) {
        let b = mask.at.base();
        if b >= last {
            break;
        }
        for gap in 0..uses.gaps() {
            if uses.at[gap].base() <= b && b <= uses.at[gap + 1].base() {
                out.push((gap, m));
            }
        }
    }
    out
}

/// The best window of uses to split off, over all registers: (first use,
/// last use), or `None` when no window outweighs its interference.
fn best_window(
    g: &Greedy<'_, '_, '_>,
    uses: &LocalUses,
    order: &AllocationOrder,
    progress_required: bool,
) -> Option<(usize, usize)> {
    let block_freq = g.an.flow.freq.relative(uses.block);
    let mask_gaps = call_gaps(g, uses);
    let mut weights = Vec::with_capacity(uses.gaps());
    let mut best = Window {
        span: None,
        margin: 0.0,
    };
    let estimate =
        |before, after, new_gaps| estimated_weight(uses, before, after, block_freq, new_gaps);
    for &p in &order.regs {
        gap_weights(g, uses, p, &mask_gaps, &mut weights);
        slide(
            &weights,
            (uses.live_in, uses.live_out),
            progress_required,
            &estimate,
            &mut best,
        );
    }
    best.span
}

/// The best window found so far and the margin it won by.
#[derive(Copy, Clone, PartialEq, Debug)]
struct Window {
    span: Option<(usize, usize)>,
    margin: f32,
}

/// Slides a window of uses `before..=after` over one register's gap
/// `weights`, growing it while its estimated weight (`estimate(before,
/// after, gaps of the new interval)`) does not beat its heaviest gap, and
/// shrinking it from the front when it does; records in `best` a window
/// that beats its gaps by a wider margin than the best so far. `live` says
/// whether the range is live into and out of its block.
fn slide(
    weights: &[f32],
    live: (bool, bool),
    progress_required: bool,
    estimate: &impl Fn(usize, usize, usize) -> f32,
    best: &mut Window,
) {
    let gaps = weights.len();
    let (mut before, mut after) = (0usize, 1usize);
    // The heaviest gap inside the window.
    let mut max_gap = weights[0];
    loop {
        let live_before = before != 0 || live.0;
        let live_after = after != gaps || live.1;
        // A window of every use, live on neither side, is the range
        // itself: no progress.
        if !live_before && !live_after {
            break;
        }
        let new_gaps = live_before as usize + after - before + live_after as usize;
        let legal = !progress_required || new_gaps < gaps;
        let mut shrink = true;
        if legal && max_gap.is_finite() {
            let w = estimate(before, after, new_gaps);
            if w * HYSTERESIS >= max_gap {
                shrink = false;
                let margin = w - max_gap;
                if margin > best.margin {
                    best.margin = HYSTERESIS * margin;
                    best.span = Some((before, after));
                }
            }
        }
        if shrink {
            before += 1;
            if before < after {
                if weights[before - 1] >= max_gap {
                    max_gap = weights[before..after].iter().copied().fold(0.0, f32::max);
                }
                continue;
            }
            max_gap = 0.0;
        }
        if after >= gaps {
            break;
        }
        max_gap = max_gap.max(weights[after]);
        after += 1;
    }
}

/// The spill weight a new interval over uses `before..=after` would have:
/// one access per use plus the copies in and out, over its length
/// ([`crate::analysis::weights::normalize`]).
fn estimated_weight(
    uses: &LocalUses,
    before: usize,
    after: usize,
    freq: f32,
    new_gaps: usize,
) -> f32 {
    use crate::analysis::slots::{INSTR_DIST, LLVM_SCALE};
    let live_ends =
        (before != 0 || uses.live_in) as u32 + (after != uses.gaps() || uses.live_out) as u32;
    let dist = (uses.at[after].0 - uses.at[before].0) / LLVM_SCALE;
    let size = dist + live_ends * (INSTR_DIST / LLVM_SCALE);
    crate::analysis::weights::normalize(freq * (new_gaps + 1) as f32, size)
}

/// LLVM's `tryLocalSplit` for `v`, a range inside one block; `true` when
/// it was split (its pieces are queued).
pub fn try_local_split(g: &mut Greedy<'_, '_, '_>, v: VReg, order: &AllocationOrder) -> bool {
    let Some(uses) = local_uses(g, v) else {
        return false;
    };
    let gaps = uses.gaps();
    let progress_required = g.stage(v) >= Stage::Split2;
    let Some((before, after)) = best_window(g, &uses, order, progress_required) else {
        return false;
    };
    let mut switches = vec![(Gap::Before(uses.insts[before]), 1)];
    switches.push((Gap::After(uses.insts[after]), 0));
    let plan = SplitPlan {
        intervals: 2,
        default: 0,
        blocks: [(uses.block, BlockPlan { entry: 0, switches })]
            .into_iter()
            .collect(),
        hoist: None,
        hoist_at: None,
    };
    let users = g.spiller.users(v).to_vec();
    let Some(res) = g
        .kit
        .apply(g.t, g.func, &mut g.an, &mut g.vrm, v, &users, &plan)
    else {
        return false;
    };
    let live_before = before != 0 || uses.live_in;
    let live_after = after != gaps || uses.live_out;
    let new_gaps = live_before as usize + after - before + live_after as usize;
    tracing::debug!(
        vreg = v.0,
        block = uses.block.index(),
        first = before,
        last = after,
        gaps,
        new_gaps,
        copies = res.copies,
        "local split"
    );
    g.note_split(v, crate::events::SplitKind::Local, &res.regs);
    for (k, (r, users)) in res.regs.iter().zip(res.users).enumerate() {
        let Some(n) = *r else { continue };
        g.spiller.set_users(n, users);
        // A new interval with as many gaps as the range had must make
        // progress when it is split again.
        let stage = if res.interval[k] == 1 && new_gaps >= gaps {
            Stage::Split2
        } else {
            Stage::New
        };
        g.set_stage(n, stage);
        g.set_cascade(n, 0);
        g.enqueue(n);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate that only counts uses: a window of `n` gaps weighs `n + 1`.
    fn by_uses(before: usize, after: usize, _new_gaps: usize) -> f32 {
        (after - before + 1) as f32
    }

    fn best_of(weights: &[f32], live: (bool, bool), progress: bool) -> Option<(usize, usize)> {
        let mut best = Window {
            span: None,
            margin: 0.0,
        };
        slide(weights, live, progress, &by_uses, &mut best);
        best.span
    }

    #[test]
    fn the_window_stops_at_a_fixed_register() {
        // Uses 0..=5; a fixed register lives over gap 2 (uses 2 to 3).
        let w = [0.5, 0.5, f32::INFINITY, 0.5, 0.5];
        // Uses 0..=2 weigh 3 against 0.5, and uses 3..=5 likewise; no
        // window spans the fixed register. The best margin is kept scaled
        // down by the hysteresis, so a later window with the same margin
        // replaces an earlier one.
        assert_eq!(best_of(&w, (false, false), false), Some((3, 5)));
        assert_eq!(best_of(&w[..3], (false, false), false), Some((0, 2)));
    }

    #[test]
    fn light_interference_is_outweighed_and_heavy_is_not() {
        // Gap 0 is heavy (3.5): no window containing it weighs enough
        // before it holds four uses, and the whole range is never a window.
        let w = [3.5, 0.1, 0.1, 0.1];
        assert_eq!(best_of(&w, (false, false), false), Some((1, 4)));
        // Everything heavy: no split.
        assert_eq!(best_of(&[9.0, 9.0, 9.0], (false, false), false), None);
    }

    #[test]
    fn at_split2_the_new_interval_must_have_fewer_gaps() {
        // Without the rule, uses 0..=3 (three gaps plus one for the copy
        // out: four new gaps, as many as the range has) would win.
        let w = [0.0, 0.0, 0.0, 3.9];
        assert_eq!(best_of(&w, (false, false), false), Some((0, 3)));
        // With it, only windows of at most two gaps inside the range
        // (plus the copies) are legal.
        let got = best_of(&w, (false, false), true).unwrap();
        let new_gaps = (got.0 != 0) as usize + got.1 - got.0 + (got.1 != 4) as usize;
        assert!(new_gaps < 4, "{got:?}");
    }

    #[test]
    fn a_range_live_through_its_block_may_keep_all_its_uses() {
        // Live in and out: the window of all uses still leaves copies at
        // both ends, so it is a legal split.
        assert_eq!(best_of(&[0.0, 0.0], (true, true), false), Some((0, 2)));
        assert_eq!(best_of(&[0.0, 0.0], (false, false), false), Some((0, 1)));
    }
}
