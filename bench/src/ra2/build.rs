//! The conversion of an SSA-form `MachineFunction` into a regalloc2 `Function` (see `README.md` beside this file for every approximation).
//!
//! Two passes over the reachable blocks. The first decides what happens to
//! physical registers and copies: virtual-to-virtual COPYs (and
//! `SUBREG_TO_REG`) in one register file become aliases (regalloc2 wants
//! copy-free SSA); a COPY into a physical register is folded into a fixed
//! use at the instruction that reads the register; a COPY out of one is
//! folded into a fixed def at the instruction that wrote it (or at a
//! synthetic argument instruction at the top of the entry block for
//! function live-ins); physical definitions nobody reads, and registers a
//! call's mask does not preserve, become clobbers. The second pass emits
//! blocks, instructions and operands: PHIs become block parameters and
//! branch arguments on a synthetic branch ending each block, critical edges
//! are split with new blocks, ties become `Reuse` constraints,
//! early-clobbers early defs.

use std::collections::HashMap;

use regalloc::inspect::FlowAnalyses;
use regalloc::ir::{
    self, Generic, MachineFunction, Op, Operand as MOperand, RegFlags, RegOperand, RegRef,
};
use regalloc::target::TargetInfo;
use regalloc2::{
    Block, Inst, InstRange, Operand, OperandConstraint, OperandKind, OperandPos, PReg, PRegSet,
    RegClass as Ra2Class, VReg,
};

use super::files::{RegFiles, class_index};
use super::{Approximations, Ra2Function};

/// What regalloc2 sees of an instruction.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum InstKind {
    /// An ordinary instruction (MIR instructions, the argument pseudo).
    Normal,
    /// The synthetic branch that ends a block with successors.
    Branch,
    /// The synthetic return that ends a block without successors.
    Ret,
}

/// One regalloc2 instruction.
#[derive(Clone, Debug)]
pub struct InstInfo {
    /// Branch, return or neither.
    pub kind: InstKind,
    /// The regalloc2 block holding it.
    pub block: u32,
    /// The MIR instruction it stands for, if any.
    pub origin: Option<ir::Inst>,
    /// An original COPY kept as an instruction (operands 0 and 1 are its
    /// destination and source): it is left in the code when they differ.
    pub kept_copy: bool,
}

/// One regalloc2 block.
#[derive(Clone, Debug)]
pub struct BlockInfo {
    /// Its instructions.
    pub range: InstRange,
    /// Successors.
    pub succs: Vec<Block>,
    /// Predecessors.
    pub preds: Vec<Block>,
    /// Block parameters (the PHIs).
    pub params: Vec<VReg>,
    /// Per successor, the arguments its branch passes.
    pub args: Vec<Vec<VReg>>,
    /// The MIR block, or `None` for a block that splits a critical edge.
    pub mir: Option<ir::Block>,
    /// Execution frequency relative to the entry block.
    pub weight: f64,
}

/// A physical register's content while walking a block.
#[derive(Copy, Clone, Debug)]
enum PhysVal {
    /// Holds this value.
    Value(u32),
    /// Written by the instruction of plan `.0` and not read yet.
    Pending(usize, bool),
}

/// What pass 1 decided for one instruction.
#[derive(Clone, Debug, Default)]
struct Plan {
    /// The instruction is a folded copy: no operands.
    fold: bool,
    /// Fixed uses: register, value.
    fixed_uses: Vec<(PReg, u32)>,
    /// Fixed defs: register, value, early.
    fixed_defs: Vec<(PReg, u32, bool)>,
    /// Physical registers written (clobbers unless a fixed def).
    phys_defs: Vec<PReg>,
    /// Registers a register mask clobbers.
    mask: PRegSet,
}

/// Values are MIR virtual registers (`0..n`) and synthetic values for
/// physical registers (`n..`); this holds both, with aliases.
struct Values {
    parent: Vec<u32>,
    class: Vec<Option<Ra2Class>>,
}

impl Values {
    fn find(&self, mut v: u32) -> Result<u32, String> {
        for _ in 0..self.parent.len() + 1 {
            let p = self.parent[v as usize];
            if p == v {
                return Ok(v);
            }
            v = p;
        }
        Err(format!("copies form a cycle through %{v}"))
    }

