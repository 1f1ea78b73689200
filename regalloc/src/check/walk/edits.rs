//! The checker's transfer for the instructions allocation inserted: spills, reloads, copies and rematerializations, each checked against its recorded edit.

use crate::ir::{
    FrameRef, Generic, Inst, InstData, Op, Operand, RegFlags, RegOperand, RegRef, VReg,
};
use crate::record::Edit;
use crate::target::{InstrFlags, Reg};

use super::super::state::{State, ValueSet};
use super::{Checker, Here};

use super::super::error::CheckErrorKind as K;

impl<'c, 't> Checker<'c, 't> {
    /// Whether `a` has a physical register operand that is a definition
    /// (or a use) equal to `r`.
    ///
    /// A register named piecewise counts too: sub-registers of `r`, each
    /// a definition (or use), that together cover it (AArch64 stores a
    /// register pair with one `STPXi` of its halves).
    pub(super) fn has_reg(&self, a: &InstData, r: Reg, def: bool) -> bool {
        let named: Vec<Reg> = a
            .operands
            .iter()
            .filter_map(Operand::as_reg)
            .filter(|o| o.is_def() == def)
            .filter_map(|o| self.phys_of(o).ok().flatten())
            .collect();
        if named.contains(&r) {
            return true;
        }
        let pieces: Vec<Reg> = named
            .into_iter()
            .filter(|&p| self.t.sub_reg_index_of(r, p).is_some())
            .collect();
        !pieces.is_empty()
            && self
                .t
                .units(r)
                .iter()
                .all(|u| pieces.iter().any(|&p| self.t.units(p).contains(u)))
    }

    pub(super) fn has_slot(a: &InstData, slot: u32) -> bool {
        a.operands
            .iter()
            .any(|o| matches!(o, Operand::Frame(FrameRef { fixed: false, id }, _) if *id == slot))
    }

    /// Checks that an inserted (or converted) instruction does what its
    /// edit says: otherwise reading it through the edit would prove nothing.
    pub(super) fn verify_edit(&mut self, here: Here, a: &InstData, e: &Edit) {
        for (k, o) in a.operands.iter().enumerate() {
            if let Some(RegOperand {
                reg: RegRef::Virt(v),
                ..
            }) = o.as_reg()
            {
                let v = *v;
                self.err(
                    K::VirtualRegisterLeft,
                    here,
                    Some(k),
                    |_: &Self| "a physical register".into(),
                    |s: &Self| s.orig.vreg_text(v),
                );
            }
        }
        let flags = match a.op {
            Op::Target(op) => self.t.instrs.get(op.index()).map(|d| d.flags),
            // Spill code is made of the description's templates only.
            Op::Generic(_) | Op::Unknown(_) => None,
        };
        let is = |f: InstrFlags| flags.is_some_and(|x| x.contains(f));
        let bad = match *e {
            Edit::Spill { from, slot } => {
                if !self.new_slots.contains(&slot) {
                    Some(format!("%stack.{slot}, which is not a new spill slot"))
                } else if !is(InstrFlags::MAY_STORE)
                    || !Self::has_slot(a, slot)
                    || !self.has_reg(a, from, false)
                {
                    Some(format!(
                        "a store of {} to %stack.{slot}",
                        self.reg_name(from)
                    ))
                } else {
                    None
                }
            }
            Edit::Reload { slot, to } => {
                if !self.new_slots.contains(&slot) {
                    Some(format!("%stack.{slot}, which is not a new spill slot"))
                } else if !is(InstrFlags::MAY_LOAD)
                    || !Self::has_slot(a, slot)
                    || !self.has_reg(a, to, true)
                {
                    Some(format!(
                        "a load of {} from %stack.{slot}",
                        self.reg_name(to)
                    ))
                } else {
                    None
                }
            }
            Edit::Copy { from, to } => {
                let copy_op = a.op.is_copy()
                    || self.t.classes.iter().any(|c| {
                        c.copy
                            .iter()
                            .any(|ch| Op::Target(ch.template.opcode) == a.op)
                    });
                if !copy_op || !self.has_reg(a, to, true) || !self.has_reg(a, from, false) {
                    Some(format!(
                        "a copy of {} to {}",
                        self.reg_name(from),
                        self.reg_name(to)
                    ))
                } else {
                    None
                }
            }
            Edit::Remat { to, .. } => {
                if !self.has_reg(a, to, true) {
                    Some(format!("a definition of {}", self.reg_name(to)))
                } else {
                    None
                }
            }
        };
        if let Some(what) = bad {
            let n = self.op_name(a.op);
            self.err(
                K::BadEdit,
                here,
                None,
                |_: &Self| what,
                |_: &Self| format!("{n} doing something else"),
            );
        }
    }

