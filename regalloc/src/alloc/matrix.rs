//! `LiveRegMatrix`: one live-interval union per register unit, answering whether a virtual register's interval can take a physical register.
//!
//! Interference is decided on register units, as in LLVM: a virtual
//! register assigned to `P` occupies every unit of `P` over its whole live
//! interval, except when the matrix tracks lanes ([`LiveRegMatrix::new`]'s
//! `track_lanes`, LLVM's sub-register liveness, which LLVM 19 enables on
//! Hexagon only): then a unit of `P` is occupied only where the
//! interval's sub-range of that unit's lanes is live. Three kinds of interference are reported apart, because the
//! allocators treat them differently:
//!
//! - virtual: another virtual register assigned to an overlapping register
//!   is live at the same time (it may be evicted);
//! - register unit: a fixed physical register (an argument copy, a call's
//!   implicit definitions, ...) is live at the same time (never evictable);
//! - register mask: a call whose register mask does not preserve `P` lies
//!   inside the interval (never evictable).

mod union;

use std::cell::RefCell;
use std::ops::ControlFlow;

use crate::analysis::{LiveInterval, LiveIntervals, LiveRange, RegMaskSlot, SlotIndex};
use crate::ir::{RegMask, VReg};
use crate::target::{Reg, RegUnit, TargetInfo};

use union::{Entry, Union, Walk};

/// The result of an interference check, in LLVM's order of severity.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Interference {
    /// The register is free over the whole interval.
    Free,
    /// Only virtual registers already assigned interfere.
    Virt,
    /// A fixed physical register live range overlaps.
    RegUnit,
    /// A call's register mask clobbers the register inside the interval.
    RegMask,
}

/// The live-interval unions of every register unit, plus the fixed
/// physical live ranges and the call register masks of one function.
#[derive(Clone, Debug)]
pub struct LiveRegMatrix {
    /// For each unit: the assigned segments.
    unions: Vec<Union>,
    /// Buffer for merging a long range into a union, kept between calls.
    scratch: Vec<Entry>,
    /// Fixed physical liveness of each unit (from the live intervals).
    fixed: Vec<LiveRange>,
    /// Register masks of calls, in slot order.
    regmasks: Vec<RegMaskSlot>,
    /// The register each virtual register is assigned to in the matrix.
    assigned: Vec<Option<Reg>>,
    /// Whether units are occupied per lane (sub-ranges) rather than by the
    /// whole interval.
    track_lanes: bool,
    /// Per unit, every segment inserted into or removed from its union,
    /// in order: an answer about a stretch of code computed from a unit's
    /// union stays valid while no later change overlaps that stretch (a
    /// finer form of LLVM's `LiveIntervalUnion` tags, which its
    /// interference cache checks per register).
    changes: Vec<Vec<(SlotIndex, SlotIndex)>>,
    /// Per virtual register, the answers of [`LiveRegMatrix::fixed_overlaps`]
    /// so far (see [`FixedMemo`]).
    fixed_memo: RefCell<Vec<FixedMemo>>,
}

/// Intervals with at least this many segments have their
/// fixed-interference answers remembered ([`FixedMemo`]).
const MEMO_SEGMENTS: usize = 3;

/// How many call masks [`LiveRegMatrix::masks_in`] steps over one by one
/// before a segment, before it searches the rest instead.
const MASK_STEPS: usize = 4;

/// The fixed-interference answers of one virtual register's interval, by
/// physical register. Fixed ranges never change during allocation, and
/// neither does an interval once made (a split or a spill makes new
/// registers), so an answer holds for good; the same pair is asked about
/// again and again (assignment, eviction, moving ranges aside, each over
/// the whole order). The answers are about one interval, known by its
/// generation ([`LiveInterval::generation`], a number the live intervals
/// give each interval they store and never give again), so that an
/// interval made again for the register starts over; an interval without
/// one (not stored) is not remembered.
#[derive(Clone, Debug, Default)]
struct FixedMemo {
    /// The generation of the interval the answers are about (0: none).
    generation: u32,
    /// Two bits per physical register: asked, and overlaps.
    bits: Vec<u64>,
}

