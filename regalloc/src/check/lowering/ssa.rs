//! What the SSA function says, read once for the lowering checker: the value of every virtual register (copies, `REG_SEQUENCE` and `INSERT_SUBREG` seen through), the PHIs of each block, and the value every read of a physical register finds.
//!
//! Physical registers are not in SSA form: their values come from a
//! forward dataflow over the SSA function, each unit holding the values
//! it is known to have; where the paths into a block bring different
//! values, the unit holds that block's implicit PHI ([`Kind::Merge`]),
//! applied on the lowered function's edges as the real PHIs are.

use std::collections::HashMap;

use crate::ir::{
    Block, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegRef, VReg,
};
use crate::target::{InstrFlags, RegUnit, TargetInfo};

use super::super::state::ValueSet;
use super::phys;
use super::values::{Kind, Val, Values};

/// One PHI: its register and, per predecessor, the value it takes.
pub(crate) struct Phi {
    pub dest: VReg,
    pub incoming: Vec<(Block, Val)>,
}

/// The facts of the SSA function.
pub(crate) struct Ssa<'c> {
    pub f: &'c MachineFunction,
    /// By instruction, the block holding it.
    pub block_of: Vec<Option<Block>>,
    /// By block, whether the entry reaches it.
    pub reachable: Vec<bool>,
    /// By virtual register, its value.
    pub canon: Vec<Val>,
    /// By block, its PHIs.
    pub phis: Vec<Vec<Phi>>,
    /// By (instruction, operand), what a read of a physical register finds.
    pub phys_reads: HashMap<(Inst, usize), ValueSet>,
    /// By block, what each unit holds at its end.
    pub out: Vec<Vec<ValueSet>>,
    /// By block, the units holding its implicit PHI on entry.
    pub merges: Vec<Vec<RegUnit>>,
}

/// Whether `d` computes its one register from nothing but its opcode and
/// operands (rematerializable, no memory, call, branch or side effect, no
/// register read but reserved or constant ones): two such instructions
/// alike compute the same value wherever they are.
pub(crate) fn is_constant(t: &TargetInfo<'_>, d: &InstData) -> bool {
    let Op::Target(op) = d.op else { return false };
    let Some(desc) = t.instrs.get(op.index()) else {
        return false;
    };
    let effects = [
        InstrFlags::MAY_LOAD,
        InstrFlags::MAY_STORE,
        InstrFlags::CALL,
        InstrFlags::TERMINATOR,
        InstrFlags::BRANCH,
        InstrFlags::SIDE_EFFECTS,
    ];
    if !desc.is(InstrFlags::REMAT) || effects.iter().any(|&f| desc.is(f)) {
        return false;
    }
    let regs = || d.operands.iter().filter_map(Operand::as_reg);
    let explicit_defs = regs().filter(|r| r.is_def() && !r.is_implicit()).count();
    let reads_only_fixed = regs().filter(|r| !r.is_def()).all(|r| match r.reg {
        RegRef::NoReg => true,
        RegRef::Virt(_) => false,
        RegRef::Phys(p) => {
            t.is_reserved(p)
                || t.regs
                    .get(p.index())
                    .is_some_and(|x| x.flags.contains(crate::target::RegFlags::CONSTANT))
        }
    });
    explicit_defs == 1 && reads_only_fixed
}

