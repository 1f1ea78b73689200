//! The checker's transfer function for original instructions: what each one reads (checked) and writes (the new abstract state), calls and their masks included.

use crate::ir::{Generic, Inst, InstData, Op, Operand, RegFlags, RegOperand, RegRef, VReg};
use crate::record::FoldedAccess;
use crate::target::{InstrDesc, InstrFlags, Reg, RegUnit, SubRegIndex};

use super::super::state::{State, Value, ValueSet};
use super::{Checker, Here};

use super::super::error::CheckErrorKind as K;

impl<'c, 't> Checker<'c, 't> {
    pub(super) fn step(&mut self, here: Here, state: &mut State, removed: bool) {
        let constants = self.constant_sets(state);
        self.step_unpinned(here, state, removed);
        self.keep_constant_sets(here, state, constants);
    }

    /// [`Self::step`] but for the constant registers' units.
    fn step_unpinned(&mut self, here: Here, state: &mut State, removed: bool) {
        let i = here.inst;
        if !self.rec.is_original(i) {
            match self.rec.edit(i).copied() {
                Some(e) => self.inserted(here, state, e),
                None => self.err(
                    K::Structure,
                    here,
                    None,
                    |_: &Self| "an edit for every inserted instruction".into(),
                    |_: &Self| "an inserted instruction with none".into(),
                ),
            }
            return;
        }
        let Some(o) = self.orig.insts.get(i.index()) else {
            self.err(
                K::Structure,
                here,
                None,
                |_: &Self| "an instruction of the original function".into(),
                |_: &Self| "an id beyond the original's instructions".into(),
            );
            return;
        };
        let edit = self.rec.edit(i).copied();
        if o.op.is_copy() {
            self.original_copy(here, state, o, edit, removed);
        } else if removed {
            self.removed_def(here, state, o);
        } else {
            if edit.is_some() {
                self.err(
                    K::BadEdit,
                    here,
                    None,
                    |_: &Self| "edits only on inserted instructions and original COPYs".into(),
                    |_: &Self| "an edit on another original instruction".into(),
                );
            }
            match self.rec.memory_folds.get(&i).copied() {
                Some(f) => self.folded_access(here, state, o, f),
                None => self.original_inst(here, state, o),
            }
        }
    }

