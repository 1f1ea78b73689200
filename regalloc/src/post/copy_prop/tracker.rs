//! The copies available along a block, by register unit (LLVM's `CopyTracker` in MachineCopyPropagation).
//!
//! A unit maps to the copy that last wrote it (with whether its value is
//! still what the copy put there) and, when it is part of a copy's
//! source, the destinations copied from it, so that writing a source
//! makes the copies out of it unavailable.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::Inst;
use crate::target::{Reg, RegUnit, TargetInfo};

/// A tracked copy: its destination, source and position in the block.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct Tracked {
    pub(super) dst: Reg,
    pub(super) src: Reg,
    pub(super) pos: usize,
}

/// What one unit knows.
#[derive(Clone, Debug, Default)]
struct UnitInfo {
    /// The copy whose destination holds the unit.
    copy: Option<Inst>,
    /// The last copy whose source holds the unit.
    last_use_in_copy: Option<Inst>,
    /// The destinations of copies out of a source holding the unit.
    def_regs: Vec<Reg>,
    /// Whether the unit still holds what `copy` wrote.
    avail: bool,
}

/// The copies available at a point of a block.
#[derive(Default)]
pub(super) struct Tracker {
    units: HashMap<RegUnit, UnitInfo>,
    copies: HashMap<Inst, Tracked>,
}

impl Tracker {
    /// Forgets every copy (at the start of a block).
    pub(super) fn clear(&mut self) {
        self.units.clear();
        self.copies.clear();
    }

    pub(super) fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The destination, source and position of a tracked copy.
    pub(super) fn copy(&self, i: Inst) -> Option<Tracked> {
        self.copies.get(&i).copied()
    }

    /// Tracks copy `i` (`dst = COPY src` at `pos`): its destination holds
    /// what it wrote, and its source is copied to `dst`.
    pub(super) fn track(&mut self, t: &TargetInfo<'_>, i: Inst, c: Tracked) {
        self.copies.insert(i, c);
        for &u in t.units(c.dst) {
            self.units.insert(
                u,
                UnitInfo {
                    copy: Some(i),
                    avail: true,
                    ..UnitInfo::default()
                },
            );
        }
        for &u in t.units(c.src) {
            let e = self.units.entry(u).or_default();
            if !e.def_regs.contains(&c.dst) {
                e.def_regs.push(c.dst);
            }
            e.last_use_in_copy = Some(i);
        }
    }

    /// Marks `regs` (and their units) as no longer holding what a copy
    /// wrote.
    fn mark_unavailable(&mut self, t: &TargetInfo<'_>, regs: &[Reg]) {
        for &r in regs {
            for u in t.units(r) {
                if let Some(e) = self.units.get_mut(u) {
                    e.avail = false;
                }
            }
        }
    }

    /// `r` is written (forward walk): copies into it and out of it are no
    /// longer available (LLVM's `clobberRegister`).
    pub(super) fn clobber(&mut self, t: &TargetInfo<'_>, r: Reg) {
        for &u in t.units(r) {
            let Some(e) = self.units.get(&u).cloned() else {
                continue;
            };
            // A source written: what was copied from it is stale.
            self.mark_unavailable(t, &e.def_regs);
            if let Some(c) = e.copy.and_then(|i| self.copy(i)) {
                // A destination written: the whole destination is stale.
                self.mark_unavailable(t, &[c.dst]);
                // Its source no longer defines it.
                for su in t.units(c.src) {
                    let Some(s) = self.units.get_mut(su) else {
                        continue;
                    };
                    if s.last_use_in_copy.is_none() {
                        continue;
                    }
                    let Some(k) = s.def_regs.iter().position(|&d| d == c.dst) else {
                        continue;
                    };
                    s.def_regs.remove(k);
                    if s.def_regs.is_empty() && s.copy.is_none() {
                        self.units.remove(su);
                    }
                }
            }
            self.units.remove(&u);
        }
    }

    /// `r` is read or written (backward walk): every copy into or out of
    /// a register sharing a unit with it is forgotten (LLVM's
    /// `invalidateRegister`).
    pub(super) fn invalidate(&mut self, t: &TargetInfo<'_>, r: Reg) {
        let mut stale: Vec<RegUnit> = Vec::new();
        for u in t.units(r) {
            let Some(e) = self.units.get(u) else { continue };
            for c in [e.copy, e.last_use_in_copy]
                .into_iter()
                .flatten()
                .filter_map(|i| self.copy(i))
            {
                stale.extend_from_slice(t.units(c.dst));
                stale.extend_from_slice(t.units(c.src));
            }
        }
        for u in stale {
            self.units.remove(&u);
        }
    }

    /// The copy whose destination holds unit `u` (only if still as the
    /// copy wrote it, when `available`).
    pub(super) fn copy_for_unit(&self, u: RegUnit, available: bool) -> Option<Inst> {
        let e = self.units.get(&u)?;
        if available && !e.avail {
            return None;
        }
        e.copy
    }

    /// The copy out of a source holding unit `u`, when there is exactly
    /// one and its destination still holds what it wrote (LLVM's
    /// `findCopyDefViaUnit`).
    fn copy_def_via_unit(&self, t: &TargetInfo<'_>, u: RegUnit) -> Option<Inst> {
        let e = self.units.get(&u)?;
        let [d] = e.def_regs[..] else { return None };
        self.copy_for_unit(*t.units(d).first()?, true)
    }

    /// The available copy whose destination contains `r` (LLVM's
    /// `findAvailCopy`; the caller checks register masks in between).
    pub(super) fn avail_copy(&self, t: &TargetInfo<'_>, r: Reg) -> Option<(Inst, Tracked)> {
        let i = self.copy_for_unit(*t.units(r).first()?, true)?;
        let c = self.copy(i)?;
        (c.dst == r || t.sub_reg_index_of(c.dst, r).is_some()).then_some((i, c))
    }

    /// The copy (met later in the block) whose source contains `r`
    /// (LLVM's `findAvailBackwardCopy`; the caller checks register masks
    /// in between).
    pub(super) fn avail_backward_copy(
        &self,
        t: &TargetInfo<'_>,
        r: Reg,
    ) -> Option<(Inst, Tracked)> {
        let i = self.copy_def_via_unit(t, *t.units(r).first()?)?;
        let c = self.copy(i)?;
        (c.src == r || t.sub_reg_index_of(c.src, r).is_some()).then_some((i, c))
    }
}
