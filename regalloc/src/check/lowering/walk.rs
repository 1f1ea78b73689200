//! The lowering checker's walk: a forward dataflow over the lowered function whose state says which SSA values each virtual register and register unit holds, PHIs applied on edges, and every read checked against the SSA instruction's.

use std::collections::BTreeSet;

use crate::ir::{Block, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegRef};
use crate::record::BlockOrigin;
use crate::target::{InstrFlags, RegUnit, TargetInfo, ThreeAddressOperand};

use super::super::error::{CheckError, CheckErrorKind as K};
use super::super::state::ValueSet;
use super::phys;
use super::ssa::{Ssa, is_constant};
use super::structure::Map;
use super::values::{Key, Kind, Val, Values};

/// A commuted instruction's condition operand and the value XORed into
/// it (`None`: commuting leaves every condition as it is).
type ConditionFlip = Option<(usize, i64)>;

/// What is known at one point of the lowered function.
#[derive(Clone, PartialEq, Eq, Debug)]
struct State {
    /// By lowered virtual register, the SSA values it holds.
    vregs: Vec<ValueSet>,
    /// By register unit, the SSA values it holds.
    units: Vec<ValueSet>,
}

impl State {
    fn meet(&mut self, o: &State) -> bool {
        let mut changed = false;
        for (a, b) in self.vregs.iter_mut().zip(&o.vregs) {
            changed |= a.intersect(b);
        }
        for (a, b) in self.units.iter_mut().zip(&o.units) {
            changed |= a.intersect(b);
        }
        changed
    }

    fn forget(&mut self, values: &Values, key: Key) {
        for s in self.vregs.iter_mut().chain(self.units.iter_mut()) {
            s.retain(|x| !values.mentions(x, key));
        }
    }
}

/// The walk over one lowered function.
pub(crate) struct Walk<'c, 't> {
    pub t: &'c TargetInfo<'t>,
    pub ssa: &'c Ssa<'c>,
    pub low: &'c MachineFunction,
    pub map: &'c Map,
    pub values: Values<'c, 't>,
    report: bool,
    /// The instruction being walked.
    current: Inst,
    pub errors: Vec<CheckError>,
}

/// Where the walk is.
#[derive(Copy, Clone)]
struct Here {
    block: Block,
    pos: usize,
    inst: Inst,
}

impl<'c, 't> Walk<'c, 't> {
    pub fn new(
        t: &'c TargetInfo<'t>,
        ssa: &'c Ssa<'c>,
        low: &'c MachineFunction,
        map: &'c Map,
        values: Values<'c, 't>,
    ) -> Self {
        Walk {
            t,
            ssa,
            low,
            map,
            values,
            report: false,
            current: Inst::new(0),
            errors: Vec::new(),
        }
    }