impl<'c> Ssa<'c> {
    /// Reads `f` (the SSA function) for target `t`, interning in `values`.
    pub fn new(t: &TargetInfo<'_>, f: &'c MachineFunction, values: &mut Values) -> Ssa<'c> {
        let mut block_of = vec![None; f.insts.len()];
        for b in f.block_ids() {
            for &i in &f.block(b).insts {
                if let Some(x) = block_of.get_mut(i.index()) {
                    *x = Some(b);
                }
            }
        }
        let mut ssa = Ssa {
            f,
            block_of,
            reachable: reachable(f),
            canon: Vec::new(),
            phis: Vec::new(),
            phys_reads: HashMap::new(),
            out: Vec::new(),
            merges: vec![Vec::new(); f.blocks.len()],
        };
        ssa.canon = canon_values(t, f, values);
        ssa.phis = f.block_ids().map(|b| ssa.phis_of(b, values)).collect();
        ssa.physical(t, values);
        ssa
    }

    /// The value a use operand reads (its sub-register applied).
    pub fn operand_value(&self, r: &crate::ir::RegOperand, values: &mut Values) -> Option<Val> {
        match r.reg {
            RegRef::Virt(v) if r.flags.has(RegFlags::UNDEF) => {
                let _ = v;
                Some(values.undef)
            }
            RegRef::Virt(v) => {
                let x = *self.canon.get(v.index())?;
                Some(values.sub(x, r.sub))
            }
            _ => None,
        }
    }

    fn phis_of(&self, b: Block, values: &mut Values) -> Vec<Phi> {
        let mut out = Vec::new();
        for &i in &self.f.block(b).insts {
            let d = self.f.inst(i);
            if d.op != Op::Generic(Generic::Phi) {
                continue;
            }
            let Some(RegRef::Virt(dest)) =
                d.operands.first().and_then(Operand::as_reg).map(|r| r.reg)
            else {
                continue;
            };
            let mut incoming = Vec::new();
            for pair in d.operands[1..].chunks(2) {
                if let [Operand::Reg(r), Operand::Block(p)] = pair
                    && let Some(x) = self.operand_value(r, values)
                    && !incoming.iter().any(|&(q, _)| q == *p)
                {
                    incoming.push((*p, x));
                }
            }
            out.push(Phi { dest, incoming });
        }
        out
    }

    /// The dataflow of physical registers over the SSA function.
    fn physical(&mut self, t: &TargetInfo<'_>, values: &mut Values) {
        let f = self.f;
        let n = f.blocks.len();
        let entry: Vec<ValueSet> = (0..t.units.len())
            .map(|u| ValueSet::single(values.intern(Kind::Entry(RegUnit::new(u)))))
            .collect();
        let mut outs: Vec<Option<Vec<ValueSet>>> = vec![None; n];
        let order = reverse_post_order(f);
        let mut budget = 64 * (n + 1) * (n + 1) + 1000;
        let mut changed = true;
        while changed && budget > 0 {
            changed = false;
            for &b in &order {
                budget = budget.saturating_sub(1);
                let mut units = self.block_entry(b, &outs, &entry, values);
                for &i in &f.block(b).insts {
                    self.step(t, i, &mut units, values, false);
                }
                if outs[b.index()].as_ref() != Some(&units) {
                    outs[b.index()] = Some(units);
                    changed = true;
                }
            }
        }
        for &b in &order {
            let mut units = self.block_entry(b, &outs, &entry, values);
            self.merges[b.index()] = (0..units.len())
                .map(RegUnit::new)
                .filter(|&u| {
                    let m = values.intern(Kind::Merge(b, u));
                    units[u.index()].contains(m)
                })
                .collect();
            for &i in &f.block(b).insts {
                self.step(t, i, &mut units, values, true);
            }
        }
        self.out = outs.into_iter().map(Option::unwrap_or_default).collect();
    }

    /// What the units hold on entry to `b`: the entry state for the
    /// entry block, else the meet of the predecessors' ends seen so far,
    /// a unit on which they disagree holding `b`'s implicit PHI.
    fn block_entry(
        &self,
        b: Block,
        outs: &[Option<Vec<ValueSet>>],
        entry: &[ValueSet],
        values: &mut Values,
    ) -> Vec<ValueSet> {
        if b.index() == 0 {
            return entry.to_vec();
        }
        let known: Vec<&Vec<ValueSet>> = self
            .f
            .block(b)
            .preds
            .iter()
            .filter_map(|p| outs.get(p.index()).and_then(Option::as_ref))
            .collect();
        let Some(first) = known.first() else {
            return vec![ValueSet::default(); entry.len()];
        };
        let mut units = (*first).clone();
        for (u, set) in units.iter_mut().enumerate() {
            for other in &known[1..] {
                set.intersect(&other[u]);
            }
            if set.is_empty() && known.len() > 1 && known.iter().all(|o| !o[u].is_empty()) {
                *set = ValueSet::single(values.intern(Kind::Merge(b, RegUnit::new(u))));
            }
        }
        units
    }

    /// One SSA instruction's effect on the physical registers; with
    /// `record`, the values its physical reads find are kept.
    fn step(
        &mut self,
        t: &TargetInfo<'_>,
        i: Inst,
        units: &mut [ValueSet],
        values: &mut Values,
        record: bool,
    ) {
        let d = self.f.inst(i);
        if d.op.is_debug() {
            return;
        }
        if record {
            for (k, r) in d.operands.iter().enumerate() {
                if let Some(r) = r.as_reg().filter(|r| !r.is_def())
                    && let Some(p) = phys::reg_of(t, r)
                {
                    self.phys_reads.insert((i, k), phys::read(t, units, p));
                }
            }
        }
        if d.op.is_copy()
            && let (Some(dst), Some(src)) = (
                d.operands.first().and_then(Operand::as_reg),
                d.operands.get(1).and_then(Operand::as_reg),
            )
            && let Some(p) = phys::reg_of(t, dst)
        {
            let set = match src.reg {
                RegRef::Virt(_) => self
                    .operand_value(src, values)
                    .map_or_else(ValueSet::default, ValueSet::single),
                RegRef::Phys(_) => {
                    phys::reg_of(t, src).map_or_else(ValueSet::default, |q| phys::read(t, units, q))
                }
                RegRef::NoReg => ValueSet::default(),
            };
            phys::write(t, units, p, &set);
            return;
        }
        phys::clobber_unnamed(t, d, units);
        for r in d.operands.iter().filter_map(Operand::as_reg) {
            if r.is_def()
                && let Some(p) = phys::reg_of(t, r)
            {
                let x = if d.op == Op::Generic(Generic::ImplicitDef) {
                    values.undef
                } else {
                    values.intern(Kind::Phys(i, p))
                };
                phys::write(t, units, p, &ValueSet::single(x));
            }
        }
    }
}

