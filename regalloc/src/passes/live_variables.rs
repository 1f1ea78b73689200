//! `livevars`: LLVM's LiveVariables. Recomputes the `killed` and `dead` flags of an SSA function and keeps, per virtual register, the blocks it is live through and the instructions that kill it.
//!
//! Blocks are visited depth-first from the entry (a definition is seen
//! before its uses, PHI uses excepted: a PHI's input is live to the end of
//! its predecessor). A virtual register's last use in a block that no
//! successor needs it in is a kill; a definition never read is dead.
//! Physical registers are followed within a block, sub- and
//! super-registers included, as LLVM's `HandlePhysRegUse`,
//! `HandlePhysRegDef` and `HandlePhysRegKill` follow them (a partial
//! definition may gain `implicit-def` operands, a kill of a wider
//! register replaces the kills of its parts); reserved registers are left
//! alone; registers live into a successor and not allocatable stay live.

use crate::alloc::order::function_reserved;
use crate::error::AllocError;
use crate::ir::{
    Block, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegMask, RegOperand,
    RegRef, VReg,
};
use crate::target::{Reg, TargetInfo};

use super::edit::is_debug;

/// What LLVM's `LiveVariables::VarInfo` holds for one virtual register.
#[derive(Clone, Debug, Default)]
pub struct VarInfo {
    /// Blocks the register is live through or live into without being
    /// killed there (by block number).
    pub alive_blocks: Vec<bool>,
    /// The instructions that kill it (or define it dead), at most one per
    /// block.
    pub kills: Vec<Inst>,
}

impl VarInfo {
    /// Whether the register is live through block `b`.
    pub fn alive_in(&self, b: Block) -> bool {
        self.alive_blocks.get(b.index()).copied().unwrap_or(false)
    }

    /// Marks the register live through (or not) block `b`.
    pub fn set_alive(&mut self, b: Block, on: bool) {
        if self.alive_blocks.len() <= b.index() {
            self.alive_blocks.resize(b.index() + 1, false);
        }
        self.alive_blocks[b.index()] = on;
    }

    /// Whether it is live through no block.
    fn alive_nowhere(&self) -> bool {
        !self.alive_blocks.iter().any(|&a| a)
    }

    /// Forgets `i` as a kill; whether it was one.
    pub fn remove_kill(&mut self, i: Inst) -> bool {
        match self.kills.iter().position(|&k| k == i) {
            Some(p) => {
                self.kills.remove(p);
                true
            }
            None => false,
        }
    }
}

/// The facts `livevars` leaves for the passes after it.
#[derive(Clone, Debug, Default)]
pub struct LiveVariables {
    /// By virtual register.
    pub vars: Vec<VarInfo>,
    /// The block of each placed instruction, by instruction.
    pub block_of: Vec<Option<Block>>,
    /// The defining instruction of each virtual register.
    pub def_of: Vec<Option<Inst>>,
}

impl LiveVariables {
    /// The facts of `v`, made on first use (a register created later).
    pub fn var(&mut self, v: VReg) -> &mut VarInfo {
        if self.vars.len() <= v.index() {
            self.vars.resize(v.index() + 1, VarInfo::default());
        }
        &mut self.vars[v.index()]
    }

    /// Records that `i` is placed in block `b`.
    pub fn placed(&mut self, i: Inst, b: Option<Block>) {
        if self.block_of.len() <= i.index() {
            self.block_of.resize(i.index() + 1, None);
        }
        self.block_of[i.index()] = b;
    }

    fn block(&self, i: Inst) -> Option<Block> {
        self.block_of.get(i.index()).copied().flatten()
    }

