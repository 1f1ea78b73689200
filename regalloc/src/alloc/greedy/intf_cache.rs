//! The interference of a physical register per block, remembered across region splits while nothing changes in the block (LLVM's `InterferenceCache`).
//!
//! Region split asks, for every candidate register and every block a
//! range lives in, where the register is first and last taken in the
//! block (virtual and fixed interference joined: [`join_interference`]). Consecutive splits of a
//! function ask about the same registers and largely the same blocks,
//! while between them only the segments of the ranges just assigned or
//! evicted change. So the answers are kept per register and block; when a
//! register is asked about again, the union changes of its units since
//! the last time ([`LiveRegMatrix::unit_changes_since`]) drop the answers
//! of the blocks they overlap, and only those. The part from fixed
//! registers and call clobbers is kept for good. The answer is exactly
//! what the matrix would say now: block boundaries, fixed ranges and call
//! masks never change during allocation, and a block's virtual
//! interference depends only on the union segments overlapping it.

use crate::analysis::{SlotIndex, SlotIndexes};
use crate::ir::Block;
use crate::target::{Reg, RegUnit, TargetInfo};

use super::super::matrix::{LiveRegMatrix, join_interference};

/// A block's first and last interference point, if any.
type BlockInterference = Option<(SlotIndex, SlotIndex)>;

/// One block's answer, with whether it is current: side by side, so that
/// the common case (a current answer) reads one place.
#[derive(Clone, Copy, Debug, Default)]
struct Answer {
    /// The interference of virtual and fixed registers together, where
    /// `valid`.
    joined: BlockInterference,
    /// Whether `joined` is current: not before the first query of the
    /// block, nor after a union change overlapping it.
    valid: bool,
}

/// The cached answers of one register.
#[derive(Clone, Debug, Default)]
struct Entry {
    /// Per unit of the register, in `t.units(p)` order: the unit's
    /// version ([`LiveRegMatrix::unit_version`]) the answers have seen.
    seen: Vec<u32>,
    /// Per block: the answer.
    answers: Vec<Answer>,
    /// Per block: the fixed registers' and calls' interference, once
    /// computed (it never changes), to join with the virtual registers'
    /// when a change made the answer stale.
    fixed: Vec<Option<BlockInterference>>,
    /// Where a unit of the register is live as a fixed register: the
    /// units' fixed segments merged into disjoint spans in order. In a
    /// block without calls they alone make the fixed interference, found
    /// by two searches here (none when there are no spans: most blocks
    /// for most registers) instead of one per unit in the matrix.
    fixed_spans: Vec<(SlotIndex, SlotIndex)>,
    /// The earliest start and latest end of every segment ever inserted
    /// into or removed from a unit's union (the units' change logs): the
    /// unions hold nothing outside, so a block outside has no virtual
    /// interference, known without asking the matrix.
    virt_bounds: Bounds,
}

/// Per register, the block interference answers still valid.
#[derive(Clone, Debug, Default)]
pub struct InterferenceCache {
    /// Indexed by register; created on a register's first query.
    regs: Vec<Option<Entry>>,
    /// Per block: the call masks inside it
    /// ([`LiveRegMatrix::masks_between`]), once asked for; they are the
    /// same for every register.
    masks: Vec<Option<(u32, u32)>>,
    /// Per unit: [`Entry::virt_bounds`] of its change log alone, with the
    /// version it covers, so that a register created later reads only
    /// the changes since, and registers sharing units read each log once.
    unit_bounds: Vec<(u32, Bounds)>,
}

/// The earliest start and latest end of some segments, if any.
type Bounds = Option<(SlotIndex, SlotIndex)>;