/// The value of every virtual register of `f`.
fn canon_values(t: &TargetInfo<'_>, f: &MachineFunction, values: &mut Values) -> Vec<Val> {
    let mut def_of: Vec<Option<Inst>> = vec![None; f.vregs.len()];
    let mut defs = vec![0u32; f.vregs.len()];
    for b in f.block_ids() {
        for &i in &f.block(b).insts {
            for r in f.inst(i).operands.iter().filter_map(Operand::as_reg) {
                if let (true, RegRef::Virt(v)) = (r.is_def(), r.reg)
                    && v.index() < def_of.len()
                {
                    def_of[v.index()].get_or_insert(i);
                    defs[v.index()] += 1;
                }
            }
        }
    }
    let mut canon: Vec<Option<Val>> = vec![None; f.vregs.len()];
    let mut busy = vec![false; f.vregs.len()];
    for v in 0..f.vregs.len() {
        let mut c = Canon {
            t,
            f,
            def_of: &def_of,
            defs: &defs,
            canon: &mut canon,
            busy: &mut busy,
        };
        c.of(VReg::new(v), values, 0);
    }
    canon
        .into_iter()
        .enumerate()
        .map(|(v, c)| c.unwrap_or_else(|| values.intern(Kind::Def(VReg::new(v)))))
        .collect()
}

/// The recursive computation of register values.
struct Canon<'a, 't> {
    t: &'a TargetInfo<'t>,
    f: &'a MachineFunction,
    def_of: &'a [Option<Inst>],
    defs: &'a [u32],
    canon: &'a mut Vec<Option<Val>>,
    busy: &'a mut Vec<bool>,
}

impl Canon<'_, '_> {
    fn of(&mut self, v: VReg, values: &mut Values, depth: usize) -> Val {
        if let Some(x) = self.canon[v.index()] {
            return x;
        }
        let own = values.intern(Kind::Def(v));
        if self.busy[v.index()] || depth > 200 || self.defs[v.index()] != 1 {
            return own;
        }
        let Some(i) = self.def_of[v.index()] else {
            return values.undef;
        };
        self.busy[v.index()] = true;
        let d = self.f.inst(i);
        let x = match d.op {
            Op::Generic(Generic::ImplicitDef) => values.undef,
            Op::Generic(Generic::Copy) => match d.operands.get(1).and_then(Operand::as_reg) {
                Some(r) if matches!(r.reg, RegRef::Virt(_)) => self.operand(r, values, depth),
                _ => own,
            },
            Op::Generic(Generic::RegSequence) => {
                let mut x = values.undef;
                for pair in d.operands[1..].chunks(2) {
                    if let [Operand::Reg(r), Operand::SubRegIndex(idx)] = pair {
                        let part = self.operand(r, values, depth);
                        x = values.compose(x, *idx, part);
                    }
                }
                x
            }
            Op::Generic(Generic::InsertSubreg) => match &d.operands[..] {
                [
                    _,
                    Operand::Reg(base),
                    Operand::Reg(part),
                    Operand::SubRegIndex(idx),
                ] => {
                    let b = self.operand(base, values, depth);
                    let p = self.operand(part, values, depth);
                    values.compose(b, *idx, p)
                }
                _ => own,
            },
            _ if is_constant(self.t, d) => values.constant(d.op, &d.operands),
            _ => own,
        };
        self.busy[v.index()] = false;
        self.canon[v.index()] = Some(x);
        x
    }

    fn operand(&mut self, r: &crate::ir::RegOperand, values: &mut Values, depth: usize) -> Val {
        match r.reg {
            RegRef::Virt(_) if r.flags.has(RegFlags::UNDEF) => values.undef,
            RegRef::Virt(w) if w.index() < self.canon.len() => {
                let x = self.of(w, values, depth + 1);
                values.sub(x, r.sub)
            }
            _ => values.undef,
        }
    }
}

/// By block, whether the entry reaches it.
fn reachable(f: &MachineFunction) -> Vec<bool> {
    let mut seen = vec![false; f.blocks.len()];
    if f.blocks.is_empty() {
        return seen;
    }
    let mut stack = vec![Block::new(0)];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        for s in &f.block(b).succs {
            if s.block.index() < seen.len() && !std::mem::replace(&mut seen[s.block.index()], true)
            {
                stack.push(s.block);
            }
        }
    }
    seen
}

/// The blocks the entry reaches, in reverse post-order.
pub(crate) fn reverse_post_order(f: &MachineFunction) -> Vec<Block> {
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    if n == 0 {
        return post;
    }
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(s) = f.blocks[b].succs.get(*next) {
            *next += 1;
            let s = s.block.index();
            if s < n && !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(Block::new(b));
            stack.pop();
        }
    }
    post.reverse();
    post
}