impl LiveRegMatrix {
    /// An empty matrix for `target`, with the fixed unit ranges and call
    /// masks of `li`; `track_lanes` makes interference per lane where
    /// intervals have sub-ranges.
    pub fn new(target: &TargetInfo<'_>, li: &LiveIntervals, track_lanes: bool) -> LiveRegMatrix {
        let n = target.units.len();
        let fixed = (0..n)
            .map(|u| li.units.get(u).map(|x| x.0.clone()).unwrap_or_default())
            .collect();
        LiveRegMatrix::with_fixed(target, li, fixed, track_lanes)
    }

    /// [`LiveRegMatrix::new`], the fixed unit ranges moved out of `li`
    /// rather than copied (its unit ranges are left empty): for an
    /// allocator that asks the matrix, never `li`, about fixed ranges.
    pub fn taking_fixed(
        target: &TargetInfo<'_>,
        li: &mut LiveIntervals,
        track_lanes: bool,
    ) -> LiveRegMatrix {
        let n = target.units.len();
        let fixed = (0..n)
            .map(|u| {
                li.units
                    .get_mut(u)
                    .map(|x| std::mem::take(&mut x.0))
                    .unwrap_or_default()
            })
            .collect();
        LiveRegMatrix::with_fixed(target, li, fixed, track_lanes)
    }

    fn with_fixed(
        target: &TargetInfo<'_>,
        li: &LiveIntervals,
        fixed: Vec<LiveRange>,
        track_lanes: bool,
    ) -> LiveRegMatrix {
        let n = target.units.len();
        LiveRegMatrix {
            unions: vec![Union::default(); n],
            scratch: Vec::new(),
            fixed,
            regmasks: li.regmasks.clone(),
            assigned: Vec::new(),
            track_lanes,
            changes: vec![Vec::new(); n],
            fixed_memo: RefCell::new(Vec::new()),
        }
    }

    /// The version of unit `u`'s union: it changes whenever a segment is
    /// inserted into or removed from it (a virtual register assigned to or
    /// removed from a register containing `u`). The fixed ranges and call
    /// masks never change.
    pub fn unit_version(&self, u: RegUnit) -> u32 {
        self.changes.get(u.index()).map_or(0, |c| c.len() as u32)
    }

    /// The segments inserted into or removed from unit `u`'s union since
    /// version `since` ([`LiveRegMatrix::unit_version`]), in order.
    pub fn unit_changes_since(&self, u: RegUnit, since: u32) -> &[(SlotIndex, SlotIndex)] {
        self.changes
            .get(u.index())
            .and_then(|c| c.get(since as usize..))
            .unwrap_or(&[])
    }