    /// An original instruction that accesses one operand in a spill slot:
    /// the target must have that fold and the slot must be a new spill
    /// slot; a folded use (or the use tied to a folded definition) reads
    /// the slot, which must hold the operand's value; the rest is checked
    /// as the original instruction rewritten into the fold's memory form;
    /// a folded definition leaves its value in the slot.
    pub(super) fn folded_access(
        &mut self,
        here: Here,
        state: &mut State,
        o: &InstData,
        f: FoldedAccess,
    ) {
        let k = f.operand;
        // The fold whose memory form the allocated instruction has.
        let allocated = self.alloc.insts.get(here.inst.index()).map(|a| a.op);
        let fold = match o.op {
            Op::Target(op) => self
                .t
                .memory_folds_for(op, k)
                .iter()
                .find(|x| Some(Op::Target(x.mem_form)) == allocated),
            Op::Generic(_) | Op::Unknown(_) => None,
        };
        // A sub-register use reads the slot's first bytes, which hold the
        // sub-register only if it starts at bit 0 of a little-endian slot.
        let low_lanes = |idx: SubRegIndex| {
            fold.is_some_and(|f| f.little_endian)
                && self
                    .t
                    .sub_reg_indices
                    .get(idx.index())
                    .is_some_and(|d| d.offset == Some(0))
        };
        let reg = o.operands.get(k).and_then(Operand::as_reg).filter(|r| {
            !r.is_implicit()
                && matches!(r.reg, RegRef::Virt(_))
                && r.sub.is_none_or(|idx| !r.is_def() && low_lanes(idx))
        });
        // The second operand a fold removes must name the same register.
        let same = |u: u8| {
            o.operands
                .get(usize::from(u))
                .and_then(Operand::as_reg)
                .zip(o.operands.get(k).and_then(Operand::as_reg))
                .is_some_and(|(a, b)| a.reg == b.reg && a.sub == b.sub)
        };
        let fold = fold.filter(|x| x.also.is_none_or(same));
        let (Some(fold), Some(reg)) = (fold, reg) else {
            let n = self.op_name(o.op);
            self.err(
                K::BadEdit,
                here,
                Some(k),
                |_: &Self| format!("a memory fold the target gives for operand {k} of {n}"),
                |_: &Self| "a folded access without one".into(),
            );
            return;
        };
        if !o.fold_loses_no_live_def(self.t, fold) {
            let (n, m) = (self.op_name(o.op), self.op_name(Op::Target(fold.mem_form)));
            self.err(
                K::BadEdit,
                here,
                Some(k),
                |_: &Self| format!("every implicit definition of {n} that {m} lacks dead"),
                |_: &Self| "a live one, whose value the fold loses".into(),
            );
            return;
        }
        if !self.new_slots.contains(&f.slot) {
            let slot = f.slot;
            self.err(
                K::BadEdit,
                here,
                Some(k),
                |_: &Self| "a folded access to a new spill slot".into(),
                |_: &Self| format!("%stack.{slot}, which is not one"),
            );
            return;
        }
        let read = match (reg.is_def(), fold.also.map(usize::from)) {
            (false, _) => Some((k, reg.reg)),
            (true, Some(u)) => o
                .operands
                .get(u)
                .and_then(Operand::as_reg)
                .map(|r| (u, r.reg)),
            (true, None) => None,
        };
        if let Some((at, name)) = read {
            self.check_slot_reads(here, Some(at), name, f.slot, state);
        }
        // The original in the memory form's terms.
        let mut mem = o.clone();
        mem.fold_memory_operand(fold, k, f.slot);
        self.original_inst(here, state, &mem);
        if let (true, RegRef::Virt(v)) = (reg.is_def(), reg.reg) {
            let x = self.values.vreg(v);
            self.define(state, x, &[], &[]);
            state.slots.insert(f.slot, ValueSet::single(x));
            self.note_def(state, v, here.inst);
        }
    }

    /// Clears every unit an allocated instruction writes or its register
    /// masks do not preserve, and the description's implicit definitions.
    pub(super) fn clobber(&self, a: &InstData, state: &mut State) {
        for op in &a.operands {
            match op {
                Operand::Reg(r) if r.is_def() => {
                    if let Ok(Some(p)) = self.phys_of(r) {
                        for &u in self.units(p) {
                            state.set_unit(u, ValueSet::default());
                        }
                    }
                }
                Operand::RegMask(m) => {
                    for u in 0..state.units.len() {
                        let u = RegUnit::new(u);
                        if !self.unit_preserved(m, u) {
                            state.set_unit(u, ValueSet::default());
                        }
                    }
                }
                _ => {}
            }
        }
        if let Op::Target(op) = a.op
            && let Some(d) = self.t.instrs.get(op.index())
        {
            for &r in d.implicit_defs.iter() {
                for &u in self.units(r) {
                    state.set_unit(u, ValueSet::default());
                }
            }
        }
    }

    /// The program (re)defines `x` in the units `written`: stale copies
    /// elsewhere are forgotten, except in `keep` (the other units of a
    /// register partly redefined, which keep their part of the value).
    pub(super) fn define(
        &self,
        state: &mut State,
        x: Value,
        written: &[RegUnit],
        keep: &[RegUnit],
    ) {
        if keep.is_empty() {
            state.forget(x);
        } else {
            for (k, s) in state.units.iter_mut().enumerate() {
                if !keep.contains(&RegUnit::new(k)) {
                    s.remove(x);
                }
            }
            for s in state.slots.values_mut() {
                s.remove(x);
            }
        }
        for &u in written {
            state.set_unit(u, ValueSet::single(x));
        }
    }

    pub(super) fn note_def(&self, state: &mut State, v: VReg, i: Inst) {
        if self.tracked.contains(&v) {
            state.reaching.insert(v, vec![i]);
        }
    }

