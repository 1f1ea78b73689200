//! The checker's transfer for copies: an original COPY kept, turned into spill code or removed, and the values it moves.

use crate::ir::{Inst, InstData, Operand, RegFlags, RegOperand, RegRef};
use crate::record::Edit;
use crate::target::RegUnit;

use super::super::state::{State, Value, ValueSet};
use super::{Checker, Here, Loc};

use super::super::error::CheckErrorKind as K;

impl<'c, 't> Checker<'c, 't> {
    /// An original `%a = COPY %b`, kept, turned into spill code (with an
    /// edit) or removed: the source must hold `b`; afterwards the
    /// destination holds what the source held, and `a`.
    pub(super) fn original_copy(
        &mut self,
        here: Here,
        state: &mut State,
        o: &InstData,
        edit: Option<Edit>,
        removed: bool,
    ) {
        let (Some(Operand::Reg(od)), Some(Operand::Reg(os))) =
            (o.operands.first(), o.operands.get(1))
        else {
            self.err(
                K::InstructionChanged,
                here,
                None,
                |_: &Self| "a COPY with a destination and a source".into(),
                |_: &Self| "something else".into(),
            );
            return;
        };
        let Some(a) = self.alloc.insts.get(here.inst.index()) else {
            return;
        };
        let locs = match edit {
            Some(Edit::Spill { from, slot }) => Some((Loc::Slot(slot), Loc::Reg(from))),
            Some(Edit::Reload { slot, to }) => Some((Loc::Reg(to), Loc::Slot(slot))),
            Some(Edit::Copy { from, to }) => Some((Loc::Reg(to), Loc::Reg(from))),
            Some(Edit::Remat { .. }) => {
                self.err(
                    K::BadEdit,
                    here,
                    None,
                    |_: &Self| "a spill, reload or copy for an original COPY".into(),
                    |_: &Self| "a rematerialization".into(),
                );
                return;
            }
            None => None,
        };
        if let (Some(e), false) = (edit, removed) {
            self.verify_edit(here, a, &e);
        }
        let locs = match locs {
            Some(l) => l,
            None => {
                if !removed && a.op != o.op {
                    let n = self.op_name(a.op);
                    self.err(
                        K::InstructionChanged,
                        here,
                        None,
                        |_: &Self| "COPY".into(),
                        |_: &Self| n,
                    );
                    return;
                }
                let (Some(Operand::Reg(ad)), Some(Operand::Reg(as_))) =
                    (a.operands.first(), a.operands.get(1))
                else {
                    return;
                };
                match (self.phys_of(ad), self.phys_of(as_)) {
                    (Ok(Some(d)), Ok(Some(s))) => {
                        for (k, (or, ar, p)) in [(od, ad, d), (os, as_, s)].into_iter().enumerate()
                        {
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
                        (Loc::Reg(d), Loc::Reg(s))
                    }
                    (Err(w), _) | (_, Err(w)) if !removed => {
                        self.err(
                            K::VirtualRegisterLeft,
                            here,
                            None,
                            |_: &Self| "physical registers".into(),
                            |_: &Self| w,
                        );
                        return;
                    }
                    _ if removed => {
                        self.removed_virtual_copy(state, od, os, here.inst);
                        return;
                    }
                    _ => return,
                }
            }
        };
        let (dst, src) = locs;
        // The source must hold the copied value.
        if !os.flags.has(RegFlags::UNDEF) {
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
        let meet_all = || {
            let mut it = src_sets.iter();
            let mut acc = it.next().cloned().unwrap_or_default();
            for s in it {
                acc.intersect(s);
            }
            acc
        };
        // Implicit definitions appended to a kept COPY (a super-register
        // the rewriter marks defined) also clobber, except the lanes a
        // partial copy keeps.
        let clobber_extra = |c: &Self, state: &mut State, keep: &[RegUnit]| {
            if edit.is_none() && !removed && a.operands.len() > 2 {
                let extra = InstData {
                    operands: a.operands[2..].to_vec(),
                    ..InstData::new(a.op)
                };
                let saved: Vec<(RegUnit, ValueSet)> =
                    keep.iter().map(|&u| (u, state.unit(u).clone())).collect();
                c.clobber(&extra, state);
                for (u, set) in saved {
                    state.set_unit(u, set);
                }
            }
        };
        match dst {
            Loc::Reg(pd) => {
                let ud = self.units(pd);
                let full_keep: Vec<RegUnit> = match (od.reg, od.sub) {
                    (RegRef::Virt(v), Some(idx)) => {
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
                    _ => Vec::new(),
                };
                // As for other partial definitions, the kept lanes are
                // checked where they are read.
                let undef = od.flags.has(RegFlags::UNDEF);
                clobber_extra(self, state, if undef { &[] } else { &full_keep });
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
                        let keep: Vec<RegUnit> =
                            full_keep.iter().chain(ud.iter()).copied().collect();
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
                        meet_all()
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
            Loc::Slot(s) => {
                clobber_extra(self, state, &[]);
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
                let mut from = meet_all();
                from.remove(x);
                state.forget(x);
                self.copy_value(state, x, &from, Loc::Slot(s), RegUnit(0));
            }
        }
        if let RegRef::Virt(v) = od.reg {
            self.note_def(state, v, here.inst);
        }
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