    /// An instruction the allocator inserted, read through its edit.
    pub(super) fn inserted(&mut self, here: Here, state: &mut State, e: Edit) {
        let Some(a) = self.alloc.insts.get(here.inst.index()) else {
            return;
        };
        self.verify_edit(here, a, &e);
        match e {
            Edit::Spill { from, slot } => {
                let mut set: Option<ValueSet> = None;
                for &u in self.units(from) {
                    let s = state.unit(u);
                    match &mut set {
                        None => set = Some(s.clone()),
                        Some(acc) => {
                            acc.intersect(s);
                        }
                    }
                }
                self.clobber(a, state);
                let set = set.unwrap_or_default();
                if set.is_empty() {
                    state.slots.remove(&slot);
                } else {
                    state.slots.insert(slot, set);
                }
            }
            Edit::Reload { slot, to } => {
                let set = state.slot(slot);
                self.clobber(a, state);
                for &u in self.units(to) {
                    state.set_unit(u, set.clone());
                }
            }
            Edit::Copy { from, to } => {
                let (uf, ut) = (self.units(from), self.units(to));
                let sets: Vec<ValueSet> = uf.iter().map(|&u| state.unit(u).clone()).collect();
                let all = {
                    let mut it = sets.iter();
                    let mut acc = it.next().cloned().unwrap_or_default();
                    for s in it {
                        acc.intersect(s);
                    }
                    acc
                };
                self.clobber(a, state);
                for (k, &u) in ut.iter().enumerate() {
                    let s = if sets.len() == ut.len() {
                        sets[k].clone()
                    } else {
                        all.clone()
                    };
                    state.set_unit(u, s);
                }
            }
            Edit::Remat { vreg, to, of } => self.remat(here, state, a, vreg, to, of),
        }
    }

    pub(super) fn remat(
        &mut self,
        here: Here,
        state: &mut State,
        a: &InstData,
        vreg: VReg,
        to: Reg,
        of: Inst,
    ) {
        let src = self
            .orig
            .insts
            .get(of.index())
            .filter(|_| self.rec.is_original(of));
        let ok = src.is_some_and(|o| {
            o.op == a.op
                && o.operands.len() <= a.operands.len()
                && o.operands
                    .iter()
                    .filter_map(Operand::as_reg)
                    .any(|r| r.is_def() && r.reg == RegRef::Virt(vreg))
                && match o.op {
                    // A load may only be repeated where the memory it reads
                    // cannot have changed (a constant pool).
                    Op::Target(op) => self.t.instrs.get(op.index()).is_some_and(|d| {
                        d.is(InstrFlags::REMAT)
                            && !d.is(InstrFlags::MAY_STORE)
                            && (!d.is(InstrFlags::MAY_LOAD) || o.is_invariant_load())
                    }),
                    Op::Generic(g) => g == Generic::ImplicitDef,
                    Op::Unknown(_) => false,
                }
        });
        if !ok {
            let n = self.op_name(a.op);
            self.err(
                K::BadRemat,
                here,
                None,
                |s: &Self| {
                    format!(
                        "a copy of rematerializable instruction {} defining {}",
                        of.index(),
                        s.orig.vreg_text(vreg)
                    )
                },
                |_: &Self| n,
            );
        } else if self.values_known && self.tracked.contains(&vreg) {
            let reaching = state.reaching.get(&vreg).cloned().unwrap_or_default();
            if reaching != [of] {
                self.err(
                    K::BadRemat,
                    here,
                    None,
                    |s: &Self| {
                        format!(
                            "instruction {} to be the only definition of {} reaching here",
                            of.index(),
                            s.orig.vreg_text(vreg)
                        )
                    },
                    |_: &Self| {
                        format!(
                            "definitions {:?} reach",
                            reaching.iter().map(|i| i.0).collect::<Vec<_>>()
                        )
                    },
                );
            }
        }
        // The recomputation reads its own operands: they must hold what the
        // original definition read.
        if let Some(o) = src.filter(|_| ok) {
            for (k, op) in o.operands.iter().enumerate() {
                let (Some(r), Some(Operand::Reg(ar))) = (op.as_reg(), a.operands.get(k)) else {
                    continue;
                };
                if r.is_def() || r.flags.has(RegFlags::UNDEF) {
                    continue;
                }
                match self.phys_of(ar) {
                    Ok(Some(p)) => self.check_reads(here, Some(k), r.reg, p, state),
                    Ok(None) => {}
                    Err(w) => self.err(
                        K::VirtualRegisterLeft,
                        here,
                        Some(k),
                        |_: &Self| "a physical register".into(),
                        |_: &Self| w,
                    ),
                }
            }
        }
        self.clobber(a, state);
        for &u in self.units(to) {
            state.set_unit(u, ValueSet::single(self.values.vreg(vreg)));
        }
    }
}