    /// An original instruction other than COPY, kept in the function.
    pub(super) fn original_inst(&mut self, here: Here, state: &mut State, o: &InstData) {
        let Some(a) = self.alloc.insts.get(here.inst.index()) else {
            return;
        };
        if !self.same_shape(here, o, a) {
            return;
        }
        // An unknown opcode has no operand classes to check: its virtual
        // registers' classes are the function's (checked as for COPY).
        let desc = match o.op {
            Op::Target(op) => self.t.instrs.get(op.index()),
            Op::Generic(_) | Op::Unknown(_) => None,
        };
        let phys = self.allocated_registers(here, o, a);
        self.check_ties(here, o, desc, &phys);
        self.check_early_clobbers(here, o, a, desc, &phys);
        self.check_uses(here, state, o, &phys);
        self.check_implicit_uses(here, state, o, desc);
        let mut partial = self.kept_lanes(o, a, &phys);
        self.clobber_keeping(state, o, a, &partial);
        self.record_defs(here, state, o, &phys, &mut partial);
    }

    /// Whether the allocated instruction `a` has the original `o`'s opcode
    /// and at least its operands (reported when not).
    fn same_shape(&mut self, here: Here, o: &InstData, a: &InstData) -> bool {
        if a.op == o.op && a.operands.len() >= o.operands.len() {
            return true;
        }
        let (on, an) = (self.op_name(o.op), self.op_name(a.op));
        let (ol, al) = (o.operands.len(), a.operands.len());
        self.err(
            K::InstructionChanged,
            here,
            None,
            |_: &Self| format!("{on} with {ol} operands"),
            |_: &Self| format!("{an} with {al}"),
        );
        false
    }

    /// Which physical register each allocated operand names, each operand
    /// checked against the original's on the way.
    fn allocated_registers(&mut self, here: Here, o: &InstData, a: &InstData) -> Vec<Option<Reg>> {
        let mut phys: Vec<Option<Reg>> = vec![None; a.operands.len()];
        for (k, aop) in a.operands.iter().enumerate() {
            match (o.operands.get(k), aop) {
                (Some(Operand::Reg(or)), Operand::Reg(ar)) => {
                    phys[k] = self.allocated_register(here, o, k, or, ar);
                }
                (Some(oo), ao) => {
                    if oo != ao {
                        let (e, f) = (self.operand_text(oo), self.operand_text(ao));
                        self.err(
                            K::InstructionChanged,
                            here,
                            Some(k),
                            |_: &Self| e,
                            |_: &Self| f,
                        );
                    }
                }
                (None, Operand::Reg(ar)) if ar.is_implicit() => match self.phys_of(ar) {
                    Ok(p) => phys[k] = p,
                    Err(what) => self.err(
                        K::VirtualRegisterLeft,
                        here,
                        Some(k),
                        |_: &Self| "a physical register".into(),
                        |_: &Self| what,
                    ),
                },
                (None, ao) => {
                    let f = self.operand_text(ao);
                    self.err(
                        K::InstructionChanged,
                        here,
                        Some(k),
                        |_: &Self| "only implicit register operands appended".into(),
                        |_: &Self| f,
                    );
                }
            }
        }
        phys
    }