    /// The facts a function's `killed` and `dead` flags give: each
    /// virtual register's kills are the instructions reading it `killed`
    /// or defining it `dead` (LLVM keeps the two in step), and no block
    /// is known to be live through. Enough for the passes that only ask
    /// where a register dies (two-address lowering), on code `livevars`
    /// already flagged.
    pub fn from_flags(func: &MachineFunction) -> LiveVariables {
        let mut lv = LiveVariables {
            vars: vec![VarInfo::default(); func.vregs.len()],
            block_of: super::process_implicit_defs::block_of_insts(func),
            def_of: defs_of(func),
        };
        for b in func.block_ids() {
            for &i in &func.block(b).insts {
                for o in &func.inst(i).operands {
                    let Some(r) = o.as_reg() else { continue };
                    let RegRef::Virt(v) = r.reg else { continue };
                    let flag = if r.is_def() {
                        RegFlags::DEAD
                    } else {
                        RegFlags::KILLED
                    };
                    if r.flags.has(flag) && !lv.var(v).kills.contains(&i) {
                        lv.var(v).kills.push(i);
                    }
                }
            }
        }
        lv
    }

    /// The instruction of block `b` that kills `v` (LLVM's
    /// `VarInfo::findKill`).
    pub fn find_kill(&mut self, v: VReg, b: Block) -> Option<Inst> {
        self.var(v);
        self.vars[v.index()]
            .kills
            .iter()
            .copied()
            .find(|&k| self.block(k) == Some(b))
    }

    /// Whether `v` is live out of block `b` (LLVM's `isLiveOut`: live
    /// through a successor or killed in one).
    pub fn is_live_out(&mut self, func: &MachineFunction, v: VReg, b: Block) -> bool {
        self.var(v);
        let kill_blocks: Vec<Option<Block>> = self.vars[v.index()]
            .kills
            .iter()
            .map(|&k| self.block(k))
            .collect();
        func.block(b)
            .succs
            .iter()
            .any(|s| self.vars[v.index()].alive_in(s.block) || kill_blocks.contains(&Some(s.block)))
    }

    /// Whether `v` is live into block `b` (LLVM's `isLiveIn`).
    pub fn is_live_in(&mut self, v: VReg, b: Block) -> bool {
        if self.var(v).alive_in(b) {
            return true;
        }
        let def_block = self
            .def_of
            .get(v.index())
            .copied()
            .flatten()
            .and_then(|d| self.block(d));
        if def_block == Some(b) {
            return false;
        }
        let kills = self.vars[v.index()].kills.clone();
        kills.iter().any(|&k| self.block(k) == Some(b))
    }

    /// Marks `v` killed at `i` (LLVM's `addVirtualRegisterKilled`).
    pub fn add_killed(&mut self, t: &TargetInfo<'_>, func: &mut MachineFunction, v: VReg, i: Inst) {
        if add_register_killed(t, func.inst_mut(i), RegRef::Virt(v), false) {
            self.var(v).kills.push(i);
        }
    }

    /// Marks `v` defined dead at `i` (LLVM's `addVirtualRegisterDead`).
    pub fn add_dead(&mut self, t: &TargetInfo<'_>, func: &mut MachineFunction, v: VReg, i: Inst) {
        if add_register_dead(t, func.inst_mut(i), RegRef::Virt(v), false) {
            self.var(v).kills.push(i);
        }
    }

    /// Forgets the kill of `v` at `i` and clears its flag.
    pub fn remove_killed(&mut self, func: &mut MachineFunction, v: VReg, i: Inst) {
        if self.var(v).remove_kill(i) {
            for o in &mut func.inst_mut(i).operands {
                if let Operand::Reg(r) = o
                    && r.reg == RegRef::Virt(v)
                    && !r.is_def()
                    && r.flags.has(RegFlags::KILLED)
                {
                    r.flags.set(RegFlags::KILLED, false);
                    break;
                }
            }
        }
    }

    /// Forgets every virtual register kill at `i` (LLVM's
    /// `removeVirtualRegistersKilled`).
    pub fn remove_all_killed(&mut self, func: &mut MachineFunction, i: Inst) {
        let n = func.inst(i).operands.len();
        for k in 0..n {
            if let Operand::Reg(r) = &mut func.inst_mut(i).operands[k]
                && let RegRef::Virt(v) = r.reg
                && !r.is_def()
                && r.flags.has(RegFlags::KILLED)
            {
                r.flags.set(RegFlags::KILLED, false);
                self.var(v).remove_kill(i);
            }
        }
    }