    fn fresh(&mut self, c: Ra2Class) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.class.push(Some(c));
        id
    }
}

fn virt(r: &RegOperand) -> Option<ir::VReg> {
    match r.reg {
        RegRef::Virt(v) => Some(v),
        _ => None,
    }
}

fn is_debug(op: Op) -> bool {
    matches!(
        op,
        Op::Generic(
            Generic::DbgValue
                | Generic::DbgValueList
                | Generic::DbgInstrRef
                | Generic::DbgPhi
                | Generic::DbgLabel
        )
    )
}

/// Converts `func` (SSA form, PHIs present) for `files`. An error says why
/// regalloc2 cannot express it.
pub fn convert(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    files: &RegFiles,
) -> Result<Ra2Function, String> {
    let mut func_preds = func.clone();
    func_preds.compute_preds();
    let func = &func_preds;
    let nb = func.blocks.len();
    if nb == 0 {
        return Err("the function has no blocks".into());
    }
    if !func.block(ir::Block::new(0)).preds.is_empty() {
        return Err("the entry block has predecessors".into());
    }
    // Reachable blocks, in layout order.
    let mut reach = vec![false; nb];
    let mut stack = vec![0usize];
    reach[0] = true;
    while let Some(b) = stack.pop() {
        for s in &func.blocks[b].succs {
            let s = s.block.index();
            if s < nb && !reach[s] {
                reach[s] = true;
                stack.push(s);
            }
        }
    }
    let order: Vec<usize> = (0..nb).filter(|&b| reach[b]).collect();
    let mut ra2_of = vec![u32::MAX; nb];
    for (k, &b) in order.iter().enumerate() {
        ra2_of[b] = k as u32;
    }
    let mut approx = Approximations::default();

    // Values and their classes; SSA check.
    let nv = func.vregs.len();
    let mut values = Values {
        parent: (0..nv as u32).collect(),
        class: func
            .vregs
            .iter()
            .map(|d| d.class.and_then(|c| files.class(c)))
            .collect(),
    };
    let mut defs = vec![0u32; nv];
    for &b in &order {
        for &i in &func.blocks[b].insts {
            for op in &func.inst(i).operands {
                if let MOperand::Reg(r) = op
                    && r.is_def()
                    && let Some(v) = virt(r)
                {
                    defs[v.index()] += 1;
                }
            }
        }
    }
    if let Some(v) = defs.iter().position(|&d| d > 1) {
        return Err(format!(
            "not in SSA form: %{v} is defined {} times (partial sub-register definitions)",
            defs[v]
        ));
    }
    let class_of = |values: &Values, v: u32| values.class.get(v as usize).copied().flatten();

    // Pass 1a: copies between virtual registers of one file become aliases.
    for &b in &order {
        for &i in &func.blocks[b].insts {
            let inst = func.inst(i);
            let (d, s) = match inst.op {
                Op::Generic(Generic::Copy) => (inst.operands.first(), inst.operands.get(1)),
                Op::Generic(Generic::SubregToReg) => (inst.operands.first(), inst.operands.get(2)),
                _ => continue,
            };
            let (Some(MOperand::Reg(d)), Some(MOperand::Reg(s))) = (d, s) else {
                continue;
            };
            if let (Some(dv), Some(sv)) = (virt(d), virt(s))
                && d.is_def()
                && !s.is_def()
                && !s.flags.has(RegFlags::UNDEF)
                && dv != sv
            {
                let (dc, sc) = (class_of(&values, dv.0), class_of(&values, sv.0));
                if dc.is_some() && dc == sc {
                    values.parent[dv.index()] = sv.0;
                    approx.copies_aliased += 1;
                    if d.sub.is_some() || s.sub.is_some() {
                        approx.sub_register_operands += 1;
                    }
                }
            }
        }
    }

    // Pass 1b: physical registers, block by block.
    let ni = func.insts.len();
    let args_plan = ni; // the synthetic argument instruction's plan
    let mut plans: Vec<Plan> = vec![Plan::default(); ni + 1];
    let single = |r: regalloc::target::Reg| -> Option<PReg> {
        let p = files.pregs(t, r);
        (p.len() == 1).then(|| p[0])
    };
    for &b in &order {
        let mut phys: HashMap<PReg, PhysVal> = HashMap::new();
        if b == 0 {
            let live = func
                .live_ins
                .iter()
                .map(|l| l.reg)
                .chain(func.blocks[0].live_ins.iter().map(|l| l.reg));
            for r in live {
                for p in files.pregs(t, r) {
                    phys.insert(p, PhysVal::Pending(args_plan, false));
                    if !plans[args_plan].phys_defs.contains(&p) {
                        plans[args_plan].phys_defs.push(p);
                    }
                }
            }
        } else if func.blocks[b]
            .live_ins
            .iter()
            .any(|l| !files.pregs(t, l.reg).is_empty())
        {
            approx.phys_live_across_blocks += 1;
        }
        // Reads the value in `p`, materializing a pending definition.
        let read = |phys: &mut HashMap<PReg, PhysVal>,
                    plans: &mut Vec<Plan>,
                    values: &mut Values,
                    p: PReg|
         -> Option<u32> {
            match phys.get(&p).copied()? {
                PhysVal::Value(v) => Some(v),
                PhysVal::Pending(plan, early) => {
                    let v = match plans[plan].fixed_defs.iter().find(|d| d.0 == p) {
                        Some(d) => d.1,
                        None => {
                            let v = values.fresh(p.class());
                            plans[plan].fixed_defs.push((p, v, early));
                            v
                        }
                    };
                    phys.insert(p, PhysVal::Value(v));
                    Some(v)
                }
            }
        };
        for &i in &func.blocks[b].insts {
            let inst = func.inst(i);
            if is_debug(inst.op) || inst.op == Op::Generic(Generic::Phi) {
                continue;
            }
            let k = i.index();
            if inst.op.is_copy()
                && let (Some(MOperand::Reg(d)), Some(MOperand::Reg(s))) =
                    (inst.operands.first(), inst.operands.get(1))
                && d.is_def()
                && !s.flags.has(RegFlags::UNDEF)
            {
                match (d.reg, s.reg) {
                    (RegRef::Phys(dr), RegRef::Virt(sv)) => {
                        if let Some(p) = single(dr)
                            && class_of(&values, sv.0) == Some(p.class())
                        {
                            phys.insert(p, PhysVal::Value(sv.0));
                            plans[k].fold = true;
                            continue;
                        }
                    }
                    (RegRef::Virt(dv), RegRef::Phys(sr)) => {
                        if let Some(p) = single(sr)
                            && class_of(&values, dv.0) == Some(p.class())
                        {
                            match phys.get(&p).copied() {
                                Some(PhysVal::Value(w)) => {
                                    values.parent[dv.index()] = w;
                                    plans[k].fold = true;
                                    approx.copies_aliased += 1;
                                    continue;
                                }
                                Some(PhysVal::Pending(plan, early)) => {
                                    if let Some(&(_, w, _)) =
                                        plans[plan].fixed_defs.iter().find(|x| x.0 == p)
                                    {
                                        values.parent[dv.index()] = w;
                                    } else {
                                        plans[plan].fixed_defs.push((p, dv.0, early));
                                    }
                                    phys.insert(p, PhysVal::Value(values.find(dv.0)?));
                                    plans[k].fold = true;
                                    continue;
                                }
                                None => {}
                            }
                        }
                    }
                    (RegRef::Phys(dr), RegRef::Phys(sr)) => {
                        if let (Some(pd), Some(ps)) = (single(dr), single(sr))
                            && pd.class() == ps.class()
                        {
                            match read(&mut phys, &mut plans, &mut values, ps) {
                                Some(v) => phys.insert(pd, PhysVal::Value(v)),
                                None => phys.remove(&pd),
                            };
                            plans[k].fold = true;
                            continue;
                        }
                    }
                    (RegRef::Virt(dv), RegRef::Virt(sv))
                        if values.parent[dv.index()] != dv.0 || dv == sv =>
                    {
                        plans[k].fold = true;
                        continue;
                    }
                    _ => {}
                }
            }
            if inst.op == Op::Generic(Generic::SubregToReg)
                && let Some(MOperand::Reg(d)) = inst.operands.first()
                && let Some(dv) = virt(d)
                && values.parent[dv.index()] != dv.0
            {
                plans[k].fold = true;
                continue;
            }
            // Uses first, then the mask, then definitions.
            for op in &inst.operands {
                let MOperand::Reg(r) = op else { continue };
                let RegRef::Phys(pr) = r.reg else { continue };
                if r.is_def() || r.flags.has(RegFlags::UNDEF) {
                    continue;
                }
                for p in files.pregs(t, pr) {
                    if plans[k].fixed_uses.iter().any(|u| u.0 == p) {
                        continue;
                    }
                    match read(&mut phys, &mut plans, &mut values, p) {
                        Some(v) => plans[k].fixed_uses.push((p, v)),
                        None => approx.unknown_phys_reads += 1,
                    }
                }
            }
            for op in &inst.operands {
                if let MOperand::RegMask(m) = op {
                    let c = files.mask_clobbers(t, m);
                    plans[k].mask.union_from(c);
                    for p in c {
                        phys.remove(&p);
                    }
                }
            }
            for op in &inst.operands {
                let MOperand::Reg(r) = op else { continue };
                let RegRef::Phys(pr) = r.reg else { continue };
                if !r.is_def() {
                    continue;
                }
                let early = r.flags.has(RegFlags::EARLY_CLOBBER);
                for p in files.pregs(t, pr) {
                    if !plans[k].phys_defs.contains(&p) {
                        plans[k].phys_defs.push(p);
                    }
                    phys.insert(p, PhysVal::Pending(k, early));
                }
            }
        }
    }

    // Pass 2: emission.
    let flow = FlowAnalyses::new(func);
    let mut out = Ra2Function {
        insts: Vec::new(),
        operands: Vec::new(),
        op_start: Vec::new(),
        clobbers: Vec::new(),
        blocks: Vec::new(),
        vreg_class: Vec::new(),
        slot_units: files.slot_units,
        approx: Approximations::default(),
        mir_insts: func.inst_ids().count(),
    };
    let mut vreg_of: HashMap<u32, VReg> = HashMap::new();
    // Values standing for undefined PHI inputs, by (predecessor, PHI).
    let mut undef_in: HashMap<(usize, ir::Inst), u32> = HashMap::new();
    let mut vreg = |out: &mut Ra2Function, values: &Values, v: u32| -> Result<VReg, String> {
        let root = values.find(v)?;
        if let Some(&r) = vreg_of.get(&root) {
            return Ok(r);
        }
        let c = values.class[root as usize].ok_or_else(|| {
            format!("%{v} has a register class outside the function's register files")
        })?;
        let r = VReg::new(out.vreg_class.len(), c);
        out.vreg_class.push(c);
        vreg_of.insert(root, r);
        Ok(r)
    };
    let desc_of = |op: Op| match op {
        Op::Target(o) => t.instrs.get(o.index()),
        Op::Generic(_) | Op::Unknown(_) => None,
    };
    for (bk, &b) in order.iter().enumerate() {
        let start = out.insts.len();
        let block = ir::Block::new(b);
        let mut params = Vec::new();
        let mut plan_list: Vec<(Option<ir::Inst>, usize)> = Vec::new();
        if b == 0 {
            plan_list.push((None, args_plan));
        }
        for &i in &func.blocks[b].insts {
            let inst = func.inst(i);
            if inst.op == Op::Generic(Generic::Phi) {
                let Some(MOperand::Reg(d)) = inst.operands.first() else {
                    return Err("a PHI without a definition".into());
                };
                let Some(dv) = virt(d) else {
                    return Err("a PHI defines a physical register".into());
                };
                params.push(vreg(&mut out, &values, dv.0)?);
                continue;
            }
            if is_debug(inst.op) {
                continue;
            }
            plan_list.push((Some(i), i.index()));
        }
        for (origin, pk) in plan_list {
            let plan = &plans[pk];
            let mut ops: Vec<Operand> = Vec::new();
            let mut kept_copy = false;
            if !plan.fold
                && let Some(i) = origin
            {
                let inst = func.inst(i);
                let desc = desc_of(inst.op);
                kept_copy = inst.op.is_copy();
                // MIR operand index -> regalloc2 operand index.
                let mut at: Vec<Option<usize>> = vec![None; inst.operands.len()];
                for (m, op) in inst.operands.iter().enumerate() {
                    let MOperand::Reg(r) = op else { continue };
                    let Some(v) = virt(r) else { continue };
                    if r.sub.is_some() {
                        out.approx.sub_register_operands += 1;
                    }
                    if r.is_def() {
                        let early = r.flags.has(RegFlags::EARLY_CLOBBER)
                            || desc
                                .and_then(|d| d.operands.get(m))
                                .is_some_and(|o| o.early_clobber);
                        let pos = if early {
                            OperandPos::Early
                        } else {
                            OperandPos::Late
                        };
                        let vr = vreg(&mut out, &values, v.0)?;
                        at[m] = Some(ops.len());
                        ops.push(Operand::new(
                            vr,
                            OperandConstraint::Reg,
                            OperandKind::Def,
                            pos,
                        ));
                    } else if r.flags.has(RegFlags::UNDEF) {
                        out.approx.undef_uses += 1;
                    } else {
                        let vr = vreg(&mut out, &values, v.0)?;
                        at[m] = Some(ops.len());
                        ops.push(Operand::new(
                            vr,
                            OperandConstraint::Reg,
                            OperandKind::Use,
                            OperandPos::Early,
                        ));
                    }
                }
                // Ties: a use tied to a definition makes the def reuse it.
                for (m, op) in inst.operands.iter().enumerate() {
                    let MOperand::Reg(u) = op else { continue };
                    if u.is_def() {
                        continue;
                    }
                    let tied = u
                        .tied_to
                        .map(usize::from)
                        .or_else(|| desc.and_then(|d| d.tied_to(m)))
                        .or_else(|| {
                            (inst.op == Op::Generic(Generic::InsertSubreg) && m == 1).then_some(0)
                        });
                    let Some(d) = tied else { continue };
                    match (at.get(d).copied().flatten(), at[m]) {
                        (Some(di), Some(ui))
                            if ops[di].vreg() != ops[ui].vreg()
                                && ops[di].class() == ops[ui].class()
                                && ops[di].pos() == OperandPos::Late
                                && ops[di].constraint() == OperandConstraint::Reg =>
                        {
                            let dv = ops[di].vreg();
                            ops[di] = Operand::new(
                                dv,
                                OperandConstraint::Reuse(ui),
                                OperandKind::Def,
                                OperandPos::Late,
                            );
                        }
                        _ => out.approx.ties_dropped += 1,
                    }
                }
            }
            let mut clobbers = plan.mask;
            for &p in &plan.phys_defs {
                clobbers.add(p);
            }
            for &(p, v) in &plan.fixed_uses {
                let vr = vreg(&mut out, &values, v)?;
                ops.push(Operand::reg_fixed_use(vr, p));
            }
            for &(p, v, early) in &plan.fixed_defs {
                let vr = vreg(&mut out, &values, v)?;
                ops.push(if early {
                    Operand::reg_fixed_def_at_start(vr, p)
                } else {
                    Operand::reg_fixed_def(vr, p)
                });
                clobbers.remove(p);
            }
            if kept_copy && !(ops.len() >= 2 && ops[0].kind() == OperandKind::Def) {
                kept_copy = false;
            }
            out.push_inst(
                InstInfo {
                    kind: InstKind::Normal,
                    block: bk as u32,
                    origin,
                    kept_copy,
                },
                ops,
                clobbers,
            );
        }
        let mut succs: Vec<usize> = Vec::new();
        for s in &func.blocks[b].succs {
            let s = s.block.index();
            if !succs.contains(&s) {
                succs.push(s);
            }
        }
        // Undefined PHI inputs from this block get a value defined here.
        let mut undef_defs = Vec::new();
        for &sb in &succs {
            for &i in &func.blocks[sb].insts {
                let inst = func.inst(i);
                if inst.op != Op::Generic(Generic::Phi) {
                    continue;
                }
                let class = match inst.operands.first() {
                    Some(MOperand::Reg(d)) => virt(d).and_then(|v| class_of(&values, v.0)),
                    _ => None,
                };
                for pair in inst.operands[1..].chunks(2) {
                    if let [MOperand::Reg(v), MOperand::Block(from)] = pair
                        && from.index() == b
                        && v.flags.has(RegFlags::UNDEF)
                        && let Some(c) = class
                    {
                        let id = values.fresh(c);
                        undef_in.insert((b, i), id);
                        let vr = vreg(&mut out, &values, id)?;
                        undef_defs.push(Operand::new(
                            vr,
                            OperandConstraint::Reg,
                            OperandKind::Def,
                            OperandPos::Late,
                        ));
                        out.approx.undef_phi_inputs += 1;
                    }
                }
            }
        }
        if !undef_defs.is_empty() {
            out.push_inst(
                InstInfo {
                    kind: InstKind::Normal,
                    block: bk as u32,
                    origin: None,
                    kept_copy: false,
                },
                undef_defs,
                PRegSet::empty(),
            );
        }
        // The synthetic terminator.
        let kind = if succs.is_empty() {
            InstKind::Ret
        } else {
            InstKind::Branch
        };
        out.push_inst(
            InstInfo {
                kind,
                block: bk as u32,
                origin: None,
                kept_copy: false,
            },
            Vec::new(),
            PRegSet::empty(),
        );
        out.blocks.push(BlockInfo {
            range: InstRange::new(Inst::new(start), Inst::new(out.insts.len())),
            succs: succs
                .iter()
                .map(|&s| Block::new(ra2_of[s] as usize))
                .collect(),
            preds: Vec::new(),
            params,
            args: Vec::new(),
            mir: Some(block),
            weight: f64::from(flow.freq.relative(block)),
        });
    }
    // Branch arguments from the PHIs of each successor.
    for bk in 0..out.blocks.len() {
        let b = order[bk];
        let mut args = Vec::new();
        for &s in &out.blocks[bk].succs.clone() {
            let sb = order[s.index()];
            let mut a = Vec::new();
            for &i in &func.blocks[sb].insts {
                let inst = func.inst(i);
                if inst.op != Op::Generic(Generic::Phi) {
                    continue;
                }
                let mut found = None;
                for pair in inst.operands[1..].chunks(2) {
                    if let [MOperand::Reg(v), MOperand::Block(from)] = pair
                        && from.index() == b
                    {
                        found = Some(v);
                        break;
                    }
                }
                let Some(v) = found else {
                    return Err(format!(
                        "a PHI in bb.{sb} has no value for its predecessor bb.{b}"
                    ));
                };
                let Some(vv) = virt(v) else {
                    return Err(format!("a PHI in bb.{sb} takes a physical register"));
                };
                if v.sub.is_some() {
                    out.approx.sub_register_operands += 1;
                }
                let id = if v.flags.has(RegFlags::UNDEF) {
                    undef_in.get(&(b, i)).copied().ok_or_else(|| {
                        format!("a PHI in bb.{sb} takes an undefined value of no known class")
                    })?
                } else {
                    vv.0
                };
                a.push(vreg(&mut out, &values, id)?);
            }
            let params = &out.blocks[s.index()].params;
            if a.len() != params.len() || a.iter().zip(params).any(|(x, y)| x.class() != y.class())
            {
                return Err(format!(
                    "the PHIs of bb.{sb} do not match their values from bb.{b} in number or class"
                ));
            }
            args.push(a);
        }
        out.blocks[bk].args = args;
    }
    // Split critical edges.
    let mut npreds = vec![0usize; out.blocks.len()];
    npreds[0] = 1;
    for b in &out.blocks {
        for s in &b.succs {
            npreds[s.index()] += 1;
        }
    }
    let original = out.blocks.len();
    // Blocks are appended (edge splits) while the original ones are walked.
    #[allow(clippy::needless_range_loop)]
    for bk in 0..original {
        if out.blocks[bk].succs.len() < 2 {
            continue;
        }
        for k in 0..out.blocks[bk].succs.len() {
            let s = out.blocks[bk].succs[k];
            if npreds[s.index()] < 2 {
                continue;
            }
            let e = out.blocks.len();
            let start = out.insts.len();
            out.push_inst(
                InstInfo {
                    kind: InstKind::Branch,
                    block: e as u32,
                    origin: None,
                    kept_copy: false,
                },
                Vec::new(),
                PRegSet::empty(),
            );
            let args = std::mem::take(&mut out.blocks[bk].args[k]);
            let mb = order[bk];
            let msucc = &func.blocks[mb].succs;
            let prob = msucc
                .iter()
                .find(|x| ra2_of[x.block.index()] as usize == s.index())
                .and_then(|x| x.prob)
                .map_or(1.0 / msucc.len().max(1) as f64, |p| {
                    f64::from(p) / f64::from(1u32 << 31)
                });
            let weight = out.blocks[bk].weight * prob;
            out.blocks.push(BlockInfo {
                range: InstRange::new(Inst::new(start), Inst::new(start + 1)),
                succs: vec![s],
                preds: Vec::new(),
                params: Vec::new(),
                args: vec![args],
                mir: None,
                weight,
            });
            out.blocks[bk].succs[k] = Block::new(e);
            out.approx.edges_split += 1;
        }
    }
    for bk in 0..out.blocks.len() {
        for k in 0..out.blocks[bk].succs.len() {
            let s = out.blocks[bk].succs[k].index();
            out.blocks[s].preds.push(Block::new(bk));
        }
    }
    reorder_rpo(&mut out);
    out.approx.copies_aliased += approx.copies_aliased;
    out.approx.sub_register_operands += approx.sub_register_operands;
    out.approx.unknown_phys_reads = approx.unknown_phys_reads;
    out.approx.phys_live_across_blocks = approx.phys_live_across_blocks;
    let _ = class_index;
    Ok(out)
}