    /// The fixpoint, then the reporting pass.
    pub fn run(mut self) -> Vec<CheckError> {
        let n = self.low.blocks.len();
        if n == 0 {
            return Vec::new();
        }
        let entry = State {
            vregs: vec![ValueSet::default(); self.low.vregs.len()],
            units: (0..self.t.units.len())
                .map(|u| ValueSet::single(self.values.intern(Kind::Entry(RegUnit::new(u)))))
                .collect(),
        };
        let order = super::ssa::reverse_post_order(self.low);
        let mut rank = vec![usize::MAX; n];
        for (k, b) in order.iter().enumerate() {
            rank[b.index()] = k;
        }
        let mut ins: Vec<Option<State>> = vec![None; n];
        ins[0] = Some(entry);
        let mut work: BTreeSet<usize> = (0..order.len()).collect();
        let mut budget = 64usize
            .saturating_mul(n + 1)
            .saturating_mul(n + 1)
            .max(10_000);
        while let Some(k) = work.pop_first() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            let b = order[k];
            let Some(mut state) = ins[b.index()].clone() else {
                continue;
            };
            self.walk_block(b, &mut state);
            for s in self.low.block(b).succs.iter().map(|s| s.block) {
                let Some(slot) = ins.get_mut(s.index()) else {
                    continue;
                };
                let mut edge = state.clone();
                self.on_edge(b, s, &mut edge);
                let changed = match slot {
                    Some(old) => old.meet(&edge),
                    None => {
                        *slot = Some(edge);
                        true
                    }
                };
                if changed && rank[s.index()] != usize::MAX {
                    work.insert(rank[s.index()]);
                }
            }
        }
        self.report = true;
        for &b in &order {
            if let Some(mut state) = ins[b.index()].clone() {
                self.walk_block(b, &mut state);
            }
        }
        self.errors
    }

    /// The SSA PHIs (and implicit PHIs of physical registers) of the block
    /// an edge enters, applied: the locations holding the value a PHI takes
    /// from the edge's SSA predecessor hold the PHI's value after it, and
    /// values of the PHIs' earlier executions are stale.
    fn on_edge(&mut self, from: Block, to: Block, state: &mut State) {
        let Some(BlockOrigin::Original(b)) = self.map.origins.get(to.index()).copied() else {
            return;
        };
        let Some(p) = self.map.source(from) else {
            return;
        };
        let ssa = self.ssa;
        let mut adds: Vec<(bool, usize, Val)> = Vec::new();
        for phi in &ssa.phis[b.index()] {
            let Some(&(_, x)) = phi.incoming.iter().find(|(q, _)| *q == p) else {
                continue;
            };
            let d = self.values.intern(Kind::Def(phi.dest));
            // An undefined input: on this edge the PHI's value is
            // whatever any register holds.
            let any = x == self.values.undef;
            for (k, s) in state.vregs.iter().enumerate() {
                if any || s.contains(x) {
                    adds.push((true, k, d));
                }
            }
            for (k, s) in state.units.iter().enumerate() {
                if s.contains(x) {
                    adds.push((false, k, d));
                }
            }
        }
        for &u in &ssa.merges[b.index()] {
            let Some(before) = ssa.out.get(p.index()).and_then(|o| o.get(u.index())) else {
                continue;
            };
            if state.units[u.index()].meets(before) {
                adds.push((false, u.index(), self.values.intern(Kind::Merge(b, u))));
            }
        }
        for phi in &ssa.phis[b.index()] {
            state.forget(&self.values, Key::Vreg(phi.dest));
        }
        state.forget(&self.values, Key::Block(b));
        for (vreg, k, x) in adds {
            if vreg {
                state.vregs[k].insert(x);
            } else {
                state.units[k].insert(x);
            }
        }
    }

    fn walk_block(&mut self, b: Block, state: &mut State) {
        for (pos, &i) in self.low.block(b).insts.iter().enumerate() {
            let here = Here {
                block: b,
                pos,
                inst: i,
            };
            self.step(here, state);
        }
    }

    /// One lowered instruction.
    fn step(&mut self, here: Here, state: &mut State) {
        self.current = here.inst;
        let low = self.low;
        let a = low.inst(here.inst);
        if a.op.is_debug() || a.op == Op::Generic(Generic::Kill) {
            return;
        }
        let original = self
            .ssa
            .f
            .insts
            .get(here.inst.index())
            .filter(|_| self.ssa.block_of[here.inst.index()].is_some());
        match (original, a.op) {
            (_, Op::Generic(Generic::ImplicitDef)) => self.implicit_def(a, state),
            (Some(o), Op::Generic(Generic::Copy)) if !copy_from_phys(o) => self.copy(a, state),
            (None, Op::Generic(Generic::Copy)) => self.copy(a, state),
            (Some(o), _) if !transparent(o.op) || copy_from_phys(o) => {
                self.checked(here, o, a, state)
            }
            _ => self.inserted(here, a, state),
        }
    }

    fn implicit_def(&mut self, a: &InstData, state: &mut State) {
        let undef = ValueSet::single(self.values.undef);
        if let Some(r) = a.operands.first().and_then(Operand::as_reg) {
            self.write(state, r, &undef);
        }
    }

    /// What a lowered use operand finds.
    fn read(&mut self, state: &State, r: &crate::ir::RegOperand) -> ValueSet {
        if r.flags.has(RegFlags::UNDEF) {
            return ValueSet::single(self.values.undef);
        }
        match r.reg {
            RegRef::Virt(w) => {
                let mut out = ValueSet::default();
                for x in state
                    .vregs
                    .get(w.index())
                    .map(|s| s.iter().collect::<Vec<_>>())
                    .unwrap_or_default()
                {
                    out.insert(self.values.sub(x, r.sub));
                }
                out
            }
            RegRef::Phys(_) => phys::reg_of(self.t, r)
                .map_or_else(ValueSet::default, |p| phys::read(self.t, &state.units, p)),
            RegRef::NoReg => ValueSet::default(),
        }
    }

    /// A lowered definition operand `r` gets `set` (into its
    /// sub-register, the other lanes kept unless it is `undef`).
    fn write(&mut self, state: &mut State, r: &crate::ir::RegOperand, set: &ValueSet) {
        match r.reg {
            RegRef::Virt(w) if w.index() < state.vregs.len() => {
                let new = match r.sub {
                    None => set.clone(),
                    Some(idx) => {
                        let bases: Vec<Val> = if r.flags.has(RegFlags::UNDEF) {
                            vec![self.values.undef]
                        } else {
                            state.vregs[w.index()].iter().collect()
                        };
                        let mut out = ValueSet::default();
                        for &b in bases.iter().take(4) {
                            for x in set.iter().take(4) {
                                out.insert(self.values.compose(b, idx, x));
                            }
                        }
                        out
                    }
                };
                state.vregs[w.index()] = new;
            }
            RegRef::Phys(_) => {
                if let Some(p) = phys::reg_of(self.t, r) {
                    phys::write(self.t, &mut state.units, p, set);
                }
            }
            _ => {}
        }
    }

    /// A COPY that moves a value, whatever made it.
    fn copy(&mut self, a: &InstData, state: &mut State) {
        let (Some(dst), Some(src)) = (
            a.operands.first().and_then(Operand::as_reg),
            a.operands.get(1).and_then(Operand::as_reg),
        ) else {
            return;
        };
        let set = self.read(state, src);
        self.write(state, dst, &set);
    }

    /// An instruction the passes made that no SSA instruction stands
    /// behind: a jump of edge splitting, a three-address form, or a
    /// rematerialized constant.
    fn inserted(&mut self, here: Here, a: &InstData, state: &mut State) {
        if let Op::Target(op) = a.op {
            if self.t.unconditional_branch == Some(op) {
                phys::clobber_unnamed(self.t, a, &mut state.units);
                return;
            }
            if let Some(&m) = self.map.three_address.get(&here.inst) {
                self.three_address(here, m, a, state);
                return;
            }
        }
        if is_constant(self.t, a) {
            let x = ValueSet::single(self.values.constant(a.op, &a.operands));
            phys::clobber_unnamed(self.t, a, &mut state.units);
            for r in a.operands.iter().filter_map(Operand::as_reg) {
                if r.is_def() && !r.is_implicit() {
                    self.write(state, r, &x);
                } else if r.is_def() {
                    self.write(state, r, &ValueSet::default());
                }
            }
            return;
        }
        let n = a.op.name(self.t).to_string();
        self.err(
            K::Structure,
            here,
            None,
            "an instruction the passes make (a copy, a jump, a three-address form, a constant)"
                .into(),
            format!("an inserted {n}"),
        );
    }

    /// The values a lowered instruction standing for SSA instruction `o`
    /// (`perm`: which SSA operand each lowered operand stands for) fails
    /// to read, as (operand, expected, found).
    fn failed_reads(
        &mut self,
        o: &InstData,
        perm: &[usize],
        a: &InstData,
        i: Inst,
        state: &State,
    ) -> Vec<(usize, String, String)> {
        let mut bad = Vec::new();
        for (k, ao) in a.operands.iter().enumerate() {
            let Some(ar) = ao.as_reg().filter(|r| !r.is_def()) else {
                continue;
            };
            let Some(or) = perm
                .get(k)
                .and_then(|&j| o.operands.get(j))
                .and_then(Operand::as_reg)
            else {
                continue;
            };
            if or.flags.has(RegFlags::UNDEF) || or.flags.has(RegFlags::DEBUG_USE) {
                continue;
            }
            let expected: ValueSet = match or.reg {
                RegRef::Virt(_) => match self.ssa.operand_value(or, &mut self.values) {
                    Some(x) if x != self.values.undef => ValueSet::single(x),
                    _ => continue,
                },
                RegRef::Phys(_) => match self.ssa.phys_reads.get(&(i, perm[k])) {
                    Some(s) if !s.is_empty() => s.clone(),
                    _ => continue,
                },
                RegRef::NoReg => continue,
            };
            let found = self.read(state, ar);
            if !found.meets(&expected) {
                bad.push((k, self.set_text(&expected), self.set_text(&found)));
            }
        }
        bad
    }

    /// An instruction of the SSA function, kept: the same opcode and
    /// operands (registers renamed), or commuted as the description
    /// allows, each read finding the SSA read's value.
    fn checked(&mut self, here: Here, o: &InstData, a: &InstData, state: &mut State) {
        let mut perm: Vec<usize> = (0..o.operands.len()).collect();
        let mut shape = self.shape_errors(o, &perm, a, None);
        let mut bad = if shape.is_empty() {
            self.failed_reads(o, &perm, a, here.inst, state)
        } else {
            Vec::new()
        };
        if (!shape.is_empty() || !bad.is_empty())
            && let Some((swapped, cond)) = self.commuted(o)
        {
            let s2 = self.shape_errors(o, &swapped, a, cond);
            if s2.is_empty() {
                let b2 = self.failed_reads(o, &swapped, a, here.inst, state);
                if b2.is_empty() {
                    perm = swapped;
                    shape.clear();
                    bad.clear();
                }
            }
        }
        for (k, e, f) in shape {
            self.err(K::InstructionChanged, here, k, e, f);
        }
        for (k, e, f) in bad {
            self.err(K::WrongValue, here, Some(k), e, f);
        }
        self.define(here.inst, o, &perm, a, state);
    }

    /// The operand order of `o` commuted (its first two uses swapped), with
    /// the condition operand and the value XORed into it where commuting
    /// reverses a condition, when the description says it commutes.
    fn commuted(&self, o: &InstData) -> Option<(Vec<usize>, ConditionFlip)> {
        let Op::Target(op) = o.op else { return None };
        let desc = self.t.instrs.get(op.index())?;
        let rule = self.t.commute_rule(op);
        if !desc.is(InstrFlags::COMMUTABLE) || rule.is_some_and(|r| !r.commutes) {
            return None;
        }
        let c1 = usize::from(desc.num_defs);
        let mut perm: Vec<usize> = (0..o.operands.len()).collect();
        if c1 + 1 >= perm.len() {
            return None;
        }
        perm.swap(c1, c1 + 1);
        Some((
            perm,
            rule.and_then(|r| r.condition)
                .map(|(k, x)| (usize::from(k), x)),
        ))
    }

    /// How lowered `a` differs from SSA `o` read through `perm` beyond
    /// register names (and the condition operand `cond` XORed): as it is,
    /// or, for a conditional branch, reversed as the description reverses
    /// it (to another successor of its block). Implicit physical operands
    /// may be appended (`livevars` adds the sub-registers a call defines).
    fn shape_errors(
        &self,
        o: &InstData,
        perm: &[usize],
        a: &InstData,
        cond: Option<(usize, i64)>,
    ) -> Vec<(Option<usize>, String, String)> {
        let plain = self.shape_errors_as(o, perm, a, cond, None);
        if plain.is_empty() {
            return plain;
        }
        let reversal = match o.op {
            Op::Target(x) => self
                .t
                .conditional_branch(x)
                .and_then(|c| c.reverse)
                .filter(|r| a.op == Op::Target(r.inverse)),
            _ => None,
        };
        match reversal {
            Some(r) if self.shape_errors_as(o, perm, a, cond, Some(r)).is_empty() => Vec::new(),
            _ => plain,
        }
    }

    fn shape_errors_as(
        &self,
        o: &InstData,
        perm: &[usize],
        a: &InstData,
        cond: Option<(usize, i64)>,
        reversal: Option<crate::target::BranchReversal>,
    ) -> Vec<(Option<usize>, String, String)> {
        let mut out = Vec::new();
        if a.op != o.op && reversal.is_none() {
            out.push((
                None,
                o.op.name(self.t).to_string(),
                a.op.name(self.t).to_string(),
            ));
            return out;
        }
        let appended_ok = a.operands[o.operands.len().min(a.operands.len())..]
            .iter()
            .all(|x| {
                x.as_reg()
                    .is_some_and(|r| r.is_implicit() && matches!(r.reg, RegRef::Phys(_)))
            });
        if a.operands.len() < o.operands.len() || !appended_ok {
            out.push((
                None,
                format!("{} operands", o.operands.len()),
                format!("{}", a.operands.len()),
            ));
            return out;
        }
        let home = self
            .ssa
            .block_of
            .get(self.current.index())
            .copied()
            .flatten();
        for (k, ao) in a.operands.iter().enumerate().take(o.operands.len()) {
            let oo = &o.operands[perm[k]];
            let ok = match (oo, ao) {
                (Operand::Reg(x), Operand::Reg(y)) => {
                    x.is_def() == y.is_def()
                        && match (x.reg, y.reg) {
                            (RegRef::Virt(_), RegRef::Virt(_)) => true,
                            (p, q) => p == q && x.sub == y.sub,
                        }
                }
                (Operand::Block(x), Operand::Block(y)) => match reversal {
                    None => self.map.target(*y) == Some(*x),
                    Some(_) => {
                        let t = self.map.target(*y);
                        t != Some(*x)
                            && home.is_some_and(|h| {
                                self.ssa.f.block(h).succs.iter().any(|s| Some(s.block) == t)
                            })
                    }
                },
                (Operand::Imm(x), Operand::Imm(y)) => {
                    let mut want = *x;
                    if let Some((_, xor)) = cond.filter(|&(c, _)| c == k) {
                        want ^= xor;
                    }
                    if let Some((_, xor)) = reversal
                        .and_then(|r| r.condition)
                        .filter(|&(c, _)| usize::from(c) == k)
                    {
                        want ^= xor;
                    }
                    want == *y
                }
                (x, y) => x == y,
            };
            if !ok {
                out.push((
                    Some(k),
                    self.operand_text(oo, true),
                    self.operand_text(ao, false),
                ));
            }
        }
        out
    }

    /// An operand as text: a block by its SSA number (`ssa`) or as the
    /// lowered block it is and the SSA block it stands for.
    fn operand_text(&self, o: &Operand, ssa: bool) -> String {
        match o {
            Operand::Block(b) if ssa => format!("SSA bb.{}", b.0),
            Operand::Block(b) => match self.map.target(*b) {
                Some(t) => format!("bb.{} (SSA bb.{})", b.0, t.0),
                None => format!("bb.{}", b.0),
            },
            Operand::Imm(x) => format!("{x}"),
            other => format!("{other:?}"),
        }
    }

    /// The definitions of a lowered instruction standing for SSA `o`:
    /// stale copies of the values it defines forgotten, each definition
    /// holding the SSA definition's value.
    fn define(&mut self, i: Inst, o: &InstData, perm: &[usize], a: &InstData, state: &mut State) {
        for r in o
            .operands
            .iter()
            .filter_map(Operand::as_reg)
            .filter(|r| r.is_def())
        {
            if let RegRef::Virt(v) = r.reg {
                state.forget(&self.values, Key::Vreg(v));
            }
        }
        state.forget(&self.values, Key::Inst(i));
        phys::clobber_unnamed(self.t, a, &mut state.units);
        for (k, ao) in a.operands.iter().enumerate() {
            let Some(ar) = ao.as_reg().filter(|r| r.is_def()) else {
                continue;
            };
            let Some(or) = perm
                .get(k)
                .and_then(|&j| o.operands.get(j))
                .and_then(Operand::as_reg)
            else {
                continue;
            };
            let x = match or.reg {
                RegRef::Virt(v) => self.ssa.canon.get(v.index()).copied(),
                RegRef::Phys(_) => {
                    phys::reg_of(self.t, or).map(|p| self.values.intern(Kind::Phys(i, p)))
                }
                RegRef::NoReg => None,
            };
            let set = x.map_or_else(ValueSet::default, ValueSet::single);
            self.write(state, ar, &set);
        }
        // Implicit definitions appended to the SSA instruction's operands
        // write what the SSA instruction did not: unknown values, unless
        // another definition of it covers them.
        for ar in a
            .operands
            .iter()
            .skip(o.operands.len())
            .filter_map(Operand::as_reg)
        {
            let Some(p) = phys::reg_of(self.t, ar).filter(|_| ar.is_def()) else {
                continue;
            };
            let covered = o.operands.iter().filter_map(Operand::as_reg).any(|r| {
                r.is_def()
                    && phys::reg_of(self.t, r).is_some_and(|q| {
                        self.t.units(p).iter().all(|u| self.t.units(q).contains(u))
                    })
            });
            if !covered {
                phys::write(self.t, &mut state.units, p, &ValueSet::default());
            }
        }
    }

    /// A three-address form standing for SSA instruction `m`.
    fn three_address(&mut self, here: Here, m: Inst, a: &InstData, state: &mut State) {
        let o = self.ssa.f.inst(m);
        let (Op::Target(two), Op::Target(three)) = (o.op, a.op) else {
            return;
        };
        let forms: Vec<_> = self
            .t
            .three_address_forms(two)
            .iter()
            .filter(|f| f.three_address == three)
            .cloned()
            .collect();
        let mut last = Vec::new();
        let orders: Vec<Vec<usize>> = std::iter::once((0..o.operands.len()).collect())
            .chain(self.commuted(o).map(|(p, _)| p))
            .collect();
        for form in &forms {
            for perm in &orders {
                let errs = self.three_address_errors(form, o, perm, a, m, state);
                if errs.is_empty() {
                    self.define_three_address(form, o, perm, a, m, state);
                    return;
                }
                last = errs;
            }
        }
        if last.is_empty() {
            last.push((
                None,
                "a three-address form of the description".into(),
                a.op.name(self.t).to_string(),
            ));
        }
        for (k, e, f) in last {
            self.err(K::InstructionChanged, here, k, e, f);
        }
        match forms.first() {
            Some(form) => self.define_three_address(form, o, &orders[0], a, m, state),
            None => phys::clobber_unnamed(self.t, a, &mut state.units),
        }
    }

    fn three_address_errors(
        &mut self,
        form: &crate::target::ThreeAddressDesc<'_>,
        o: &InstData,
        perm: &[usize],
        a: &InstData,
        m: Inst,
        state: &State,
    ) -> Vec<(Option<usize>, String, String)> {
        let mut out = Vec::new();
        let op_at = |k: u8| perm.get(usize::from(k)).and_then(|&j| o.operands.get(j));
        if let Some((k, imm)) = form.immediate
            && op_at(k) != Some(&Operand::Imm(imm))
        {
            out.push((
                None,
                format!("operand {k} = {imm}"),
                format!("{:?}", op_at(k)),
            ));
            return out;
        }
        for (j, spec) in form.operands.iter().enumerate() {
            let Some(ao) = a.operands.get(j) else {
                out.push((Some(j), "an operand".into(), "none".into()));
                continue;
            };
            let reg_read = |k: u8| {
                op_at(k)
                    .and_then(Operand::as_reg)
                    .filter(|r| !r.is_def())
                    .cloned()
            };
            let expect: Option<ValueSet> = match *spec {
                ThreeAddressOperand::Def | ThreeAddressOperand::Result(..) => {
                    if ao.as_reg().is_none_or(|r| !r.is_def()) {
                        out.push((Some(j), "a definition".into(), format!("{ao:?}")));
                    }
                    None
                }
                ThreeAddressOperand::Operand(k) | ThreeAddressOperand::Constrained(k, _) => {
                    match reg_read(k) {
                        Some(r) => self.expected_read(o, &r, m, perm[usize::from(k)]),
                        None => {
                            if op_at(k) != Some(ao) {
                                out.push((Some(j), format!("{:?}", op_at(k)), format!("{ao:?}")));
                            }
                            None
                        }
                    }
                }
                ThreeAddressOperand::Negated(k, _) => {
                    if !matches!((op_at(k), ao), (Some(Operand::Imm(x)), Operand::Imm(y)) if x.wrapping_neg() == *y)
                    {
                        out.push((
                            Some(j),
                            format!("the negation of {:?}", op_at(k)),
                            format!("{ao:?}"),
                        ));
                    }
                    None
                }
                ThreeAddressOperand::Widened(k, _, idx)
                | ThreeAddressOperand::Inserted(k, _, idx) => reg_read(k)
                    .and_then(|r| self.expected_read(o, &r, m, perm[usize::from(k)]))
                    .map(|s| {
                        let mut w = ValueSet::default();
                        for x in s.iter() {
                            w.insert(self.values.compose(self.values.undef, idx, x));
                        }
                        w
                    }),
                ThreeAddressOperand::Imm(x) => {
                    if *ao != Operand::Imm(x) {
                        out.push((Some(j), format!("{x}"), format!("{ao:?}")));
                    }
                    None
                }
                ThreeAddressOperand::NoReg => {
                    if ao.as_reg().is_none_or(|r| r.reg != RegRef::NoReg) {
                        out.push((Some(j), "$noreg".into(), format!("{ao:?}")));
                    }
                    None
                }
                ThreeAddressOperand::Fixed(r) => {
                    if ao.as_reg().is_none_or(|x| x.reg != RegRef::Phys(r)) {
                        out.push((Some(j), format!("{r:?}"), format!("{ao:?}")));
                    }
                    None
                }
            };
            if let (Some(want), Some(ar)) = (expect, ao.as_reg()) {
                let found = self.read(state, ar);
                if !found.meets(&want) {
                    out.push((Some(j), self.set_text(&want), self.set_text(&found)));
                }
            }
        }
        out
    }

    /// What SSA use `r` (operand `k` of `o`, instruction `m`) reads; `None`
    /// when any value will do.
    fn expected_read(
        &mut self,
        _o: &InstData,
        r: &crate::ir::RegOperand,
        m: Inst,
        k: usize,
    ) -> Option<ValueSet> {
        match r.reg {
            RegRef::Virt(_) => self
                .ssa
                .operand_value(r, &mut self.values)
                .filter(|&x| x != self.values.undef)
                .map(ValueSet::single),
            RegRef::Phys(_) => self
                .ssa
                .phys_reads
                .get(&(m, k))
                .filter(|s| !s.is_empty())
                .cloned(),
            RegRef::NoReg => None,
        }
    }

    fn define_three_address(
        &mut self,
        form: &crate::target::ThreeAddressDesc<'_>,
        o: &InstData,
        _perm: &[usize],
        a: &InstData,
        m: Inst,
        state: &mut State,
    ) {
        let def = o
            .operands
            .first()
            .and_then(Operand::as_reg)
            .and_then(|r| match r.reg {
                RegRef::Virt(v) => Some(v),
                _ => None,
            });
        if let Some(v) = def {
            state.forget(&self.values, Key::Vreg(v));
        }
        state.forget(&self.values, Key::Inst(m));
        phys::clobber_unnamed(self.t, a, &mut state.units);
        let value = def.and_then(|v| self.ssa.canon.get(v.index()).copied());
        for (j, spec) in form.operands.iter().enumerate() {
            let Some(ar) = a
                .operands
                .get(j)
                .and_then(Operand::as_reg)
                .filter(|r| r.is_def())
            else {
                continue;
            };
            let set = match (*spec, value) {
                (ThreeAddressOperand::Def, Some(x)) => ValueSet::single(x),
                (ThreeAddressOperand::Result(_, idx), Some(x)) => {
                    ValueSet::single(self.values.compose(self.values.undef, idx, x))
                }
                _ => ValueSet::default(),
            };
            self.write(state, ar, &set);
        }
        for ar in a
            .operands
            .iter()
            .skip(form.operands.len())
            .filter_map(Operand::as_reg)
            .filter(|r| r.is_def())
        {
            self.write(state, ar, &ValueSet::default());
        }
    }

    fn err(
        &mut self,
        kind: K,
        here: Here,
        operand: Option<usize>,
        expected: String,
        found: String,
    ) {
        if !self.report {
            return;
        }
        let mut e = CheckError::new(kind, &self.low.name, expected, found);
        e.block = Some(here.block);
        e.inst = Some(here.inst);
        e.position = Some(here.pos);
        e.operand = operand;
        e.inst_text = crate::mir::inst_text(self.t, self.low, here.inst);
        e.operand_text = operand
            .and_then(|k| self.low.inst(here.inst).operands.get(k))
            .and_then(Operand::as_reg)
            .map(|r| match r.reg {
                RegRef::Virt(v) => self.low.vreg_text(v),
                RegRef::Phys(p) => self.reg_name(p),
                RegRef::NoReg => "$noreg".into(),
            });
        self.errors.push(e);
    }

    fn reg_name(&self, r: crate::target::Reg) -> String {
        self.t.regs.get(r.index()).map_or_else(
            || format!("$<register {}>", r.0),
            |d| format!("${}", d.name.to_ascii_lowercase()),
        )
    }

    /// A value as text naming the SSA function's registers.
    pub fn value_text(&self, x: Val) -> String {
        match self.values.kind(x) {
            Kind::Undef => "undef".into(),
            Kind::Def(v) => self.ssa.f.vreg_text(*v),
            Kind::Phys(i, r) => format!("{} written by SSA instruction {}", self.reg_name(*r), i.0),
            Kind::Entry(u) => format!("the entry value of unit {}", u.0),
            Kind::Merge(b, u) => format!("unit {} on entry to SSA bb.{}", u.0, b.0),
            Kind::Const(op, _) => format!("a constant {}", op.name(self.t)),
            Kind::Sub(y, idx) => format!("{}.{}", self.value_text(*y), self.index_name(*idx)),
            Kind::Compose(y, parts) => {
                let p: Vec<String> = parts
                    .iter()
                    .map(|(i, v)| format!("{}: {}", self.index_name(*i), self.value_text(*v)))
                    .collect();
                format!("{} with {{{}}}", self.value_text(*y), p.join(", "))
            }
        }
    }

    fn index_name(&self, i: crate::target::SubRegIndex) -> String {
        self.t
            .sub_reg_indices
            .get(i.index())
            .map_or_else(|| format!("<index {}>", i.0), |d| d.name.to_string())
    }

    fn set_text(&self, s: &ValueSet) -> String {
        if s.is_empty() {
            return "nothing known".into();
        }
        s.iter()
            .map(|x| self.value_text(x))
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

/// Whether an SSA opcode moves values rather than computing one.
fn transparent(op: Op) -> bool {
    matches!(
        op,
        Op::Generic(
            Generic::Phi
                | Generic::Copy
                | Generic::RegSequence
                | Generic::InsertSubreg
                | Generic::ImplicitDef
        )
    )
}

/// Whether SSA instruction `o` is a COPY from a physical register (its
/// destination is then a value of its own, checked where it is copied).
fn copy_from_phys(o: &InstData) -> bool {
    o.op.is_copy()
        && o.operands
            .get(1)
            .and_then(Operand::as_reg)
            .is_some_and(|r| matches!(r.reg, RegRef::Phys(_)))
}