    /// Forgets that `v` is defined dead at `i`.
    pub fn remove_dead(&mut self, func: &mut MachineFunction, v: VReg, i: Inst) {
        if self.var(v).remove_kill(i) {
            for o in &mut func.inst_mut(i).operands {
                if let Operand::Reg(r) = o
                    && r.reg == RegRef::Virt(v)
                    && r.is_def()
                {
                    r.flags.set(RegFlags::DEAD, false);
                }
            }
        }
    }
}

/// Runs the pass on `func`: sets its flags and returns the facts.
pub fn run(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
) -> Result<LiveVariables, AllocError> {
    let mut lv = LiveVariables {
        vars: vec![VarInfo::default(); func.vregs.len()],
        block_of: super::process_implicit_defs::block_of_insts(func),
        def_of: defs_of(func),
    };
    func.compute_preds();
    let mut pass = Pass {
        t: target,
        reserved: reserved_regs(target, func),
        allocatable: allocatable_regs(target),
        phys_def: vec![None; target.num_regs()],
        phys_use: vec![None; target.num_regs()],
        distance: vec![0; func.insts.len()],
        phi_uses: phi_uses_by_pred(func),
    };
    for b in depth_first(func) {
        pass.block(func, &mut lv, b);
        pass.phys_def.iter_mut().for_each(|d| *d = None);
        pass.phys_use.iter_mut().for_each(|d| *d = None);
    }
    // Kills and dead definitions found are written onto the instructions.
    for v in 0..lv.vars.len() {
        let def = lv.def_of[v];
        for k in lv.vars[v].kills.clone() {
            let reg = RegRef::Virt(VReg::new(v));
            if Some(k) == def {
                add_register_dead(target, func.inst_mut(k), reg, false);
            } else {
                add_register_killed(target, func.inst_mut(k), reg, false);
            }
        }
    }
    Ok(lv)
}

/// The defining instruction of each virtual register (the last one, when
/// the code is not SSA).
fn defs_of(func: &MachineFunction) -> Vec<Option<Inst>> {
    let mut def = vec![None; func.vregs.len()];
    for i in func.inst_ids() {
        for o in &func.inst(i).operands {
            if let Some(r) = o.as_reg()
                && let RegRef::Virt(v) = r.reg
                && r.is_def()
            {
                def[v.index()] = Some(i);
            }
        }
    }
    def
}

/// The registers reserved in `func`, constant registers (AArch64's `WZR`
/// and `XZR`) among them: LLVM's targets reserve those too, and a reserved
/// register is never killed.
fn reserved_regs(t: &TargetInfo<'_>, func: &MachineFunction) -> Vec<bool> {
    let mut reserved = function_reserved(t, func);
    for (r, is) in reserved.iter_mut().enumerate() {
        *is |= t
            .reg(Reg::new(r))
            .flags
            .contains(crate::target::RegFlags::CONSTANT);
    }
    reserved
}

/// The registers some allocatable class holds.
fn allocatable_regs(t: &TargetInfo<'_>) -> Vec<bool> {
    let mut a = vec![false; t.num_regs()];
    for c in t.classes.iter().filter(|c| c.allocatable) {
        for &r in c.members.iter() {
            a[r.index()] = true;
        }
    }
    a
}

/// For each block, the virtual registers PHIs of its successors read on
/// the edge from it (LLVM's `analyzePHINodes`).
fn phi_uses_by_pred(func: &MachineFunction) -> Vec<Vec<VReg>> {
    let mut uses = vec![Vec::new(); func.blocks.len()];
    for b in func.block_ids() {
        for &i in &func.block(b).insts {
            let inst = func.inst(i);
            if inst.op != Op::Generic(Generic::Phi) {
                continue;
            }
            for pair in inst.operands[1..].chunks(2) {
                if let [Operand::Reg(r), Operand::Block(p)] = pair
                    && let RegRef::Virt(v) = r.reg
                {
                    uses[p.index()].push(v);
                }
            }
        }
    }
    uses
}