    /// The physical register the allocated register operand `k`, `ar`,
    /// names, checked against the original's `or`: the same direction, no
    /// virtual register left, a fixed register kept, an allocated one of
    /// the right class. `None` when it names none or a check failed.
    fn allocated_register(
        &mut self,
        here: Here,
        o: &InstData,
        k: usize,
        or: &RegOperand,
        ar: &RegOperand,
    ) -> Option<Reg> {
        if or.is_def() != ar.is_def() {
            let direction = |r: &RegOperand| -> String {
                if r.is_def() {
                    "a definition".into()
                } else {
                    "a use".into()
                }
            };
            self.err(
                K::InstructionChanged,
                here,
                Some(k),
                |_: &Self| direction(or),
                |_: &Self| direction(ar),
            );
            return None;
        }
        let p = match self.phys_of(ar) {
            Ok(p) => p,
            Err(what) => {
                self.err(
                    K::VirtualRegisterLeft,
                    here,
                    Some(k),
                    |_: &Self| "a physical register".into(),
                    |_: &Self| what,
                );
                return None;
            }
        };
        match (or.reg, p) {
            (RegRef::Phys(q), _) => {
                let want = match or.sub {
                    Some(i) => self.sub_reg(q, i),
                    None => Some(q),
                };
                if want != p {
                    let w = want.map_or("$noreg".into(), |r| self.reg_name(r));
                    let f = p.map_or("$noreg".into(), |r| self.reg_name(r));
                    self.err(
                        K::FixedRegisterChanged,
                        here,
                        Some(k),
                        |_: &Self| w,
                        |_: &Self| f,
                    );
                }
            }
            (RegRef::Virt(v), Some(p)) => self.check_class(here, o, k, v, ar, p),
            (RegRef::Virt(v), None) => self.err(
                K::WrongClass,
                here,
                Some(k),
                |s: &Self| format!("a register for {}", s.orig.vreg_text(v)),
                |_: &Self| "$noreg".into(),
            ),
            (RegRef::NoReg, _) => {}
        }
        p
    }

    /// Tied operands: the use and its definition in one register.
    fn check_ties(
        &mut self,
        here: Here,
        o: &InstData,
        desc: Option<&InstrDesc<'_>>,
        phys: &[Option<Reg>],
    ) {
        for k in 0..o.operands.len() {
            let Some(d) = tie_of(o, desc, k) else {
                continue;
            };
            if let (Some(Some(pu)), Some(Some(pd))) = (phys.get(k), phys.get(d))
                && pu != pd
            {
                let (pu, pd) = (*pu, *pd);
                let w = format!(
                    "the register of its tied use, operand {k} ({})",
                    self.reg_name(pu)
                );
                let f = self.reg_name(pd);
                self.err(K::TiedMismatch, here, Some(d), |_: &Self| w, |_: &Self| f);
            }
        }
    }

    /// Early-clobber definitions share no unit with any use.
    fn check_early_clobbers(
        &mut self,
        here: Here,
        o: &InstData,
        a: &InstData,
        desc: Option<&InstrDesc<'_>>,
        phys: &[Option<Reg>],
    ) {
        for (d, op) in a.operands.iter().enumerate() {
            let Some(r) = op.as_reg() else { continue };
            let early = r.flags.has(RegFlags::EARLY_CLOBBER)
                || original_reg(o, d).is_some_and(|o| o.flags.has(RegFlags::EARLY_CLOBBER))
                || (!r.is_implicit()
                    && desc
                        .and_then(|x| x.operands.get(d))
                        .is_some_and(|x| x.early_clobber));
            if !r.is_def() || !early {
                continue;
            }
            let Some(Some(pd)) = phys.get(d).copied() else {
                continue;
            };
            for (k, uop) in a.operands.iter().enumerate() {
                let Some(u) = uop.as_reg() else { continue };
                let tied = tie_of(o, desc, k) == Some(d);
                if u.is_def() || tied {
                    continue;
                }
                if let Some(Some(pu)) = phys.get(k).copied()
                    && self.t.regs_overlap(pd, pu)
                    && !self.reads_other_lanes(o, k, u, pu, pd)
                {
                    let w = format!(
                        "no unit shared with the uses, but operand {k} is {}",
                        self.reg_name(pu)
                    );
                    let f = self.reg_name(pd);
                    self.err(
                        K::EarlyClobberOverlap,
                        here,
                        Some(d),
                        |_: &Self| w,
                        |_: &Self| f,
                    );
                    break;
                }
            }
        }
    }

    /// Uses read what the original read.
    fn check_uses(&mut self, here: Here, state: &State, o: &InstData, phys: &[Option<Reg>]) {
        for (k, op) in o.operands.iter().enumerate() {
            let Some(r) = op.as_reg() else { continue };
            if r.is_def()
                || r.flags.has(RegFlags::UNDEF)
                || r.flags.has(RegFlags::DEBUG_USE)
                || r.flags.has(RegFlags::INTERNAL)
            {
                continue;
            }
            if let Some(Some(p)) = phys.get(k).copied() {
                self.check_reads(here, Some(k), r.reg, p, state);
            }
        }
    }