impl InterferenceCache {
    /// The answers for `p`, with those of the blocks that a change of one
    /// of its units overlapped since they were computed dropped. The
    /// matrix must not change while the result is in use.
    pub fn reg<'c>(
        &'c mut self,
        t: &TargetInfo<'_>,
        matrix: &LiveRegMatrix,
        slots: &SlotIndexes,
        num_blocks: usize,
        p: Reg,
    ) -> RegInterference<'c> {
        if self.regs.len() <= p.index() {
            self.regs.resize(p.index() + 1, None);
        }
        if self.masks.len() < num_blocks {
            self.masks.resize(num_blocks, None);
        }
        let units = t.units(p);
        let unit_bounds = &mut self.unit_bounds;
        let e = self.regs[p.index()].get_or_insert_with(|| Entry {
            seen: units.iter().map(|&u| matrix.unit_version(u)).collect(),
            answers: vec![Answer::default(); num_blocks],
            fixed: vec![None; num_blocks],
            fixed_spans: fixed_spans(matrix, units),
            virt_bounds: units.iter().fold(None, |b, &u| {
                if unit_bounds.len() <= u.index() {
                    unit_bounds.resize(u.index() + 1, (0, None));
                }
                let (seen, bounds) = &mut unit_bounds[u.index()];
                let version = matrix.unit_version(u);
                if *seen != version {
                    *bounds = widen(*bounds, matrix.unit_changes_since(u, *seen));
                    *seen = version;
                }
                widen(b, bounds.as_slice())
            }),
        });
        for (k, &u) in units.iter().enumerate() {
            let changes = matrix.unit_changes_since(u, e.seen[k]);
            if changes.is_empty() {
                continue;
            }
            e.virt_bounds = widen(e.virt_bounds, changes);
            if changes.len() >= num_blocks {
                // More changes than blocks: forgetting everything is cheaper.
                forget(&mut e.answers);
            } else {
                let mut hint = 0;
                for &(start, end) in changes {
                    let blocks = overlapping_from(slots, num_blocks, &mut hint, start, end);
                    forget(&mut e.answers[blocks]);
                }
            }
            e.seen[k] = matrix.unit_version(u);
        }
        RegInterference {
            entry: e,
            masks: &mut self.masks,
            p,
        }
    }
}

/// `bounds` widened to cover `changes`.
fn widen(bounds: Bounds, changes: &[(SlotIndex, SlotIndex)]) -> Bounds {
    changes.iter().fold(bounds, |b, &(s, e)| match b {
        None => Some((s, e)),
        Some((lo, hi)) => Some((lo.min(s), hi.max(e))),
    })
}

/// The fixed segments of `units` merged into disjoint spans, in order.
fn fixed_spans(matrix: &LiveRegMatrix, units: &[RegUnit]) -> Vec<(SlotIndex, SlotIndex)> {
    let mut live = units
        .iter()
        .filter_map(|&u| matrix.fixed_range(u))
        .filter(|r| !r.segments.is_empty());
    let Some(first) = live.next() else {
        return Vec::new();
    };
    let mut all: Vec<(SlotIndex, SlotIndex)> =
        first.segments.iter().map(|x| (x.start, x.end)).collect();
    // One unit's segments are in order and disjoint already: spans as
    // they are. Several units' overlap and interleave.
    let mut several = false;
    for r in live {
        several = true;
        all.extend(r.segments.iter().map(|x| (x.start, x.end)));
    }
    if !several {
        return all;
    }
    all.sort_unstable();
    let mut spans: Vec<(SlotIndex, SlotIndex)> = Vec::with_capacity(all.len());
    for (a, b) in all {
        match spans.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => spans.push((a, b)),
        }
    }
    spans
}

/// The first and last point of `spans` (disjoint, in order) inside
/// `[start, end)`: what [`LiveRegMatrix::block_fixed_interference_with`]
/// finds from the segments they merge. A span overlapping the block
/// contains the block's start when it begins before it, so the earliest
/// overlapping span gives the same first point as the earliest segment,
/// and likewise for the last.
fn spans_in(
    spans: &[(SlotIndex, SlotIndex)],
    start: SlotIndex,
    end: SlotIndex,
) -> BlockInterference {
    let k = spans.partition_point(|x| x.1 <= start);
    let &(a, _) = spans.get(k).filter(|x| x.0 < end)?;
    let j = k + spans[k..].partition_point(|x| x.0 < end);
    Some((a.max(start), spans[j - 1].1.min(end)))
}