/// The blocks in depth-first preorder from the entry, successors in order
/// (LLVM's `depth_first`).
fn depth_first(func: &MachineFunction) -> Vec<Block> {
    let mut order = Vec::new();
    if func.blocks.is_empty() {
        return order;
    }
    let mut seen = vec![false; func.blocks.len()];
    let mut stack = vec![(Block::new(0), 0usize)];
    seen[0] = true;
    order.push(Block::new(0));
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        let succs = &func.block(b).succs;
        if *next < succs.len() {
            let s = succs[*next].block;
            *next += 1;
            if !std::mem::replace(&mut seen[s.index()], true) {
                order.push(s);
                stack.push((s, 0));
            }
        } else {
            stack.pop();
        }
    }
    order
}

struct Pass<'a, 't> {
    t: &'a TargetInfo<'t>,
    reserved: Vec<bool>,
    allocatable: Vec<bool>,
    /// Per physical register, the last instruction of the block defining
    /// it (LLVM's `PhysRegDef`).
    phys_def: Vec<Option<Inst>>,
    /// ... and reading it since (`PhysRegUse`).
    phys_use: Vec<Option<Inst>>,
    /// Position of each instruction in its block (`DistanceMap`).
    distance: Vec<u32>,
    phi_uses: Vec<Vec<VReg>>,
}

impl Pass<'_, '_> {
    fn block(&mut self, func: &mut MachineFunction, lv: &mut LiveVariables, b: Block) {
        let mut defs = Vec::new();
        for l in func.block(b).live_ins.clone() {
            self.phys_def_at(func, l.reg, None, &mut defs);
        }
        let mut dist = 0;
        for i in func.block(b).insts.clone() {
            let op = func.inst(i).op;
            if is_debug(op) || op == Op::Generic(Generic::PseudoProbe) {
                continue;
            }
            self.distance[i.index()] = dist;
            dist += 1;
            self.instruction(func, lv, b, i, &mut defs);
        }
        // A PHI input is live to the end of the predecessor.
        for v in self.phi_uses[b.index()].clone() {
            let def_block = lv.def_of[v.index()].and_then(|d| lv.block(d));
            mark_alive_in_block(func, lv, v, def_block, b);
        }
        let mut live_outs = Vec::new();
        for s in &func.block(b).succs {
            let sb = func.block(s.block);
            if sb
                .attrs
                .iter()
                .any(|a| &**a == "landing-pad" || &**a == "ehpad")
            {
                continue;
            }
            for l in &sb.live_ins {
                if !self.allocatable[l.reg.index()] {
                    live_outs.push(l.reg);
                }
            }
        }
        for r in 0..self.t.num_regs() {
            let reg = Reg::new(r);
            if (self.phys_def[r].is_some() || self.phys_use[r].is_some())
                && !live_outs.contains(&reg)
            {
                self.phys_def_at(func, reg, None, &mut defs);
            }
        }
    }

    fn instruction(
        &mut self,
        func: &mut MachineFunction,
        lv: &mut LiveVariables,
        b: Block,
        i: Inst,
        defs: &mut Vec<Reg>,
    ) {
        let inst = func.inst_mut(i);
        let count = if inst.op == Op::Generic(Generic::Phi) {
            1
        } else {
            inst.operands.len()
        };
        let mut uses = Vec::new();
        let mut def_regs = Vec::new();
        let mut masks = Vec::new();
        for k in 0..count {
            match &mut inst.operands[k] {
                Operand::RegMask(m) => masks.push(m.clone()),
                Operand::Reg(r) if r.reg != RegRef::NoReg => {
                    let reserved = matches!(r.reg, RegRef::Phys(p) if self.reserved[p.index()]);
                    if r.is_def() {
                        if matches!(r.reg, RegRef::Phys(_)) && !reserved {
                            r.flags.set(RegFlags::DEAD, false);
                        }
                        def_regs.push(r.reg);
                    } else {
                        if !reserved {
                            r.flags.set(RegFlags::KILLED, false);
                        }
                        if super::edit::reads_reg(r) {
                            uses.push(r.reg);
                        }
                    }
                }
                _ => {}
            }
        }
        for reg in uses {
            match reg {
                RegRef::Virt(v) => virt_use(func, lv, v, b, i),
                RegRef::Phys(p) if !self.reserved[p.index()] => self.phys_use_at(func, p, i),
                _ => {}
            }
        }
        for m in &masks {
            self.reg_mask(func, m);
        }
        for reg in def_regs {
            match reg {
                RegRef::Virt(v) => {
                    let info = lv.var(v);
                    if info.alive_nowhere() {
                        info.kills.push(i);
                    }
                }
                RegRef::Phys(p) if !self.reserved[p.index()] => {
                    self.phys_def_at(func, p, Some(i), defs)
                }
                _ => {}
            }
        }
        // UpdatePhysRegDefs.
        while let Some(r) = defs.pop() {
            for s in self.subregs_inclusive(r) {
                self.phys_def[s.index()] = Some(i);
                self.phys_use[s.index()] = None;
            }
        }
    }