    /// The description's implicit uses read their registers whether the
    /// operands name them or not (a call's may be left out): each must
    /// hold what the original held there.
    fn check_implicit_uses(
        &mut self,
        here: Here,
        state: &State,
        o: &InstData,
        desc: Option<&InstrDesc<'_>>,
    ) {
        for &r in desc.map_or(&[][..], |d| &d.implicit_uses[..]) {
            let named = o
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|x| !x.is_def() && x.reg == RegRef::Phys(r) && x.sub.is_none());
            if !named && r.index() < self.t.regs.len() {
                self.check_reads(here, None, RegRef::Phys(r), r, state);
            }
        }
    }

    /// Per operand, the units a sub-register definition without `undef`
    /// keeps: the other lanes of the full register. Whether they hold the
    /// register's value is checked where a lane is read, not here: with
    /// sub-register liveness a lane that is dead at this point may
    /// legitimately hold another register's value.
    fn kept_lanes(&self, o: &InstData, a: &InstData, phys: &[Option<Reg>]) -> Vec<Vec<RegUnit>> {
        let mut partial: Vec<Vec<RegUnit>> = vec![Vec::new(); o.operands.len()];
        for (k, op) in o.operands.iter().enumerate() {
            let (Some(r), Some(Some(p)), Some(Operand::Reg(ar))) =
                (op.as_reg(), phys.get(k).copied(), a.operands.get(k))
            else {
                continue;
            };
            let (RegRef::Virt(v), Some(idx)) = (r.reg, r.sub) else {
                continue;
            };
            if !r.is_def() {
                continue;
            }
            let Some(full) = self.full_reg(v, idx, ar, p) else {
                continue;
            };
            let others: Vec<RegUnit> = self
                .units(full)
                .iter()
                .copied()
                .filter(|u| !self.units(p).contains(u))
                .collect();
            partial[k] = others;
        }
        partial
    }

    /// Clobbers everything `a` writes, except the kept lanes of a partial
    /// definition: the rewriter marks the whole register `implicit-def`
    /// (as LLVM's does), but those lanes are not written.
    fn clobber_keeping(
        &self,
        state: &mut State,
        o: &InstData,
        a: &InstData,
        partial: &[Vec<RegUnit>],
    ) {
        let kept: Vec<(RegUnit, ValueSet)> = o
            .operands
            .iter()
            .zip(partial)
            .filter(|(op, _)| op.as_reg().is_some_and(|r| !r.flags.has(RegFlags::UNDEF)))
            .flat_map(|(_, units)| units.iter().map(|&u| (u, state.unit(u).clone())))
            .collect();
        self.clobber(a, state);
        for (u, set) in kept {
            state.set_unit(u, set);
        }
    }

    /// Records the values the definitions write, the lanes a partial
    /// definition keeps (`partial`, taken) included.
    fn record_defs(
        &self,
        here: Here,
        state: &mut State,
        o: &InstData,
        phys: &[Option<Reg>],
        partial: &mut [Vec<RegUnit>],
    ) {
        for (k, op) in o.operands.iter().enumerate() {
            let Some(r) = op.as_reg() else { continue };
            if !r.is_def() {
                continue;
            }
            let Some(Some(p)) = phys.get(k).copied() else {
                continue;
            };
            let written = self.units(p);
            match r.reg {
                RegRef::Virt(v) => {
                    let x = self.values.vreg(v);
                    let others = std::mem::take(&mut partial[k]);
                    if r.sub.is_some() && !r.flags.has(RegFlags::UNDEF) {
                        let keep: Vec<RegUnit> = written.iter().chain(&others).copied().collect();
                        self.define(state, x, written, &keep);
                    } else {
                        self.define(state, x, written, &[]);
                        // The other lanes of an `undef` partial definition
                        // are undefined: whatever they hold will do.
                        for u in others {
                            state.add_to_unit(u, x);
                        }
                    }
                    self.note_def(state, v, here.inst);
                }
                RegRef::Phys(_) => {
                    for &u in written {
                        self.define(state, self.values.unit(u), &[u], &[]);
                    }
                }
                RegRef::NoReg => {}
            }
        }
    }

    /// Whether use `k` of the allocated instruction, in `pu`, is the read
    /// of the lanes a partial definition in `pd` leaves: an implicit use
    /// of a register containing `pd` that the original did not have,
    /// which the rewriter appends (with an `implicit-def`) to a
    /// sub-register definition without `undef`, as LLVM's does. It reads
    /// only the lanes the definition does not write, so an early-clobber
    /// definition may overlap it (AVX-512 `early-clobber $ymm22 =
    /// VPGATHERQDZrm ..., implicit $zmm22, implicit-def $zmm22`).
    fn reads_other_lanes(&self, o: &InstData, k: usize, u: &RegOperand, pu: Reg, pd: Reg) -> bool {
        k >= o.operands.len() && u.is_implicit() && self.t.sub_reg_index_of(pu, pd).is_some()
    }

    pub(super) fn op_name(&self, op: Op) -> String {
        match op {
            Op::Target(o) => self
                .t
                .instrs
                .get(o.index())
                .map_or_else(|| format!("<opcode {}>", o.0), |d| d.name.to_string()),
            Op::Generic(g) => g.name().to_string(),
            Op::Unknown(u) => u.name.to_string(),
        }
    }

    /// An original instruction taken out that is not a COPY: only a
    /// definition with no other effect (made dead by rematerialization) may
    /// be removed; its value now lives nowhere.
    pub(super) fn removed_def(&mut self, here: Here, state: &mut State, o: &InstData) {
        let harmless = match o.op {
            Op::Target(op) => self.t.instrs.get(op.index()).is_some_and(|d| {
                d.is(InstrFlags::REMAT)
                    && !d.is(InstrFlags::MAY_STORE)
                    && !d.is(InstrFlags::CALL)
                    && !d.is(InstrFlags::TERMINATOR)
            }),
            Op::Generic(g) => matches!(g, Generic::ImplicitDef | Generic::Kill),
            Op::Unknown(_) => false,
        };
        let phys_def = o.operands.iter().filter_map(Operand::as_reg).any(|r| {
            r.is_def() && matches!(r.reg, RegRef::Phys(_)) && !r.flags.has(RegFlags::DEAD)
        });
        if !harmless || phys_def {
            let n = self.op_name(o.op);
            self.err(
                K::BadRemoval,
                here,
                None,
                |_: &Self| "only rematerializable definitions and copies removed".into(),
                |_: &Self| format!("{n} removed"),
            );
        }
        for r in o.operands.iter().filter_map(Operand::as_reg) {
            if let (true, RegRef::Virt(v)) = (r.is_def(), r.reg) {
                state.forget(self.values.vreg(v));
                self.note_def(state, v, here.inst);
            }
        }
    }
}

/// Operand `k` of the original instruction `o`, when it is a register.
fn original_reg(o: &InstData, k: usize) -> Option<&RegOperand> {
    o.operands.get(k).and_then(Operand::as_reg)
}

/// The definition use `k` of `o` is tied to: by the MIR, the description,
/// or, for an opcode the description lacks, by naming the register (and
/// sub-register) a definition names (`UnknownOp`: LLVM prints only the
/// ties its description cannot imply, so such a tie is invisible; one
/// virtual register is one register there).
fn tie_of(o: &InstData, desc: Option<&InstrDesc<'_>>, k: usize) -> Option<usize> {
    let r = original_reg(o, k)?;
    if r.is_def() {
        return None;
    }
    r.tied_to.map(usize::from).or_else(|| {
        if r.is_implicit() {
            None
        } else if let Op::Unknown(_) = o.op {
            let v @ RegRef::Virt(_) = r.reg else {
                return None;
            };
            (0..o.operands.len()).find(|&d| {
                original_reg(o, d).is_some_and(|x| x.is_def() && x.reg == v && x.sub == r.sub)
            })
        } else {
            desc.and_then(|d| d.tied_to(k))
        }
    })
}