/// How many blocks [`overlapping_from`] steps over before it searches.
const STEP_BEFORE_SEARCH: usize = 8;

/// [`SlotIndexes::blocks_overlapping`] of `[start, end)`, looked for from
/// block `hint` on when that block starts at or before `start`: the
/// changes of one assignment come in order and close together, so the
/// next one is usually a few blocks on, where a search would start over.
/// Leaves the first block found in `hint`.
fn overlapping_from(
    slots: &SlotIndexes,
    num_blocks: usize,
    hint: &mut usize,
    start: SlotIndex,
    end: SlotIndex,
) -> std::ops::Range<usize> {
    let mut first = *hint;
    let mut stepped = 0;
    // Every block before `first` ends at or before `first`'s start, so at
    // or before `start`: the blocks overlapping come at `first` or later.
    let near = first < num_blocks && slots.block_start(Block::new(first)) <= start;
    while near && first < num_blocks && slots.block_end(Block::new(first)) <= start {
        first += 1;
        stepped += 1;
        if stepped > STEP_BEFORE_SEARCH {
            break;
        }
    }
    if !near || stepped > STEP_BEFORE_SEARCH {
        let blocks = slots.blocks_overlapping(start, end);
        *hint = blocks.start;
        return blocks;
    }
    let mut last = first;
    while last < num_blocks && slots.block_start(Block::new(last)) < end {
        last += 1;
    }
    *hint = first;
    first..last
}

/// Marks `answers` stale.
fn forget(answers: &mut [Answer]) {
    for a in answers {
        a.valid = false;
    }
}

/// The current answers of one register ([`InterferenceCache::reg`]).
pub struct RegInterference<'c> {
    entry: &'c mut Entry,
    /// [`InterferenceCache::masks`].
    masks: &'c mut [Option<(u32, u32)>],
    p: Reg,
}

impl RegInterference<'_> {
    /// Where the register is taken inside block `b`, as
    /// the matrix says now.
    #[inline]
    pub fn get(
        &mut self,
        t: &TargetInfo<'_>,
        matrix: &LiveRegMatrix,
        slots: &SlotIndexes,
        b: Block,
    ) -> BlockInterference {
        let a = self.entry.answers[b.index()];
        if a.valid {
            return a.joined;
        }
        self.refresh(t, matrix, slots, b)
    }

    /// Computes block `b`'s answer afresh (the virtual registers' part;
    /// the fixed part only the first time) and remembers it.
    // Out of line: the callers' loops mostly find current answers.
    #[inline(never)]
    fn refresh(
        &mut self,
        t: &TargetInfo<'_>,
        matrix: &LiveRegMatrix,
        slots: &SlotIndexes,
        b: Block,
    ) -> BlockInterference {
        let e = &mut *self.entry;
        let k = b.index();
        let (start, end) = (slots.block_start(b), slots.block_end(b));
        let fixed = match e.fixed[k] {
            Some(fixed) => fixed,
            None => {
                let (first, last) = *self.masks[k].get_or_insert_with(|| {
                    let masks = matrix.masks_between(start, end);
                    (masks.start as u32, masks.end as u32)
                });
                let fixed = if first == last {
                    spans_in(&e.fixed_spans, start, end)
                } else {
                    let masks = first as usize..last as usize;
                    matrix.block_fixed_interference_with(t, self.p, start, end, masks)
                };
                e.fixed[k] = Some(fixed);
                fixed
            }
        };
        let virt = match e.virt_bounds {
            Some((lo, hi)) if lo < end && start < hi => {
                matrix.block_virt_interference(t, self.p, start, end)
            }
            _ => None,
        };
        let joined = join_interference(virt, fixed);
        e.answers[k] = Answer {
            joined,
            valid: true,
        };
        joined
    }
}
