//! The checker's transfer for copies: an original COPY kept, turned into spill code or removed, and the values it moves.

use crate::ir::{Inst, InstData, Operand, RegFlags, RegOperand, RegRef};
use crate::record::Edit;
use crate::target::{Reg, RegUnit};

use super::super::state::{State, Value, ValueSet};
use super::{Checker, Here, Loc};

use super::super::error::CheckErrorKind as K;

impl<'c, 't> Checker<'c, 't> {
    /// An original `%a = COPY %b`, kept, turned into spill code (with an
    /// edit) or removed: the source must hold `b`; afterwards the
    /// destination holds what the source held, and `a`. A removed copy
    /// between two registers reads and writes nothing (its destination
    /// must hold `b` already), and a removed dead copy
    /// ([`crate::record::AllocRecord::dead_copies`]) leaves `a` nowhere.
    pub(super) fn original_copy(
        &mut self,
        here: Here,
        state: &mut State,
        o: &InstData,
        edit: Option<Edit>,
        removed: bool,
    ) {
        let Some((od, os)) = self.copy_operands(here, o) else {
            return;
        };
        let Some(a) = self.alloc.insts.get(here.inst.index()) else {
            return;
        };
        if let Some(Edit::Remat { .. }) = edit {
            self.err(
                K::BadEdit,
                here,
                None,
                |_: &Self| "a spill, reload or copy for an original COPY".into(),
                |_: &Self| "a rematerialization".into(),
            );
            return;
        }
        if let (Some(e), false) = (edit, removed) {
            self.verify_edit(here, a, &e);
        }
        if removed && self.rec.dead_copies.contains(&here.inst) {
            self.dead_copy(here, state, od, os, a);
            return;
        }
        let locs = match edit.and_then(edit_locations) {
            Some(l) => l,
            None => match self.unedited_locations(here, state, o, a, removed) {
                Some(l) => l,
                None => return,
            },
        };
        let (dst, mut src) = locs;
        if removed && self.identity_copy_defines_nothing(state, od, os, dst, src) {
            // Its value is held nowhere: any later read of it fails.
            if let RegRef::Virt(v) = od.reg {
                state.forget(self.values.vreg(v));
                self.note_def(state, v, here.inst);
            }
            return;
        }
        let mut checked = false;
        // A removed copy between two registers writes nothing: its
        // destination must already hold the value (copy propagation takes
        // such copies out), and keeps it.
        if removed
            && let (Loc::Reg(d), Loc::Reg(s)) = (dst, src)
            && d != s
        {
            src = Loc::Reg(d);
            if let (RegRef::Phys(q), None, false) = (os.reg, os.sub, os.flags.has(RegFlags::UNDEF))
            {
                self.check_holds_register_value(here, state, d, q);
                checked = true;
            }
        }
        // The source must hold the copied value.
        if !checked && !os.flags.has(RegFlags::UNDEF) {
            match src {
                Loc::Reg(p) => self.check_reads(here, Some(1), os.reg, p, state),
                Loc::Slot(s) => self.check_slot_reads(here, Some(1), os.reg, s, state),
            }
        }
        let src_sets: Vec<ValueSet> = match src {
            Loc::Reg(p) => self
                .units(p)
                .iter()
                .map(|&u| state.unit(u).clone())
                .collect(),
            Loc::Slot(s) => vec![state.slot(s)],
        };
        // Implicit definitions appended to a kept COPY (a super-register
        // the rewriter marks defined) also clobber.
        let appended = (edit.is_none() && !removed && a.operands.len() > 2).then_some(a);
        match dst {
            Loc::Reg(pd) => self.copy_to_register(state, od, a, pd, &src_sets, appended),
            Loc::Slot(s) => {
                self.clobber_appended(state, appended, &[]);
                let RegRef::Virt(v) = od.reg else {
                    self.err(
                        K::BadEdit,
                        here,
                        Some(0),
                        |_: &Self| "a copy to a physical register kept in a register".into(),
                        |_: &Self| format!("a spill to %stack.{s}"),
                    );
                    return;
                };
                let x = self.values.vreg(v);
                let mut from = meet_all(&src_sets);
                from.remove(x);
                state.forget(x);
                self.copy_value(state, x, &from, Loc::Slot(s), RegUnit(0));
            }
        }
        if let RegRef::Virt(v) = od.reg {
            self.note_def(state, v, here.inst);
        }
    }