    fn subregs(&self, r: Reg) -> Vec<Reg> {
        let mut v: Vec<Reg> = self.t.reg(r).sub_regs.iter().map(|&(_, s)| s).collect();
        v.dedup();
        v
    }

    fn subregs_inclusive(&self, r: Reg) -> Vec<Reg> {
        let mut v = vec![r];
        v.extend(self.subregs(r));
        v
    }

    fn dist(&self, i: Inst) -> u32 {
        self.distance[i.index()]
    }

    /// LLVM's `FindLastPartialDef`.
    fn last_partial_def(
        &self,
        func: &MachineFunction,
        r: Reg,
        part_defs: &mut Vec<Reg>,
    ) -> Option<Inst> {
        let mut last: Option<(Reg, Inst, u32)> = None;
        for s in self.subregs(r) {
            let Some(d) = self.phys_def[s.index()] else {
                continue;
            };
            let dist = self.dist(d);
            if last.is_none_or(|(_, _, ld)| dist > ld) {
                last = Some((s, d, dist));
            }
        }
        let (reg, def, _) = last?;
        part_defs.push(reg);
        for o in &func.inst(def).operands {
            if let Some(op) = o.as_reg()
                && op.is_def()
                && let RegRef::Phys(d) = op.reg
                && self.subregs(r).contains(&d)
            {
                part_defs.extend(self.subregs_inclusive(d));
            }
        }
        Some(def)
    }

    /// LLVM's `HandlePhysRegUse`.
    fn phys_use_at(&mut self, func: &mut MachineFunction, r: Reg, i: Inst) {
        let last_def = self.phys_def[r.index()];
        if last_def.is_none() && self.phys_use[r.index()].is_none() {
            let mut part_defs = Vec::new();
            if let Some(partial) = self.last_partial_def(func, r, &mut part_defs) {
                add_implicit(func.inst_mut(partial), r, true, false);
                self.phys_def[r.index()] = Some(partial);
                let mut processed = Vec::new();
                for s in self.subregs(r) {
                    if processed.contains(&s) || part_defs.contains(&s) {
                        continue;
                    }
                    add_implicit(func.inst_mut(partial), s, false, false);
                    self.phys_def[s.index()] = Some(partial);
                    processed.extend(self.subregs(s));
                }
            }
        } else if let Some(d) = last_def
            && self.phys_use[r.index()].is_none()
            && !has_def_of(func.inst(d), r)
        {
            add_implicit(func.inst_mut(d), r, true, false);
        }
        for s in self.subregs_inclusive(r) {
            self.phys_use[s.index()] = Some(i);
        }
    }

    /// LLVM's `FindLastRefOrPartRef`.
    fn last_ref_or_part_ref(&self, r: Reg) -> Option<Inst> {
        let last_def = self.phys_def[r.index()];
        let last_use = self.phys_use[r.index()];
        let mut last = last_use.or(last_def)?;
        let mut last_dist = self.dist(last);
        for s in self.subregs(r) {
            let def = self.phys_def[s.index()];
            if def.is_some() && def != last_def {
                continue;
            }
            if let Some(u) = self.phys_use[s.index()] {
                let d = self.dist(u);
                if d > last_dist {
                    last_dist = d;
                    last = u;
                }
            }
        }
        Some(last)
    }