    /// The units `iv` occupies when assigned to `p`, each with the part of
    /// `iv` that occupies it: the whole range, or with lane tracking the
    /// one sub-range covering the unit's lanes (the whole range when the
    /// unit's lanes span several sub-ranges; no range when none is live).
    pub fn unit_ranges<'a>(
        &self,
        t: &TargetInfo<'_>,
        iv: &'a LiveInterval,
        p: Reg,
    ) -> Vec<(RegUnit, &'a LiveRange)> {
        let d = t.reg(p);
        d.units
            .iter()
            .enumerate()
            .filter_map(|(k, &u)| Some((u, unit_range(self.track_lanes, d, k, iv)?)))
            .collect()
    }

    /// [`LiveRegMatrix::unit_ranges`] without collecting them.
    fn unit_ranges_iter<'a>(
        &self,
        t: &'a TargetInfo<'_>,
        iv: &'a LiveInterval,
        p: Reg,
    ) -> impl Iterator<Item = (RegUnit, &'a LiveRange)> + 'a {
        occupied_units(self.track_lanes, t, iv, p)
    }

    /// The register `v` is assigned to here, if any.
    pub fn assignment(&self, v: VReg) -> Option<Reg> {
        self.assigned.get(v.index()).copied().flatten()
    }

    /// Whether `range` overlaps a call mask that clobbers `p`.
    pub fn mask_clobbers(&self, t: &TargetInfo<'_>, range: &LiveRange, p: Reg) -> bool {
        if self.regmasks.is_empty() {
            return false;
        }
        range.segments.iter().any(|s| {
            // Masks are in slot order: only those inside the segment matter.
            let k = self.regmasks.partition_point(|m| m.at < s.start);
            self.regmasks[k..]
                .iter()
                .take_while(|m| m.at < s.end)
                .any(|m| mask_clobbers_reg(t, &m.mask, p))
        })
    }

    /// The distinct call masks inside `range`, for asking about many
    /// registers ([`LiveRegMatrix::check_with_masks`]): a range crossing
    /// fifty calls of one convention then costs one mask test per
    /// register, not fifty.
    pub fn masks_in(&self, range: &LiveRange) -> CallMasks {
        let mut out = CallMasks::default();
        if self.regmasks.is_empty() {
            return out;
        }
        // Segments and masks are both in slot order: a cursor into the
        // masks moves forward only, and a segment ending before the next
        // mask (most of them, the calls being few) costs one comparison.
        let masks = &self.regmasks[..];
        let mut k = 0;
        for s in &range.segments {
            if k == masks.len() {
                break;
            }
            if masks[k].at >= s.end {
                continue;
            }
            // The masks before the segment: usually a few, stepped over;
            // searched when there are more.
            let mut stepped = 0;
            while masks.get(k).is_some_and(|m| m.at < s.start) {
                if stepped == MASK_STEPS {
                    k += masks[k..].partition_point(|m| m.at < s.start);
                    break;
                }
                k += 1;
                stepped += 1;
            }
            while let Some(m) = masks.get(k).filter(|m| m.at < s.end) {
                if !out.masks.contains(&m.mask) {
                    out.masks.push(m.mask.clone());
                }
                k += 1;
            }
        }
        out
    }

    /// Whether `iv` may take `p`, and if not, the worst reason.
    pub fn check(&self, t: &TargetInfo<'_>, iv: &LiveInterval, p: Reg) -> Interference {
        if self.mask_clobbers(t, &iv.range, p) {
            return Interference::RegMask;
        }
        self.check_units(t, iv, p)
    }

    /// [`LiveRegMatrix::check`] with the call masks inside `iv`'s range
    /// already collected (`masks` is [`LiveRegMatrix::masks_in`] of it).
    pub fn check_with_masks(
        &self,
        t: &TargetInfo<'_>,
        iv: &LiveInterval,
        p: Reg,
        masks: &CallMasks,
    ) -> Interference {
        if masks.clobber(t, p) {
            return Interference::RegMask;
        }
        self.check_units(t, iv, p)
    }

    /// [`LiveRegMatrix::check_with_masks`] without looking at virtual
    /// registers: `Free` when only they may be in the way. For callers
    /// that go on to collect the virtual interference anyway.
    pub fn check_fixed_with_masks(
        &self,
        t: &TargetInfo<'_>,
        iv: &LiveInterval,
        p: Reg,
        masks: &CallMasks,
    ) -> Interference {
        if masks.clobber(t, p) {
            return Interference::RegMask;
        }
        if self.fixed_overlaps(t, iv, p) {
            return Interference::RegUnit;
        }
        Interference::Free
    }

    /// Whether a fixed register live range of one of `p`'s units overlaps
    /// the part of `iv` that would occupy it.
    fn fixed_overlaps(&self, t: &TargetInfo<'_>, iv: &LiveInterval, p: Reg) -> bool {
        // A short range costs a search or two per unit, about what the
        // memo costs: only longer ones are remembered.
        if iv.range.segments.len() < MEMO_SEGMENTS || iv.generation() == 0 {
            return self.fixed_overlaps_now(t, iv, p);
        }
        let v = iv.vreg.index();
        let (word, bit) = (2 * p.index() / 64, 2 * p.index() % 64);
        let mut memo = self.fixed_memo.borrow_mut();
        if memo.len() <= v {
            memo.resize(v + 1, FixedMemo::default());
        }
        let m = &mut memo[v];
        if m.generation != iv.generation() {
            m.generation = iv.generation();
            m.bits.clear();
            m.bits.resize((2 * t.regs.len()).div_ceil(64), 0);
        }
        if let Some(&w) = m.bits.get(word)
            && w & (1 << bit) != 0
        {
            return w & (2 << bit) != 0;
        }
        let overlaps = self.fixed_overlaps_now(t, iv, p);
        if let Some(w) = m.bits.get_mut(word) {
            *w |= (1 | u64::from(overlaps) << 1) << bit;
        }
        overlaps
    }

    /// [`LiveRegMatrix::fixed_overlaps`] computed.
    fn fixed_overlaps_now(&self, t: &TargetInfo<'_>, iv: &LiveInterval, p: Reg) -> bool {
        self.unit_ranges_iter(t, iv, p).any(|(u, range)| {
            self.fixed
                .get(u.index())
                .is_some_and(|f| ranges_overlap(f, range))
        })
    }

    /// The unit part of [`LiveRegMatrix::check`]: fixed ranges first, then
    /// virtual registers.
    fn check_units(&self, t: &TargetInfo<'_>, iv: &LiveInterval, p: Reg) -> Interference {
        if self.fixed_overlaps(t, iv, p) {
            return Interference::RegUnit;
        }
        for (u, range) in self.unit_ranges_iter(t, iv, p) {
            if let Some(un) = self.unions.get(u.index())
                && un
                    .each_overlapping(&range.segments, |_| ControlFlow::Break(()))
                    .is_break()
            {
                return Interference::Virt;
            }
        }
        Interference::Free
    }

    /// The virtual registers assigned to registers overlapping `p` whose
    /// intervals overlap `iv` there, each once, sorted.
    pub fn interfering_vregs(&self, t: &TargetInfo<'_>, iv: &LiveInterval, p: Reg) -> Vec<VReg> {
        let mut out = Vec::new();
        for (u, range) in self.unit_ranges_iter(t, iv, p) {
            if let Some(un) = self.unions.get(u.index()) {
                let _ = un.each_overlapping(&range.segments, |x| {
                    // Neighbouring entries are mostly one register's.
                    if out.last() != Some(&x.owner) {
                        out.push(x.owner);
                    }
                    ControlFlow::Continue(())
                });
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// [`LiveRegMatrix::interfering_vregs`] when there are at most `limit`
    /// of them, `None` as soon as there are more (without collecting the
    /// rest).
    pub fn interfering_vregs_at_most(
        &self,
        t: &TargetInfo<'_>,
        iv: &LiveInterval,
        p: Reg,
        limit: usize,
    ) -> Option<Vec<VReg>> {
        let mut out: Vec<VReg> = Vec::new();
        for (u, range) in self.unit_ranges_iter(t, iv, p) {
            let Some(un) = self.unions.get(u.index()) else {
                continue;
            };
            let walked = un.each_overlapping(&range.segments, |x| {
                // The same register usually meets several segments in
                // a row: the last one found answers before a search.
                if out.last() != Some(&x.owner) && !out.contains(&x.owner) {
                    if out.len() == limit {
                        return ControlFlow::Break(());
                    }
                    out.push(x.owner);
                }
                ControlFlow::Continue(())
            });
            if walked.is_break() {
                return None;
            }
        }
        out.sort();
        Some(out)
    }

    /// Where `p` is taken inside `[start, end)` (one block) by a virtual
    /// register assigned to an overlapping register: the first and last
    /// points, each clamped to the block. Joined
    /// ([`join_interference`]) with
    /// [`LiveRegMatrix::block_fixed_interference_with`], it is LLVM's
    /// `InterferenceCache` entry for a block. It changes only when a
    /// change of one of `p`'s units overlaps the block
    /// ([`LiveRegMatrix::unit_changes_since`]).
    pub fn block_virt_interference(
        &self,
        t: &TargetInfo<'_>,
        p: Reg,
        start: SlotIndex,
        end: SlotIndex,
    ) -> Option<(SlotIndex, SlotIndex)> {
        let mut span = Span::new(start, end);
        for &u in t.units(p) {
            if let Some(un) = self.unions.get(u.index()) {
                for e in un.overlapping_rev(start, end) {
                    span.note(e.start, e.end);
                }
            }
        }
        span.get()
    }

    /// The call masks inside `[start, end)`, as a range of indexes for
    /// [`LiveRegMatrix::block_fixed_interference_with`]: the same for
    /// every register asked about the block.
    pub fn masks_between(&self, start: SlotIndex, end: SlotIndex) -> std::ops::Range<usize> {
        let k = self.regmasks.partition_point(|m| m.at < start);
        k..k + self.regmasks[k..].partition_point(|m| m.at < end)
    }

    /// Where `p` is taken inside `[start, end)` (one block) by a fixed
    /// register or a call clobbering it, which never changes during
    /// allocation; the call masks inside the block already found (`masks`
    /// is [`LiveRegMatrix::masks_between`] of it).
    pub fn block_fixed_interference_with(
        &self,
        t: &TargetInfo<'_>,
        p: Reg,
        start: SlotIndex,
        end: SlotIndex,
        masks: std::ops::Range<usize>,
    ) -> Option<(SlotIndex, SlotIndex)> {
        let mut span = Span::new(start, end);
        for &u in t.units(p) {
            if let Some(f) = self.fixed.get(u.index()) {
                let k = f.segments.partition_point(|x| x.end <= start);
                for x in f.segments[k..].iter().take_while(|x| x.start < end) {
                    span.note(x.start, x.end);
                }
            }
        }
        for m in &self.regmasks[masks] {
            if mask_clobbers_reg(t, &m.mask, p) {
                span.note(m.at, SlotIndex(m.at.0 + 1));
            }
        }
        span.get()
    }

    /// The virtual registers occupying unit `u` somewhere in `range`, each
    /// once, in the order met (segment by segment, latest start first);
    /// at most `limit` of them.
    pub fn interfering_on_unit(&self, u: RegUnit, range: &LiveRange, limit: usize) -> Vec<VReg> {
        let mut out: Vec<VReg> = Vec::new();
        let Some(un) = self.unions.get(u.index()) else {
            return out;
        };
        let Some(first) = range.segments.first() else {
            return out;
        };
        if un.is_empty() {
            return out;
        }
        let mut walk = Walk::new(un, first.start);
        for s in &range.segments {
            for &Entry { owner: x, .. } in walk.overlapping(s.start, s.end).iter().rev() {
                if out.is_empty() {
                    // One allocation for the usual few registers.
                    out.reserve(limit.min(8));
                }
                if !out.contains(&x) {
                    out.push(x);
                    if out.len() >= limit {
                        return out;
                    }
                }
            }
        }
        out
    }

    /// The segments of unit `u`'s union overlapping `[start, end)`, in
    /// order, each as (start, end, owner): what a local split weighs gap
    /// by gap.
    pub fn union_segments(
        &self,
        u: RegUnit,
        start: SlotIndex,
        end: SlotIndex,
    ) -> impl Iterator<Item = (SlotIndex, SlotIndex, VReg)> + '_ {
        self.unions
            .get(u.index())
            .into_iter()
            .flat_map(move |un| un.containing_and_after(start, end))
            .map(|e| (e.start, e.end, e.owner))
    }

    /// The fixed physical liveness of unit `u`.
    pub fn fixed_range(&self, u: RegUnit) -> Option<&LiveRange> {
        self.fixed.get(u.index())
    }

    /// Records `iv`'s register as living in `p`. The caller has checked
    /// that nothing virtual interferes.
    pub fn assign(&mut self, t: &TargetInfo<'_>, iv: &LiveInterval, p: Reg) {
        let v = iv.vreg;
        for (u, range) in occupied_units(self.track_lanes, t, iv, p) {
            if let Some(un) = self.unions.get_mut(u.index()) {
                un.insert(&range.segments, v, &mut self.scratch);
                self.changes[u.index()].extend(range.segments.iter().map(|s| (s.start, s.end)));
            }
        }
        if self.assigned.len() <= v.index() {
            self.assigned.resize(v.index() + 1, None);
        }
        self.assigned[v.index()] = Some(p);
    }

    /// Removes `iv`'s register from the register it was assigned.
    pub fn unassign(&mut self, t: &TargetInfo<'_>, iv: &LiveInterval) {
        let v = iv.vreg;
        let Some(p) = self.assignment(v) else { return };
        for (u, range) in occupied_units(self.track_lanes, t, iv, p) {
            if let Some(un) = self.unions.get_mut(u.index()) {
                let log = &mut self.changes[u.index()];
                un.remove(&range.segments, v, |s, e| log.push((s, e)));
            }
        }
        self.assigned[v.index()] = None;
    }
}

/// The units `iv` occupies when assigned to `p`, each with the part of
/// `iv` occupying it ([`LiveRegMatrix::unit_ranges`]); borrows nothing of
/// the matrix, so that the unions can change while it runs.
fn occupied_units<'a>(
    track_lanes: bool,
    t: &'a TargetInfo<'_>,
    iv: &'a LiveInterval,
    p: Reg,
) -> impl Iterator<Item = (RegUnit, &'a LiveRange)> + 'a {
    let d = t.reg(p);
    d.units
        .iter()
        .enumerate()
        .filter_map(move |(k, &u)| Some((u, unit_range(track_lanes, d, k, iv)?)))
}

/// The part of `iv` occupying the `k`-th unit of register `d`.
fn unit_range<'a>(
    track_lanes: bool,
    d: &crate::target::RegisterDesc<'_>,
    k: usize,
    iv: &'a LiveInterval,
) -> Option<&'a LiveRange> {
    if !track_lanes || iv.subranges.is_empty() {
        return Some(&iv.range);
    }
    let lanes = d.unit_lanes.get(k).copied().unwrap_or_default();
    let mut hit = iv.subranges.iter().filter(|s| s.lanes.overlaps(lanes));
    match (hit.next(), hit.next()) {
        (Some(s), None) => Some(&s.range),
        (None, _) => None,
        _ => Some(&iv.range),
    }
}

