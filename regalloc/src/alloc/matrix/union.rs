//! The live-interval union of one register unit: the segments of the virtual registers assigned there, in one sorted vector with cursor walks.
//!
//! LLVM keeps each union in a B+-tree (`IntervalMap`). Ours are small
//! enough (a few hundred entries in the largest functions of the corpus)
//! that one contiguous vector sorted by start wins: a query is a binary
//! search followed by a linear walk over adjacent entries, without the
//! pointer chasing of a tree, and an insertion moves at most the tail of
//! one short vector. Assigning a register with many segments merges them
//! in one pass instead of inserting one by one.

use std::ops::ControlFlow;

use crate::analysis::{Segment, SlotIndex};
use crate::ir::VReg;

/// One assigned segment: `[start, end)` occupied by `owner`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// First point occupied.
    pub start: SlotIndex,
    /// First point no longer occupied.
    pub end: SlotIndex,
    /// The virtual register occupying it.
    pub owner: VReg,
}

/// How many segments an insertion or removal handles one binary search
/// at a time; more are merged with the union in one linear pass, which
/// bounds the cost of a long range by the size of the union.
const ONE_BY_ONE: usize = 8;

/// How many entries a [`Walk`] steps over one by one before it searches
/// the rest of the union instead.
const STEP_BEFORE_SEARCH: usize = 8;

/// The segments assigned to one unit. Entries never overlap (the
/// allocators check for interference before assigning), so they are
/// sorted by end as well as by start.
#[derive(Clone, Debug, Default)]
pub struct Union {
    entries: Vec<Entry>,
}

impl Union {
    /// The entries in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Whether nothing is assigned to the unit.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The index of the first entry starting at or after `at`.
    fn lower_bound(&self, at: SlotIndex) -> usize {
        self.entries.partition_point(|e| e.start < at)
    }

    /// Adds the segments of `owner` (sorted, disjoint). An entry with the
    /// same start as a new segment is replaced, as a map keyed by start
    /// would do. `scratch` is an empty buffer the merge may use.
    pub fn insert(&mut self, segments: &[Segment], owner: VReg, scratch: &mut Vec<Entry>) {
        let new = |s: &Segment| Entry {
            start: s.start,
            end: s.end,
            owner,
        };
        let appends = self
            .entries
            .last()
            .zip(segments.first())
            .is_none_or(|(l, f)| l.start < f.start);
        if appends {
            self.entries.extend(segments.iter().map(new));
            return;
        }
        if segments.len() <= ONE_BY_ONE {
            let mut from = 0;
            for s in segments {
                let k = from + self.entries[from..].partition_point(|e| e.start < s.start);
                match self.entries.get_mut(k) {
                    Some(e) if e.start == s.start => *e = new(s),
                    _ => self.entries.insert(k, new(s)),
                }
                from = k + 1;
            }
            return;
        }
        scratch.clear();
        scratch.reserve(self.entries.len() + segments.len());
        let mut old = self.entries.iter().peekable();
        for s in segments {
            while let Some(e) = old.next_if(|e| e.start < s.start) {
                scratch.push(*e);
            }
            old.next_if(|e| e.start == s.start);
            scratch.push(new(s));
        }
        scratch.extend(old);
        std::mem::swap(&mut self.entries, scratch);
        scratch.clear();
    }

    /// Removes the entries of `owner` starting where a segment of
    /// `segments` (sorted) starts, and reports each removed one to
    /// `removed` as (start, end), in order.
    pub fn remove(
        &mut self,
        segments: &[Segment],
        owner: VReg,
        mut removed: impl FnMut(SlotIndex, SlotIndex),
    ) {
        if segments.len() <= ONE_BY_ONE {
            let mut from = 0;
            for s in segments {
                let k = from + self.entries[from..].partition_point(|e| e.start < s.start);
                if let Some(&e) = self.entries.get(k)
                    && e.start == s.start
                    && e.owner == owner
                {
                    self.entries.remove(k);
                    removed(e.start, e.end);
                }
                from = k;
            }
            return;
        }
        let first = self.lower_bound(segments[0].start);
        let mut j = 0;
        let mut kept = first;
        for k in first..self.entries.len() {
            let e = self.entries[k];
            while j < segments.len() && segments[j].start < e.start {
                j += 1;
            }
            if j < segments.len() && segments[j].start == e.start && e.owner == owner {
                removed(e.start, e.end);
                continue;
            }
            self.entries[kept] = e;
            kept += 1;
        }
        self.entries.truncate(kept);
    }