    /// LLVM's `HandlePhysRegKill`.
    fn phys_kill(&mut self, func: &mut MachineFunction, r: Reg, at: Option<Inst>) -> bool {
        let last_def = self.phys_def[r.index()];
        let last_use = self.phys_use[r.index()];
        let Some(mut last) = last_use.or(last_def) else {
            return false;
        };
        let mut last_dist = self.dist(last);
        let mut last_part_def: Option<(Inst, u32)> = None;
        let mut part_uses: Vec<Reg> = Vec::new();
        for s in self.subregs(r) {
            let def = self.phys_def[s.index()];
            if let Some(d) = def
                && def != last_def
            {
                let dist = self.dist(d);
                if last_part_def.is_none_or(|(_, ld)| dist > ld) {
                    last_part_def = Some((d, dist));
                }
                continue;
            }
            if let Some(u) = self.phys_use[s.index()] {
                part_uses.extend(self.subregs_inclusive(s));
                let dist = self.dist(u);
                if dist > last_dist {
                    last_dist = dist;
                    last = u;
                }
            }
        }
        let t = self.t;
        if last_use.is_none() {
            let Some(def) = self.phys_def[r.index()] else {
                return true;
            };
            add_register_dead(t, func.inst_mut(def), RegRef::Phys(r), true);
            for s in self.subregs(r) {
                if !part_uses.contains(&s) {
                    continue;
                }
                let mut need_def = true;
                if self.phys_def[r.index()] == self.phys_def[s.index()]
                    && has_def_of(func.inst(def), s)
                {
                    need_def = false;
                }
                if need_def {
                    add_implicit(func.inst_mut(def), s, true, false);
                }
                match self.last_ref_or_part_ref(s) {
                    Some(sub_ref) => {
                        add_register_killed(t, func.inst_mut(sub_ref), RegRef::Phys(s), true);
                    }
                    None => {
                        add_register_killed(t, func.inst_mut(last), RegRef::Phys(s), true);
                        for ss in self.subregs_inclusive(s) {
                            self.phys_use[ss.index()] = Some(last);
                        }
                    }
                }
                let ss = self.subregs(s);
                part_uses.retain(|p| !ss.contains(p));
            }
        } else if Some(last) == self.phys_def[r.index()] && Some(last) != at {
            if let Some((part, _)) = last_part_def {
                let mut op = RegOperand::use_of(r);
                op.flags = RegFlags::IMPLICIT | RegFlags::KILLED;
                func.inst_mut(part).operands.push(Operand::Reg(op));
            } else {
                let early = func.inst(last).operands.iter().any(|o| {
                    o.as_reg().is_some_and(|op| {
                        op.is_def()
                            && op.flags.has(RegFlags::EARLY_CLOBBER)
                            && matches!(op.reg, RegRef::Phys(p) if p != r && self.subregs(p).contains(&r))
                    })
                });
                add_register_dead(t, func.inst_mut(last), RegRef::Phys(r), true);
                if early {
                    for o in &mut func.inst_mut(last).operands {
                        if let Operand::Reg(op) = o
                            && op.is_def()
                            && op.reg == RegRef::Phys(r)
                        {
                            op.flags.set(RegFlags::EARLY_CLOBBER, true);
                            break;
                        }
                    }
                }
            }
        } else {
            add_register_killed(t, func.inst_mut(last), RegRef::Phys(r), true);
        }
        true
    }

    /// LLVM's `HandleRegMask`: every live register the mask clobbers is
    /// killed, by its largest clobbered live super-register.
    fn reg_mask(&mut self, func: &mut MachineFunction, m: &RegMask) {
        let clobbers = |r: Reg| match m {
            RegMask::Named(s) => !self.t.mask_preserves(*s, r),
            RegMask::Custom(list) => !list.contains(&r),
        };
        for r in 0..self.t.num_regs() {
            if self.phys_def[r].is_none() && self.phys_use[r].is_none() {
                continue;
            }
            let reg = Reg::new(r);
            if !clobbers(reg) {
                continue;
            }
            let mut sup = reg;
            for &s in self.t.super_regs(reg) {
                if (self.phys_def[s.index()].is_some() || self.phys_use[s.index()].is_some())
                    && clobbers(s)
                {
                    sup = s;
                }
            }
            self.phys_kill(func, sup, None);
        }
    }