    /// Whether a removed copy between a register and itself finds there
    /// something other than the value it copies: then it reads nothing
    /// and the value it defines is nowhere (rather than an error here).
    /// Copy propagation may take out what last wrote the register when
    /// nothing reads the copy's destination afterwards (a dead value, as
    /// LLVM's `machine-cp` never sees the copy); if something does, that
    /// read finds the value missing.
    fn identity_copy_defines_nothing(
        &self,
        state: &State,
        od: &RegOperand,
        os: &RegOperand,
        dst: Loc,
        src: Loc,
    ) -> bool {
        let (Loc::Reg(d), Loc::Reg(s)) = (dst, src) else {
            return false;
        };
        if d != s || !matches!(od.reg, RegRef::Virt(_)) || os.flags.has(RegFlags::UNDEF) {
            return false;
        }
        if !self.values_known || self.untracked(s) {
            return false;
        }
        self.units(s).iter().any(|&u| {
            self.expected_value(os.reg, u)
                .is_some_and(|x| !state.unit(u).contains(x))
        })
    }

    /// Register `d` holds, unit by unit, what physical register `q` holds
    /// in the original program here (reported when not).
    fn check_holds_register_value(&mut self, here: Here, state: &State, d: Reg, q: Reg) {
        if !self.values_known {
            return;
        }
        let (ud, uq) = (self.units(d).to_vec(), self.units(q).to_vec());
        let holds = ud.len() == uq.len()
            && ud
                .iter()
                .zip(&uq)
                .all(|(&a, &b)| state.unit(a).contains(self.values.unit(b)));
        if !holds {
            let (dn, qn) = (self.reg_name(d), self.reg_name(q));
            self.err(
                K::WrongValue,
                here,
                Some(1),
                |_: &Self| format!("{dn} to hold the value of {qn}"),
                |_: &Self| "it does not".into(),
            );
        }
    }

    /// An original COPY taken out because nothing read its destination:
    /// its destination keeps what it held; the value it defined is still
    /// a copy of its source's (which the source must hold), so the
    /// locations holding that hold it too, and no others.
    fn dead_copy(
        &mut self,
        here: Here,
        state: &mut State,
        od: &RegOperand,
        os: &RegOperand,
        a: &InstData,
    ) {
        let (dreg, sreg) = {
            let reg = |k: usize| {
                a.operands
                    .get(k)
                    .and_then(Operand::as_reg)
                    .and_then(|r| self.phys_of(r).ok().flatten())
            };
            (reg(0), reg(1))
        };
        // What the source holds is what the value is a copy of: it must
        // be the copied value.
        if let (Some(s), false) = (sreg, os.flags.has(RegFlags::UNDEF)) {
            self.check_reads(here, Some(1), os.reg, s, state);
        }
        match od.reg {
            RegRef::Virt(v) => {
                let x = self.values.vreg(v);
                // Per unit of the destination, what the source unit it
                // would have received held (as `copy_to_register` pairs
                // them).
                let src_sets: Vec<ValueSet> = sreg.map_or_else(Vec::new, |s| {
                    self.units(s)
                        .iter()
                        .map(|&u| state.unit(u).clone())
                        .collect()
                });
                let n = dreg.map_or(0, |d| self.units(d).len());
                let froms: Vec<ValueSet> = (0..n)
                    .map(|k| {
                        let mut from = if src_sets.len() == n {
                            src_sets[k].clone()
                        } else {
                            meet_all(&src_sets)
                        };
                        from.remove(x);
                        from
                    })
                    .collect();
                state.forget(x);
                for from in froms.iter().filter(|f| !f.is_empty()) {
                    for s in state.units.iter_mut().chain(state.slots.values_mut()) {
                        if s.meets(from) {
                            s.insert(x);
                        }
                    }
                }
                self.note_def(state, v, here.inst);
            }
            RegRef::Phys(_) => {
                // The copy would have given the destination's units their
                // new values: nothing holds them now.
                if let Some(p) = dreg {
                    for &u in self.units(p) {
                        state.forget(self.values.unit(u));
                    }
                }
            }
            RegRef::NoReg => {}
        }
    }