/// The first and last interference points of one block, clamped to it.
struct Span {
    start: SlotIndex,
    end: SlotIndex,
    first: Option<SlotIndex>,
    last: Option<SlotIndex>,
}

impl Span {
    fn new(start: SlotIndex, end: SlotIndex) -> Span {
        Span {
            start,
            end,
            first: None,
            last: None,
        }
    }

    /// Adds the interference `[a, b)`.
    fn note(&mut self, a: SlotIndex, b: SlotIndex) {
        let a = a.max(self.start);
        let b = b.min(self.end);
        if self.first.is_none_or(|f| a < f) {
            self.first = Some(a);
        }
        if self.last.is_none_or(|l| b > l) {
            self.last = Some(b);
        }
    }

    fn get(&self) -> Option<(SlotIndex, SlotIndex)> {
        self.first.zip(self.last)
    }
}

/// The block interference of two sources together: the earlier first
/// point and the later last point.
pub fn join_interference(
    a: Option<(SlotIndex, SlotIndex)>,
    b: Option<(SlotIndex, SlotIndex)>,
) -> Option<(SlotIndex, SlotIndex)> {
    match (a, b) {
        (Some((f1, l1)), Some((f2, l2))) => Some((f1.min(f2), l1.max(l2))),
        (x, None) | (None, x) => x,
    }
}