    /// LLVM's `HandlePhysRegDef`.
    fn phys_def_at(
        &mut self,
        func: &mut MachineFunction,
        r: Reg,
        at: Option<Inst>,
        defs: &mut Vec<Reg>,
    ) {
        let mut live: Vec<Reg> = Vec::new();
        if self.phys_def[r.index()].is_some() || self.phys_use[r.index()].is_some() {
            live.extend(self.subregs_inclusive(r));
        } else {
            for s in self.subregs(r) {
                if live.contains(&s) {
                    continue;
                }
                if self.phys_def[s.index()].is_some() || self.phys_use[s.index()].is_some() {
                    live.extend(self.subregs_inclusive(s));
                }
            }
        }
        self.phys_kill(func, r, at);
        for s in self.subregs(r) {
            if live.contains(&s) {
                self.phys_kill(func, s, at);
            }
        }
        if at.is_some() {
            defs.push(r);
        }
    }
}

/// LLVM's `HandleVirtRegUse`.
fn virt_use(func: &MachineFunction, lv: &mut LiveVariables, v: VReg, b: Block, i: Inst) {
    lv.var(v);
    let last_kill_block = lv.vars[v.index()].kills.last().and_then(|&k| lv.block(k));
    if last_kill_block == Some(b) {
        *lv.vars[v.index()].kills.last_mut().expect("a kill") = i;
        return;
    }
    let def_block = lv.def_of[v.index()].and_then(|d| lv.block(d));
    if def_block == Some(b) {
        return;
    }
    if !lv.vars[v.index()].alive_in(b) {
        lv.vars[v.index()].kills.push(i);
    }
    for &p in &func.block(b).preds {
        mark_alive_in_block(func, lv, v, def_block, p);
    }
}

/// LLVM's `MarkVirtRegAliveInBlock`: `v` is live out of `b`, so live
/// through every block between its definition and `b`.
fn mark_alive_in_block(
    func: &MachineFunction,
    lv: &mut LiveVariables,
    v: VReg,
    def_block: Option<Block>,
    b: Block,
) {
    let mut work = vec![b];
    while let Some(b) = work.pop() {
        let kills = &lv.vars[v.index()].kills;
        if let Some(p) = kills
            .iter()
            .position(|&k| lv.block_of.get(k.index()).copied().flatten() == Some(b))
        {
            lv.vars[v.index()].kills.remove(p);
        }
        if Some(b) == def_block {
            continue;
        }
        let info = lv.var(v);
        if info.alive_in(b) {
            continue;
        }
        info.set_alive(b, true);
        work.extend(func.block(b).preds.iter().rev());
    }
}

/// Whether `inst` has a definition operand of exactly `r`.
fn has_def_of(inst: &InstData, r: Reg) -> bool {
    inst.operands.iter().any(|o| {
        o.as_reg()
            .is_some_and(|op| op.is_def() && op.reg == RegRef::Phys(r))
    })
}

/// Appends an implicit operand of `r` (LLVM's `addOperand` of an
/// implicit register, which goes after every other operand).
fn add_implicit(inst: &mut InstData, r: Reg, def: bool, killed: bool) {
    let mut op = if def {
        RegOperand::def_of(r)
    } else {
        RegOperand::use_of(r)
    };
    op.flags.set(RegFlags::IMPLICIT, true);
    op.flags.set(RegFlags::KILLED, killed);
    inst.operands.push(Operand::Reg(op));
}

/// Removes operand `k`, moving the ties of later operands along.
fn remove_operand(inst: &mut InstData, k: usize) {
    inst.operands.remove(k);
    for o in &mut inst.operands {
        if let Operand::Reg(r) = o
            && let Some(t) = r.tied_to
            && usize::from(t) > k
        {
            r.tied_to = Some(t - 1);
        }
    }
}

fn is_sub_register(t: &TargetInfo<'_>, of: Reg, sub: Reg) -> bool {
    t.reg(of).sub_regs.iter().any(|&(_, s)| s == sub)
}

fn has_aliases(t: &TargetInfo<'_>, r: Reg) -> bool {
    !t.reg(r).sub_regs.is_empty() || !t.super_regs(r).is_empty()
}