    /// The destination and source operands of the original COPY `o`
    /// (reported when it lacks them).
    fn copy_operands<'o>(
        &mut self,
        here: Here,
        o: &'o InstData,
    ) -> Option<(&'o RegOperand, &'o RegOperand)> {
        if let (Some(Operand::Reg(od)), Some(Operand::Reg(os))) =
            (o.operands.first(), o.operands.get(1))
        {
            return Some((od, os));
        }
        self.err(
            K::InstructionChanged,
            here,
            None,
            |_: &Self| "a COPY with a destination and a source".into(),
            |_: &Self| "something else".into(),
        );
        None
    }

    /// The destination and source of an original COPY without an edit:
    /// the registers of the allocated COPY `a`, checked against the
    /// original's. `None` when there is nothing more to check: a changed
    /// instruction or a virtual register left (both reported), or a
    /// removed COPY of registers never rewritten (its values moved here).
    fn unedited_locations(
        &mut self,
        here: Here,
        state: &mut State,
        o: &InstData,
        a: &InstData,
        removed: bool,
    ) -> Option<(Loc, Loc)> {
        if !removed && a.op != o.op {
            let n = self.op_name(a.op);
            self.err(
                K::InstructionChanged,
                here,
                None,
                |_: &Self| "COPY".into(),
                |_: &Self| n,
            );
            return None;
        }
        let (Some(Operand::Reg(od)), Some(Operand::Reg(os))) =
            (o.operands.first(), o.operands.get(1))
        else {
            return None;
        };
        let (Some(Operand::Reg(ad)), Some(Operand::Reg(as_))) =
            (a.operands.first(), a.operands.get(1))
        else {
            return None;
        };
        match (self.phys_of(ad), self.phys_of(as_)) {
            (Ok(Some(d)), Ok(Some(s))) => {
                for (k, (or, ar, p)) in [(od, ad, d), (os, as_, s)].into_iter().enumerate() {
                    self.check_copy_register(here, o, k, or, ar, p);
                }
                Some((Loc::Reg(d), Loc::Reg(s)))
            }
            (Err(w), _) | (_, Err(w)) if !removed => {
                self.err(
                    K::VirtualRegisterLeft,
                    here,
                    None,
                    |_: &Self| "physical registers".into(),
                    |_: &Self| w,
                );
                None
            }
            _ if removed => {
                self.removed_virtual_copy(state, od, os, here.inst);
                None
            }
            _ => None,
        }
    }

    /// Operand `k` of a kept COPY, `or` in the original and `ar` in `p`
    /// after allocation: a virtual register's class, or the fixed register
    /// unchanged.
    fn check_copy_register(
        &mut self,
        here: Here,
        o: &InstData,
        k: usize,
        or: &RegOperand,
        ar: &RegOperand,
        p: Reg,
    ) {
        match or.reg {
            RegRef::Virt(v) => self.check_class(here, o, k, v, ar, p),
            RegRef::Phys(q) => {
                let want = match or.sub {
                    Some(i) => self.sub_reg(q, i),
                    None => Some(q),
                };
                if want != Some(p) {
                    let w = want.map_or("$noreg".into(), |r| self.reg_name(r));
                    let f = self.reg_name(p);
                    self.err(
                        K::FixedRegisterChanged,
                        here,
                        Some(k),
                        |_: &Self| w,
                        |_: &Self| f,
                    );
                }
            }
            RegRef::NoReg => {}
        }
    }

    /// Clobbers the implicit definitions appended to a kept COPY (`a`,
    /// when it has any), except the lanes a partial copy keeps.
    fn clobber_appended(&self, state: &mut State, appended: Option<&InstData>, keep: &[RegUnit]) {
        let Some(a) = appended else { return };
        let extra = InstData {
            operands: a.operands[2..].to_vec(),
            ..InstData::new(a.op)
        };
        let saved: Vec<(RegUnit, ValueSet)> =
            keep.iter().map(|&u| (u, state.unit(u).clone())).collect();
        self.clobber(&extra, state);
        for (u, set) in saved {
            state.set_unit(u, set);
        }
    }

    /// A COPY's destination `od`, allocated to `pd`, receives per unit the
    /// value the source held there (`src_sets`, per unit of the source, or
    /// one set for a slot).
    fn copy_to_register(
        &self,
        state: &mut State,
        od: &RegOperand,
        a: &InstData,
        pd: Reg,
        src_sets: &[ValueSet],
        appended: Option<&InstData>,
    ) {
        let ud = self.units(pd);
        let full_keep = self.copy_kept_lanes(od, a, pd);
        // As for other partial definitions, the kept lanes are
        // checked where they are read.
        let undef = od.flags.has(RegFlags::UNDEF);
        self.clobber_appended(state, appended, if undef { &[] } else { &full_keep });
        let partial = od.sub.is_some() && !undef;
        let value_of = |u: RegUnit| match od.reg {
            RegRef::Virt(v) => Some(self.values.vreg(v)),
            RegRef::Phys(_) => Some(self.values.unit(u)),
            RegRef::NoReg => None,
        };
        // The old copies of the defined value die once, before any
        // unit of the destination receives it: forgetting per unit
        // would drop it from the units written just before.
        if let RegRef::Virt(v) = od.reg {
            let x = self.values.vreg(v);
            if partial {
                let keep: Vec<RegUnit> = full_keep.iter().chain(ud.iter()).copied().collect();
                self.define(state, x, &[], &keep);
            } else {
                state.forget(x);
            }
        } else {
            for &u in ud.iter() {
                if let Some(x) = value_of(u) {
                    state.forget(x);
                }
            }
        }
        for (k, &u) in ud.iter().enumerate() {
            let Some(x) = value_of(u) else { continue };
            let mut from = if src_sets.len() == ud.len() {
                src_sets[k].clone()
            } else {
                meet_all(src_sets)
            };
            from.remove(x);
            self.copy_value(state, x, &from, Loc::Reg(pd), u);
        }
        if undef && let RegRef::Virt(v) = od.reg {
            for &u in &full_keep {
                state.add_to_unit(u, self.values.vreg(v));
            }
        }
    }

    /// The units of the full register a sub-register COPY destination `od`
    /// (allocated to `pd`) lies in, other than `pd`'s own: the lanes the
    /// copy keeps.
    fn copy_kept_lanes(&self, od: &RegOperand, a: &InstData, pd: Reg) -> Vec<RegUnit> {
        let (RegRef::Virt(v), Some(idx)) = (od.reg, od.sub) else {
            return Vec::new();
        };
        let ud = self.units(pd);
        let ad = a
            .operands
            .first()
            .and_then(Operand::as_reg)
            .cloned()
            .unwrap_or(RegOperand::def_of(pd));
        self.full_reg(v, idx, &ad, pd)
            .map(|f| {
                self.units(f)
                    .iter()
                    .copied()
                    .filter(|u| !ud.contains(u))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `x` := the value a location holding `from` holds, placed in unit `u`
    /// (for `Loc::Reg`) or the slot. Every location that shares a value with
    /// `from` holds the same value, so it also holds `x` afterwards. The
    /// caller has already removed `x` from the locations that lost it.
    pub(super) fn copy_value(
        &self,
        state: &mut State,
        x: Value,
        from: &ValueSet,
        dst: Loc,
        u: RegUnit,
    ) {
        if !from.is_empty() {
            for s in state.units.iter_mut() {
                if s.meets(from) {
                    s.insert(x);
                }
            }
            for s in state.slots.values_mut() {
                if s.meets(from) {
                    s.insert(x);
                }
            }
        }
        let mut set = from.clone();
        set.insert(x);
        match dst {
            Loc::Reg(_) => state.set_unit(u, set),
            Loc::Slot(s) => {
                state.slots.insert(s, set);
            }
        }
    }

    /// A removed COPY whose registers were never rewritten: every location
    /// holding the source value now also holds the destination's.
    pub(super) fn removed_virtual_copy(
        &self,
        state: &mut State,
        od: &RegOperand,
        os: &RegOperand,
        i: Inst,
    ) {
        let (RegRef::Virt(a), RegRef::Virt(b)) = (od.reg, os.reg) else {
            return;
        };
        let (xa, xb) = (self.values.vreg(a), self.values.vreg(b));
        if xa == xb {
            return;
        }
        state.forget(xa);
        for s in state.units.iter_mut().chain(state.slots.values_mut()) {
            if s.contains(xb) {
                s.insert(xa);
            }
        }
        self.note_def(state, a, i);
    }
}

/// The destination and source an edit on an original COPY says it became
/// (`None` for a rematerialization, which it cannot be).
fn edit_locations(edit: Edit) -> Option<(Loc, Loc)> {
    match edit {
        Edit::Spill { from, slot } => Some((Loc::Slot(slot), Loc::Reg(from))),
        Edit::Reload { slot, to } => Some((Loc::Reg(to), Loc::Slot(slot))),
        Edit::Copy { from, to } => Some((Loc::Reg(to), Loc::Reg(from))),
        Edit::Remat { .. } => None,
    }
}

/// The values every one of `sets` holds (none when there are no sets).
fn meet_all(sets: &[ValueSet]) -> ValueSet {
    let mut it = sets.iter();
    let mut acc = it.next().cloned().unwrap_or_default();
    for s in it {
        acc.intersect(s);
    }
    acc
}