/// Whether a call with register mask `mask` clobbers `p`.
pub fn mask_clobbers_reg(t: &TargetInfo<'_>, mask: &RegMask, p: Reg) -> bool {
    match mask {
        RegMask::Named(c) => c.index() >= t.callee_saved.len() || !t.mask_preserves(*c, p),
        RegMask::Custom(list) => !list.contains(&p),
    }
}

/// The distinct call register masks inside one live range
/// ([`LiveRegMatrix::masks_in`]).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CallMasks {
    masks: Vec<RegMask>,
}

impl CallMasks {
    /// Whether one of the calls clobbers `p`.
    pub fn clobber(&self, t: &TargetInfo<'_>, p: Reg) -> bool {
        self.masks.iter().any(|m| mask_clobbers_reg(t, m, p))
    }
}

/// Whether two live ranges share a point. Walks the shorter range and
/// finds each of its segments in the longer one by binary search from
/// where the previous one stopped: fixed unit ranges (a call-clobbered
/// unit has a segment at every call) are long, the ranges checked against
/// them are often short.
pub fn ranges_overlap(a: &LiveRange, b: &LiveRange) -> bool {
    let (short, long) = if a.segments.len() <= b.segments.len() {
        (&a.segments, &b.segments)
    } else {
        (&b.segments, &a.segments)
    };
    let mut from = 0;
    for x in short {
        // The first segment of `long` ending after `x` starts; it overlaps
        // `x` when it starts before `x` ends.
        from += long[from..].partition_point(|y| y.end <= x.start);
        match long.get(from) {
            None => return false,
            Some(y) if y.start < x.end => return true,
            Some(_) => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Cfg, Segment, ValNo};
    use crate::ir::Inst;
    use crate::target::fixtures::bpf;

    /// `$r1` is live from the fourth instruction to the seventh; the
    /// virtual registers are defined around it.
    const R1_IN_THE_MIDDLE: &str = "---
name: m
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
  - { id: 3, class: gpr }
  - { id: 4, class: gpr }
body: |
  bb.0:
    %0:gpr = MOV_ri 1
    %1:gpr = MOV_ri 2
    %2:gpr = MOV_ri 3
    $r1 = MOV_ri 4
    %3:gpr = MOV_ri 5
    %4:gpr = MOV_ri 6
    $r0 = COPY $r1
    RET implicit $r0
...
";

    /// A dead definition's segment at instruction `n` of the block.
    fn def_at(li: &LiveIntervals, f: &crate::ir::MachineFunction, n: usize) -> Segment {
        let at = li.slots.inst(f.blocks[0].insts[n]).unwrap();
        Segment {
            start: at.reg_slot(false),
            end: at.dead_slot(),
            valno: 0,
        }
    }

    #[test]
    fn a_remade_interval_is_asked_afresh_even_in_the_same_storage() {
        let t = bpf();
        let file = crate::mir::read(t, "m.mir", R1_IN_THE_MIDDLE);
        let f = file.read_functions().next().expect("read");
        let mut li = LiveIntervals::new(t, f, &Cfg::new(f));
        let matrix = LiveRegMatrix::new(t, &li, false);
        let r1 = t.find_reg("r1").unwrap();
        let v = VReg(0);
        // Three segments (enough to be remembered), all before `$r1` is
        // defined: free.
        let mut iv = li.vregs[v.index()].take().unwrap();
        iv.range = LiveRange {
            segments: vec![def_at(&li, f, 0), def_at(&li, f, 1), def_at(&li, f, 2)],
            valnos: vec![ValNo {
                def: li.slots.inst(Inst(0)).unwrap(),
            }],
        };
        li.set_vreg(v, iv);
        let stored = li.vreg(v).unwrap();
        assert_eq!(matrix.check(t, stored, r1), Interference::Free);
        // The same segment list, changed in place (same address, same
        // length), now crossing `$r1`'s range, and stored again.
        let mut iv = li.vregs[v.index()].take().unwrap();
        let storage = iv.range.segments.as_ptr();
        iv.range.segments[2] = def_at(&li, f, 4);
        li.set_vreg(v, iv);
        let stored = li.vreg(v).unwrap();
        assert_eq!(stored.range.segments.as_ptr(), storage);
        assert_eq!(matrix.check(t, stored, r1), Interference::RegUnit);
        // An interval never stored has no generation: asked, not remembered.
        let mut unstored = stored.clone();
        unstored.generation = 0;
        unstored.range.segments[2] = def_at(&li, f, 5);
        assert_eq!(matrix.check(t, &unstored, r1), Interference::RegUnit);
        unstored.range.segments[2] = def_at(&li, f, 2);
        assert_eq!(matrix.check(t, &unstored, r1), Interference::Free);
    }
}