/// LLVM's `MachineInstr::addRegisterKilled`: marks the first read of
/// `reg` killed, dropping kills of its sub-registers made redundant;
/// adds an implicit killed use when `add_if_not_found` and there is no
/// read. Whether the register is now killed here.
pub(crate) fn add_register_killed(
    t: &TargetInfo<'_>,
    inst: &mut InstData,
    reg: RegRef,
    add_if_not_found: bool,
) -> bool {
    let phys = match reg {
        RegRef::Phys(p) => Some(p),
        _ => None,
    };
    let aliases = phys.is_some_and(|p| has_aliases(t, p));
    let mut found = false;
    let mut dead_ops = Vec::new();
    for k in 0..inst.operands.len() {
        let Operand::Reg(r) = &inst.operands[k] else {
            continue;
        };
        if r.is_def()
            || r.flags.has(RegFlags::UNDEF)
            || r.flags.has(RegFlags::DEBUG_USE)
            || r.reg == RegRef::NoReg
        {
            continue;
        }
        if r.reg == reg {
            if !found {
                if r.flags.has(RegFlags::KILLED) {
                    return true;
                }
                if phys.is_some() && r.tied_to.is_some() {
                    return true;
                }
                if let Operand::Reg(r) = &mut inst.operands[k] {
                    r.flags.set(RegFlags::KILLED, true);
                }
                found = true;
            }
        } else if let (Some(p), RegRef::Phys(other)) = (phys, r.reg)
            && aliases
            && r.flags.has(RegFlags::KILLED)
        {
            if t.super_regs(p).contains(&other) {
                return true;
            }
            if is_sub_register(t, p, other) {
                dead_ops.push(k);
            }
        }
    }
    trim(inst, dead_ops, RegFlags::KILLED);
    if !found && add_if_not_found {
        if let Some(p) = phys {
            add_implicit(inst, p, false, true);
        }
        return true;
    }
    found
}

/// LLVM's `MachineInstr::addRegisterDead`: marks every definition of
/// `reg` dead, dropping dead sub-register definitions it covers; adds an
/// implicit dead definition when `add_if_not_found` and there is none.
pub(crate) fn add_register_dead(
    t: &TargetInfo<'_>,
    inst: &mut InstData,
    reg: RegRef,
    add_if_not_found: bool,
) -> bool {
    let phys = match reg {
        RegRef::Phys(p) => Some(p),
        _ => None,
    };
    let aliases = phys.is_some_and(|p| has_aliases(t, p));
    let mut found = false;
    let mut dead_ops = Vec::new();
    for k in 0..inst.operands.len() {
        let Operand::Reg(r) = &mut inst.operands[k] else {
            continue;
        };
        if !r.is_def() || r.reg == RegRef::NoReg {
            continue;
        }
        if r.reg == reg {
            r.flags.set(RegFlags::DEAD, true);
            found = true;
        } else if let (Some(p), RegRef::Phys(other)) = (phys, r.reg)
            && aliases
            && r.flags.has(RegFlags::DEAD)
        {
            if t.super_regs(p).contains(&other) {
                return true;
            }
            if is_sub_register(t, p, other) {
                dead_ops.push(k);
            }
        }
    }
    trim(inst, dead_ops, RegFlags::DEAD);
    if found || !add_if_not_found {
        return found;
    }
    if let Some(p) = phys {
        let mut op = RegOperand::def_of(p);
        op.flags = RegFlags::DEF | RegFlags::IMPLICIT | RegFlags::DEAD;
        inst.operands.push(Operand::Reg(op));
    }
    true
}

/// Removes the implicit operands of `ops` and clears `flag` on the
/// explicit ones (last first, as LLVM trims).
fn trim(inst: &mut InstData, mut ops: Vec<usize>, flag: RegFlags) {
    let inline_asm = matches!(
        inst.op,
        Op::Generic(Generic::InlineAsm | Generic::InlineAsmBr)
    );
    while let Some(k) = ops.pop() {
        let implicit = inst.operands[k]
            .as_reg()
            .is_some_and(RegOperand::is_implicit);
        if implicit && !inline_asm {
            remove_operand(inst, k);
        } else if let Operand::Reg(r) = &mut inst.operands[k] {
            r.flags.set(flag, false);
        }
    }
}