/// Puts the blocks in reverse postorder (edge blocks land beside their
/// edges). regalloc2's checker starts its dataflow in block order and
/// needs every block after one of its predecessors; the allocators do not
/// care.
fn reorder_rpo(f: &mut Ra2Function) {
    let n = f.blocks.len();
    let mut post = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (b, ref mut k)) = stack.last_mut() {
        if let Some(s) = f.blocks[b].succs.get(*k) {
            *k += 1;
            let s = s.index();
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    // Unreachable blocks (none are built) would keep their relative order.
    for (b, &s) in seen.iter().enumerate() {
        if !s {
            post.insert(0, b);
        }
    }
    let order: Vec<usize> = post.into_iter().rev().collect();
    let mut new_of = vec![0usize; n];
    for (k, &b) in order.iter().enumerate() {
        new_of[b] = k;
    }
    let old_blocks = std::mem::take(&mut f.blocks);
    let old_insts = std::mem::take(&mut f.insts);
    let old_ops = std::mem::take(&mut f.operands);
    let old_start = std::mem::take(&mut f.op_start);
    let old_clob = std::mem::take(&mut f.clobbers);
    let ops_of = |i: usize| {
        let s = old_start[i] as usize;
        let e = old_start.get(i + 1).map_or(old_ops.len(), |&e| e as usize);
        &old_ops[s..e]
    };
    let mut blocks = Vec::with_capacity(n);
    for (k, &b) in order.iter().enumerate() {
        let ob = &old_blocks[b];
        let start = f.insts.len();
        for i in ob.range.iter() {
            let mut info = old_insts[i.index()].clone();
            info.block = k as u32;
            f.push_inst(info, ops_of(i.index()).to_vec(), old_clob[i.index()]);
        }
        let mut nb = ob.clone();
        nb.range = InstRange::new(Inst::new(start), Inst::new(f.insts.len()));
        nb.succs = ob
            .succs
            .iter()
            .map(|s| Block::new(new_of[s.index()]))
            .collect();
        nb.preds = ob
            .preds
            .iter()
            .map(|p| Block::new(new_of[p.index()]))
            .collect();
        blocks.push(nb);
    }
    f.blocks = blocks;
}