    /// The entries starting before `end` that reach past `start`, latest
    /// first: those overlapping `[start, end)`.
    pub fn overlapping_rev(
        &self,
        start: SlotIndex,
        end: SlotIndex,
    ) -> impl Iterator<Item = &Entry> + '_ {
        let k = self.lower_bound(end);
        self.entries[..k]
            .iter()
            .rev()
            .take_while(move |e| e.end > start)
    }

    /// The entry containing `start`, if any, then the entries starting in
    /// `[start, end)`, in order.
    pub fn containing_and_after(
        &self,
        start: SlotIndex,
        end: SlotIndex,
    ) -> impl Iterator<Item = &Entry> + '_ {
        let mut k = self.lower_bound(start);
        if k > 0 && self.entries[k - 1].end > start {
            k -= 1;
        }
        self.entries[k..].iter().take_while(move |e| e.start < end)
    }
}

impl Union {
    /// Calls `f` with the entries overlapping `segments` (sorted,
    /// disjoint), in increasing order; an entry reaching over several
    /// segments may come once per segment. Stops when `f` breaks.
    ///
    /// The walk moves through the entries and the segments together, each
    /// side stepping (or, past a few steps, searching) to the first item
    /// reaching the other's current one: a long range over a sparse union
    /// costs about the entries, not a step per segment.
    pub fn each_overlapping(
        &self,
        segments: &[Segment],
        mut f: impl FnMut(&Entry) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let es = &self.entries[..];
        let Some(first) = segments.first() else {
            return ControlFlow::Continue(());
        };
        if es.is_empty() {
            return ControlFlow::Continue(());
        }
        let mut j = es.partition_point(|e| e.end <= first.start);
        let mut i = 0;
        while let (Some(e), Some(s)) = (es.get(j), segments.get(i)) {
            if e.end <= s.start {
                j = skip_while(es, j + 1, |e| e.end <= s.start);
            } else if s.end <= e.start {
                i = skip_while(segments, i + 1, |s| s.end <= e.start);
            } else {
                f(e)?;
                // The one ending first can meet nothing further.
                if e.end <= s.end {
                    j += 1;
                } else {
                    i += 1;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The index of the first item of `xs` at or after `from` for which
/// `before` is false (`before` holding on a prefix of `xs[from..]`): a few
/// steps, then a search of the rest.
fn skip_while<T>(xs: &[T], from: usize, before: impl Fn(&T) -> bool) -> usize {
    let mut k = from;
    for _ in 0..STEP_BEFORE_SEARCH {
        match xs.get(k) {
            Some(x) if before(x) => k += 1,
            _ => return k,
        }
    }
    k + xs.get(k..).map_or(0, |rest| rest.partition_point(before))
}

/// The union entries overlapping each segment of a live range, segment by
/// segment in order. The segments of a range are usually close together,
/// so the walk steps forward through the union and searches the rest only
/// when it would step over more than [`STEP_BEFORE_SEARCH`] entries.
pub struct Walk<'a> {
    entries: &'a [Entry],
    /// The first entry not yet passed.
    at: usize,
}

impl<'a> Walk<'a> {
    /// A walk whose first entry is the first one ending after `at`.
    pub fn new(un: &'a Union, at: SlotIndex) -> Walk<'a> {
        let entries = un.entries();
        Walk {
            entries,
            at: entries.partition_point(|e| e.end <= at),
        }
    }

    /// Passes the entries ending at or before `start`.
    fn skip_to(&mut self, start: SlotIndex) {
        let mut stepped = 0;
        while let Some(e) = self.entries.get(self.at)
            && e.end <= start
        {
            stepped += 1;
            if stepped > STEP_BEFORE_SEARCH {
                self.at += self.entries[self.at..].partition_point(|e| e.end <= start);
                return;
            }
            self.at += 1;
        }
    }

    /// The entries overlapping `[start, end)`, in increasing order. Calls
    /// must come with increasing, disjoint intervals.
    pub fn overlapping(&mut self, start: SlotIndex, end: SlotIndex) -> &'a [Entry] {
        self.skip_to(start);
        let from = self.at;
        let mut to = from;
        while let Some(e) = self.entries.get(to)
            && e.start < end
        {
            to += 1;
            if e.end > end {
                // It may overlap the next interval too: keep it.
                break;
            }
            self.at = to;
        }
        &self.entries[from..to]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: u32, b: u32) -> Segment {
        Segment {
            start: SlotIndex(a),
            end: SlotIndex(b),
            valno: 0,
        }
    }

    fn spans(u: &Union) -> Vec<(u32, u32, u32)> {
        u.entries()
            .iter()
            .map(|e| (e.start.0, e.end.0, e.owner.0))
            .collect()
    }

    #[test]
    fn insert_one_by_one_and_merged_agree() {
        let many: Vec<Segment> = (0..20).map(|k| seg(k * 10 + 5, k * 10 + 8)).collect();
        let mut scratch = Vec::new();
        let mut a = Union::default();
        a.insert(
            &[seg(0, 4), seg(100, 104), seg(300, 304)],
            VReg(1),
            &mut scratch,
        );
        let mut b = a.clone();
        a.insert(&many, VReg(2), &mut scratch);
        for s in many.chunks(3) {
            b.insert(s, VReg(2), &mut scratch);
        }
        assert_eq!(spans(&a), spans(&b));
        assert_eq!(a.entries().len(), 23);
        assert!(a.entries().windows(2).all(|w| w[0].end <= w[1].start));
    }

    #[test]
    fn remove_takes_only_the_owner() {
        let mut scratch = Vec::new();
        let mut u = Union::default();
        let mine: Vec<Segment> = (0..12).map(|k| seg(k * 10, k * 10 + 5)).collect();
        u.insert(&mine, VReg(1), &mut scratch);
        u.insert(&[seg(6, 9), seg(56, 59)], VReg(2), &mut scratch);
        let mut gone = Vec::new();
        u.remove(&mine, VReg(1), |s, e| gone.push((s.0, e.0)));
        assert_eq!(gone.len(), 12);
        assert_eq!(spans(&u), vec![(6, 9, 2), (56, 59, 2)]);
        u.remove(&[seg(6, 9)], VReg(1), |_, _| panic!("not the owner"));
        u.remove(&[seg(6, 9)], VReg(2), |_, _| {});
        assert_eq!(spans(&u), vec![(56, 59, 2)]);
    }

    #[test]
    fn walks_and_windows() {
        let mut scratch = Vec::new();
        let mut u = Union::default();
        u.insert(
            &[seg(0, 10), seg(20, 30), seg(40, 50)],
            VReg(1),
            &mut scratch,
        );
        let met = |segments: &[Segment]| {
            let mut out = Vec::new();
            let _ = u.each_overlapping(segments, |e| {
                out.push(e.start.0);
                ControlFlow::Continue(())
            });
            out
        };
        assert_eq!(met(&[seg(5, 6), seg(12, 18)]), vec![0]);
        assert_eq!(
            met(&[seg(12, 18), seg(22, 24), seg(26, 41)]),
            vec![20, 20, 40]
        );
        assert_eq!(
            met(&[seg(10, 20), seg(30, 40), seg(50, 60)]),
            Vec::<u32>::new()
        );
        let mut w = Walk::new(&u, SlotIndex(5));
        let got: Vec<u32> = w
            .overlapping(SlotIndex(25), SlotIndex(45))
            .iter()
            .map(|e| e.start.0)
            .collect();
        assert_eq!(got, vec![20, 40]);
        let rev: Vec<u32> = u
            .overlapping_rev(SlotIndex(5), SlotIndex(41))
            .map(|e| e.start.0)
            .collect();
        assert_eq!(rev, vec![40, 20, 0]);
        let fwd: Vec<u32> = u
            .containing_and_after(SlotIndex(25), SlotIndex(40))
            .map(|e| e.start.0)
            .collect();
        assert_eq!(fwd, vec![20]);
    }
}
