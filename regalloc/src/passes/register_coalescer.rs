//! `register-coalescer`: LLVM's RegisterCoalescer. A `COPY` between two virtual registers goes when their live intervals can be joined into one register; a copy of a constant goes when the constant can be recomputed in its place.
//!
//! Runs after `twoaddressinstruction`, on the live intervals of
//! [`crate::analysis`] (those the allocators build, without lane
//! sub-ranges), whose computation in LLVM clears the `killed` flags of
//! virtual registers and of physical registers live into a block (so
//! does this pass), copy by copy in LLVM's order:
//!
//! - blocks by loop depth, deepest first, then the blocks with more
//!   predecessors and successors, then layout order; within a block, its
//!   copies in order. Where LLVM joins "global" copies apart (its
//!   `enableJoinGlobalCopies`; the description's `PreAllocationPolicy`
//!   says, [`TargetInfo::join_global_copies`]: on for our x86-64,
//!   AArch64 and Hexagon, not BPF), a copy whose source
//!   or destination lives in one block is held back and tried when the
//!   walk first reaches a shallower loop depth, the others at once; copies
//!   that failed for interference are tried again until nothing changes;
//! - a copy between virtual registers of classes with a common sub-class
//!   (the description's class facts) is a join when every value of one
//!   register that is defined where the other is live is the other's
//!   value through that copy or another copy between the two, or the same
//!   value through a chain of full copies, or undefined (`IMPLICIT_DEF`);
//!   values merging at a block start are allowed to overlap (a conflict
//!   shows in a predecessor). That is LLVM's value-number conflict
//!   resolution (`JoinVals`) for whole registers. The copy's source is
//!   renamed to its destination unless the source's interval has more
//!   segments (then the other way), which takes the common
//!   class; the copies found equal are erased, and values left unread are flagged `dead`, their instructions erased when
//!   nothing else needs them (LLVM's dead-definition elimination);
//! - a copy whose destination's `dead` flag is set is erased; a copy that
//!   cannot be joined, or a copy into a physical register that is not
//!   reserved, is replaced by its source's definition when that is
//!   rematerializable, as cheap as a move, defines one register fully and
//!   reads no register (LLVM's `reMaterializeTrivialDef`): a copy of
//!   `MOV32ri 7` becomes `MOV32ri 7` into the copy's destination. A
//!   definition that clobbers a register (x86's flags) is recomputed only
//!   where that register is dead.
//!
//! Not done, each counted in [`CoalescerStats`] where a copy is left:
//! sub-register copies and joins by lane masks (LLVM tracks lanes only on
//! Hexagon), joins with reserved physical registers, conflicts LLVM
//! resolves by looking at the lanes a partial definition clobbers (taken
//! as conflicts here), `IMPLICIT_DEF` values LLVM prunes where they
//! overlap (kept here, so a join with them may be refused), and LLVM's
//! last resorts when a join fails: adjusting copies back from a
//! definition, commuting the definition, and moving a partially
//! redundant copy to a predecessor. Register classes are not inflated
//! afterwards as LLVM's `recomputeRegClass` inflates them.

use crate::alloc::remat::{clobbers, is_constant, live_before, remat_instr};
use crate::analysis::intervals::unit_untracked;
use crate::analysis::{
    Cfg, DomTree, LiveIntervals, LiveRange, LoopInfo, Slot, SlotIndex, ValNo, ranges::RangeBuilder,
};
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{
    Block, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegRef, VReg,
};
use crate::target::{InstrFlags, Reg, RegClass, TargetInfo};

use super::edit::{erase, insert};

/// What the coalescer did to a function, and why the copies it left are
/// there.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct CoalescerStats {
    /// Copies removed by joining two virtual registers.
    pub joined: usize,
    /// Copies replaced by a copy of their source's definition.
    pub rematerialized: usize,
    /// Copies erased because nothing read their value (before or after
    /// joins).
    pub dead: usize,
    /// Copies left between two virtual registers whose values conflict.
    pub left_interference: usize,
    /// Copies left between virtual registers of classes without a common
    /// sub-class.
    pub left_class: usize,
    /// Copies left that read or write a sub-register (not coalesced here).
    pub left_sub_register: usize,
    /// Copies left to or from a physical register.
    pub left_physical: usize,
}

impl CoalescerStats {
    /// Every copy left.
    pub fn left(&self) -> usize {
        self.left_interference + self.left_class + self.left_sub_register + self.left_physical
    }
}

/// Runs the pass on `func`.
pub fn run(t: &TargetInfo<'_>, func: &mut MachineFunction) -> Result<CoalescerStats, AllocError> {
    clear_kill_flags(t, func);
    let mut c = Coalescer::new(t, func);
    c.join_all(func)?;
    Ok(c.stats(func))
}

/// Clears the `killed` flags LLVM's live-interval analysis clears when it
/// computes the ranges the coalescer starts from: on every use of a
/// virtual register, and on every use of a physical register with a
/// unit (not reserved) live into some block, whose range it computes at
/// once (the other units' ranges are computed on demand, and never by
/// what the coalescer asks). The allocators' rewriting adds kills back.
fn clear_kill_flags(t: &TargetInfo<'_>, func: &mut MachineFunction) {
    let mut live_in_unit = vec![false; t.units.len()];
    for b in &func.blocks {
        for l in &b.live_ins {
            if l.reg.index() >= t.regs.len() {
                continue;
            }
            for &u in t.units(l.reg) {
                if !unit_untracked(t, u) {
                    live_in_unit[u.index()] = true;
                }
            }
        }
    }
    for b in 0..func.blocks.len() {
        for k in 0..func.blocks[b].insts.len() {
            let i = func.blocks[b].insts[k];
            for o in &mut func.insts[i.index()].operands {
                let Operand::Reg(r) = o else { continue };
                if r.is_def() || !r.flags.has(RegFlags::KILLED) {
                    continue;
                }
                let clear = match r.reg {
                    RegRef::Virt(_) => true,
                    RegRef::Phys(p) => {
                        p.index() < t.regs.len()
                            && t.units(p).iter().any(|u| live_in_unit[u.index()])
                    }
                    RegRef::NoReg => false,
                };
                if clear {
                    r.flags.set(RegFlags::KILLED, false);
                }
            }
        }
    }
}

/// What a query of a live range at one instruction finds (LLVM's
/// `LiveQueryResult`).
#[derive(Copy, Clone, Debug)]
struct Query {
    /// The value live into the instruction.
    early: Option<u32>,
    /// The value live out of it, or defined dead by it.
    late: Option<u32>,
    /// The end of the last segment looked at.
    end: SlotIndex,
    /// The value live in ends at the instruction.
    kill: bool,
}

impl Query {
    /// The value the instruction defines.
    fn defined(&self) -> Option<u32> {
        if self.early == self.late {
            None
        } else {
            self.late
        }
    }
}

fn same_instr(a: SlotIndex, b: SlotIndex) -> bool {
    a.base() == b.base()
}

/// `range` at the instruction (or block start) of `idx`, as LLVM's
/// `LiveRange::Query`.
fn query(range: &LiveRange, idx: SlotIndex) -> Query {
    let base = idx.with(Slot::Block);
    let segs = &range.segments;
    let mut k = segs.partition_point(|s| s.end <= base);
    let mut q = Query {
        early: None,
        late: None,
        end: SlotIndex(0),
        kill: false,
    };
    let Some(&s) = segs.get(k) else { return q };
    if s.start <= base {
        q.early = Some(s.valno);
        q.end = s.end;
        if same_instr(idx, s.end) {
            q.kill = true;
            k += 1;
            if k == segs.len() {
                return q;
            }
        }
        // A value merging at a block start is not live into it.
        if range.valnos[s.valno as usize].def == base {
            q.early = None;
        }
    }
    let s = segs[k];
    if idx.base() >= s.start.base() {
        q.late = Some(s.valno);
        q.end = s.end;
    }
    q
}

/// Whether `inst` is a `COPY` of a whole register into a whole register.
fn is_full_copy(inst: &InstData) -> Option<(RegRef, RegRef)> {
    if !inst.op.is_copy() || inst.operands.len() != 2 {
        return None;
    }
    let (Operand::Reg(d), Operand::Reg(s)) = (&inst.operands[0], &inst.operands[1]) else {
        return None;
    };
    (d.is_def() && !s.is_def() && d.sub.is_none() && s.sub.is_none()).then_some((d.reg, s.reg))
}

/// How a value of one register fares when joined with the other
/// (LLVM's `ConflictResolution`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Resolution {
    /// The value stays.
    Keep,
    /// The value is the other register's: its definition goes.
    Erase,
    /// Both registers define it at one place (a block start).
    Merge,
    /// A merge at a block start overlapping the other's value, which it
    /// replaces from there.
    Replace,
    /// The values conflict: no join.
    Impossible,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Status {
    Unvisited,
    Analyzing,
    Done(Resolution),
}

/// The values of the two registers of a copy, compared (LLVM's
/// `JoinVals`, for whole registers): side 0 is the register kept, side 1
/// the one renamed.
struct JoinVals<'j> {
    func: &'j MachineFunction,
    li: &'j LiveIntervals,
    regs: [VReg; 2],
    ranges: [&'j LiveRange; 2],
    status: [Vec<Status>; 2],
}

impl<'j> JoinVals<'j> {
    fn new(
        func: &'j MachineFunction,
        li: &'j LiveIntervals,
        regs: [VReg; 2],
        ranges: [&'j LiveRange; 2],
    ) -> Self {
        JoinVals {
            func,
            li,
            regs,
            ranges,
            status: [
                vec![Status::Unvisited; ranges[0].valnos.len()],
                vec![Status::Unvisited; ranges[1].valnos.len()],
            ],
        }
    }

    /// Whether every value of both sides can be joined.
    fn resolve_all(&mut self) -> bool {
        for side in 0..2 {
            for vn in 0..self.ranges[side].valnos.len() {
                if self.assign(side, vn) == Resolution::Impossible {
                    return false;
                }
            }
        }
        true
    }

    /// The definitions of the values found equal to the other side's.
    fn erased(&self) -> Vec<SlotIndex> {
        let mut out = Vec::new();
        for side in 0..2 {
            for (vn, s) in self.status[side].iter().enumerate() {
                if *s == Status::Done(Resolution::Erase) {
                    out.push(self.ranges[side].valnos[vn].def);
                }
            }
        }
        out
    }

    fn assign(&mut self, side: usize, vn: usize) -> Resolution {
        match self.status[side][vn] {
            Status::Done(r) => r,
            // Analysis goes up the dominator tree and never comes back to
            // a value being analyzed; if it did, refuse rather than guess.
            Status::Analyzing => Resolution::Impossible,
            Status::Unvisited => {
                self.status[side][vn] = Status::Analyzing;
                let r = self.analyze(side, vn);
                self.status[side][vn] = Status::Done(r);
                r
            }
        }
    }

    /// LLVM's `analyzeValue` for whole registers: every lane is written and
    /// valid, so what LLVM resolves by lanes is a conflict here.
    fn analyze(&mut self, side: usize, vn: usize) -> Resolution {
        let other = 1 - side;
        let vni = self.ranges[side].valnos[vn];
        let q = query(self.ranges[other], vni.def);
        if let Some(ov) = q.defined() {
            // Both registers define a value at this instruction or block
            // start: the first one analyzed stays, the other merges.
            let other_def = self.ranges[other].valnos[ov as usize].def;
            if other_def < vni.def {
                self.assign(other, ov as usize);
            } else if vni.def < other_def && q.early.is_some() {
                // An early-clobber definition over the other's live value.
                return Resolution::Impossible;
            }
            if !matches!(self.status[other][ov as usize], Status::Done(_)) {
                return Resolution::Keep;
            }
            return if vni.is_phi() {
                Resolution::Merge
            } else {
                Resolution::Impossible
            };
        }
        let Some(ov) = q.early else {
            return Resolution::Keep;
        };
        self.assign(other, ov as usize);
        if vni.is_phi() {
            return Resolution::Replace;
        }
        let Some(mi) = self.li.slots.inst_at(vni.def) else {
            return Resolution::Impossible;
        };
        let inst = self.func.inst(mi);
        if inst.op == Op::Generic(Generic::ImplicitDef) {
            return Resolution::Erase;
        }
        if self.is_coalescable(inst) {
            return Resolution::Erase;
        }
        // The other value ends where this one starts.
        if q.kill && q.end <= vni.def {
            return Resolution::Keep;
        }
        if is_full_copy(inst).is_some() && self.values_identical(side, vni, ov) {
            return Resolution::Erase;
        }
        Resolution::Impossible
    }

    /// Whether `inst` is a whole-register copy between the two registers,
    /// either way.
    fn is_coalescable(&self, inst: &InstData) -> bool {
        let Some((RegRef::Virt(d), RegRef::Virt(s))) = is_full_copy(inst) else {
            return false;
        };
        (d, s) == (self.regs[0], self.regs[1]) || (d, s) == (self.regs[1], self.regs[0])
    }

    /// Whether value `vni` of side `side` and value `ov` of the other are
    /// the same value, followed back through whole-register copies
    /// (LLVM's `valuesIdentical`).
    fn values_identical(&self, side: usize, vni: ValNo, ov: u32) -> bool {
        let other = 1 - side;
        let value1 = self.ranges[other].valnos[ov as usize];
        let (orig0, reg0) = self.follow_copies(self.regs[side], vni);
        if orig0 == Some(value1) && reg0 == self.regs[other] {
            return true;
        }
        let (orig1, reg1) = self.follow_copies(self.regs[other], value1);
        match (orig0, orig1) {
            (Some(a), Some(b)) => a.def == b.def && reg0 == reg1,
            (a, b) => a.is_none() && b.is_none() && reg0 == reg1,
        }
    }

    /// The value `vni` of `reg` comes from, through whole-register copies
    /// from virtual registers, and its register; `None` when a copy reads
    /// an undefined value (LLVM's `followCopyChain`).
    fn follow_copies(&self, mut reg: VReg, mut vni: ValNo) -> (Option<ValNo>, VReg) {
        // Each step goes to a value defined earlier; the bound only guards
        // against a malformed function.
        for _ in 0..1024 {
            if vni.is_phi() {
                break;
            }
            let Some(mi) = self.li.slots.inst_at(vni.def) else {
                break;
            };
            let Some((_, RegRef::Virt(src))) = is_full_copy(self.func.inst(mi)) else {
                break;
            };
            let Some(iv) = self.li.vreg(src) else {
                return (None, src);
            };
            let Some(v) = query(&iv.range, vni.def).early else {
                return (None, src);
            };
            vni = iv.range.valnos[v as usize];
            reg = src;
        }
        (Some(vni), reg)
    }
}

/// One run of the pass: the intervals, kept up to date as copies go.
struct Coalescer<'a, 't> {
    t: &'a TargetInfo<'t>,
    cfg: Cfg,
    li: LiveIntervals,
    rb: RangeBuilder,
    /// By virtual register: instructions naming it (some may have been
    /// erased or renamed since; read the operands again).
    users: Vec<Vec<Inst>>,
    /// By instruction: its block, `None` once erased.
    block_of: Vec<Option<Block>>,
    /// Physical registers some instruction writes (for LLVM's constant
    /// physical registers).
    phys_defs: Vec<Reg>,
    stats: CoalescerStats,
}

impl<'a, 't> Coalescer<'a, 't> {
    fn new(t: &'a TargetInfo<'t>, func: &MachineFunction) -> Self {
        let cfg = Cfg::new(func);
        let li = LiveIntervals::with_sub_ranges(t, func, &cfg, false);
        let mut users = vec![Vec::new(); func.vregs.len()];
        let mut block_of = vec![None; func.insts.len()];
        let mut phys_defs = Vec::new();
        for b in func.block_ids() {
            for &i in &func.block(b).insts {
                block_of[i.index()] = Some(b);
                for o in &func.inst(i).operands {
                    let Some(r) = o.as_reg() else { continue };
                    match r.reg {
                        RegRef::Virt(v)
                            if v.index() < users.len() && users[v.index()].last() != Some(&i) =>
                        {
                            users[v.index()].push(i);
                        }
                        RegRef::Phys(p) if r.is_def() && !phys_defs.contains(&p) => {
                            phys_defs.push(p)
                        }
                        _ => {}
                    }
                }
            }
        }
        Coalescer {
            t,
            cfg,
            li,
            rb: RangeBuilder::default(),
            users,
            block_of,
            phys_defs,
            stats: CoalescerStats::default(),
        }
    }

    /// LLVM's `joinAllIntervals`.
    fn join_all(&mut self, func: &mut MachineFunction) -> Result<(), AllocError> {
        let global = self.t.join_global_copies;
        let loops = LoopInfo::new(&self.cfg, &DomTree::new(&self.cfg));
        let connected = |b: Block| func.block(b).preds.len() + func.block(b).succs.len();
        let mut order: Vec<Block> = func.block_ids().collect();
        order.sort_by(|&a, &b| {
            loops
                .depth(b)
                .cmp(&loops.depth(a))
                .then(connected(b).cmp(&connected(a)))
                .then(a.cmp(&b))
        });
        let mut worklist: Vec<Option<Inst>> = Vec::new();
        let mut local: Vec<Option<Inst>> = Vec::new();
        let mut depth = u32::MAX;
        for b in order {
            if global && loops.depth(b) < depth {
                self.coalesce_locals(func, &mut local, &mut worklist)?;
                depth = loops.depth(b);
            }
            let first = worklist.len();
            for i in func.block(b).insts.clone() {
                if !is_copy_like(func.inst(i).op) {
                    continue;
                }
                if global && self.is_local_copy(func, i) {
                    local.push(Some(i));
                } else {
                    worklist.push(Some(i));
                }
            }
            self.work(func, &mut worklist[first..])?;
            worklist.retain(Option::is_some);
        }
        self.coalesce_locals(func, &mut local, &mut worklist)?;
        while self.work(func, &mut worklist)? {}
        Ok(())
    }

    /// Tries the held-back local copies; those to try again join the
    /// global list.
    fn coalesce_locals(
        &mut self,
        func: &mut MachineFunction,
        local: &mut Vec<Option<Inst>>,
        worklist: &mut Vec<Option<Inst>>,
    ) -> Result<(), AllocError> {
        self.work(func, local)?;
        worklist.extend(local.drain(..).filter(Option::is_some));
        Ok(())
    }

    /// Tries each copy of `list` once; those done or not worth another try
    /// are cleared. Whether some copy went.
    fn work(
        &mut self,
        func: &mut MachineFunction,
        list: &mut [Option<Inst>],
    ) -> Result<bool, AllocError> {
        let mut progress = false;
        for slot in list.iter_mut() {
            let Some(i) = *slot else { continue };
            if self.block_of[i.index()].is_none() {
                *slot = None;
                continue;
            }
            let (done, again) = self.join_copy(func, i)?;
            progress |= done;
            if done || !again {
                *slot = None;
            }
        }
        Ok(progress)
    }

    /// LLVM's `isLocalCopy`: a copy between virtual registers one of which
    /// lives in one block.
    fn is_local_copy(&self, func: &MachineFunction, i: Inst) -> bool {
        let inst = func.inst(i);
        if !inst.op.is_copy() || inst.operands.len() < 2 {
            return false;
        }
        let (Some(d), Some(s)) = (inst.operands[0].as_reg(), inst.operands[1].as_reg()) else {
            return false;
        };
        if s.flags.has(RegFlags::UNDEF) {
            return false;
        }
        let (RegRef::Virt(d), RegRef::Virt(s)) = (d.reg, s.reg) else {
            return false;
        };
        self.in_one_block(s) || self.in_one_block(d)
    }

    /// Whether `v`'s interval starts and ends inside one block.
    fn in_one_block(&self, v: VReg) -> bool {
        let Some(iv) = self.li.vreg(v) else {
            return false;
        };
        let (Some(first), Some(last)) = (iv.range.segments.first(), iv.range.segments.last())
        else {
            return false;
        };
        if first.start.is_block() || last.end.is_block() {
            return false;
        }
        let slots = &self.li.slots;
        slots.block_of(first.start).is_some()
            && slots.block_of(first.start) == slots.block_of(SlotIndex(last.end.0 - 1))
    }

    /// LLVM's `joinCopy`: whether the copy went, and whether it is worth
    /// trying again later when it did not.
    fn join_copy(
        &mut self,
        func: &mut MachineFunction,
        copy: Inst,
    ) -> Result<(bool, bool), AllocError> {
        let inst = func.inst(copy);
        if !inst.op.is_copy() || inst.operands.len() != 2 {
            return Ok((false, false));
        }
        let (Some(d), Some(s)) = (inst.operands[0].as_reg(), inst.operands[1].as_reg()) else {
            return Ok((false, false));
        };
        if d.sub.is_some() || s.sub.is_some() {
            return Ok((false, false));
        }
        let (dead, undef) = (d.flags.has(RegFlags::DEAD), s.flags.has(RegFlags::UNDEF));
        match (d.reg, s.reg) {
            (RegRef::Virt(dv), RegRef::Virt(sv)) => {
                let Some(class) = self.common_class(func, dv, sv) else {
                    return Ok((false, false));
                };
                if dead {
                    self.erase_inst(func, copy);
                    self.stats.dead += 1;
                    self.shrink(func, vec![sv]);
                    return Ok((true, false));
                }
                if undef {
                    return Ok((false, false));
                }
                if dv == sv {
                    self.erase_inst(func, copy);
                    self.recompute(func, dv);
                    return Ok((true, false));
                }
                // LLVM keeps the register with more segments (its
                // `LiveRange::size`, not the length `getSize`).
                let size = |v: VReg| self.li.vreg(v).map_or(0, |iv| iv.range.segments.len());
                let (keep, rename) = if size(sv) > size(dv) {
                    (sv, dv)
                } else {
                    (dv, sv)
                };
                if self.join_virt(func, copy, keep, rename, class) {
                    self.stats.joined += 1;
                    return Ok((true, false));
                }
                let (done, _) =
                    self.remat_trivial_def(func, copy, RegRef::Virt(dv), sv, Some(class))?;
                Ok((done, !done))
            }
            (RegRef::Phys(p), RegRef::Virt(sv)) => {
                let in_class = func
                    .vreg_class(sv)
                    .is_some_and(|c| self.t.class_contains(c, p));
                if !in_class || undef {
                    return Ok((false, false));
                }
                // Joins with reserved registers are not done here; other
                // physical registers are never joined, only their copies
                // rematerialized.
                if self.t.is_reserved(p) {
                    return Ok((false, false));
                }
                self.remat_trivial_def(func, copy, RegRef::Phys(p), sv, None)
            }
            _ => Ok((false, false)),
        }
    }

    /// The largest class whose registers both classes hold (LLVM's
    /// `getCommonSubClass`: the first in the description's order).
    fn common_class(&self, func: &MachineFunction, a: VReg, b: VReg) -> Option<RegClass> {
        let (ca, cb) = (func.vreg_class(a)?, func.vreg_class(b)?);
        if ca == cb {
            return Some(ca);
        }
        (0..self.t.classes.len())
            .map(RegClass::new)
            .find(|&c| self.t.is_sub_class(c, ca) && self.t.is_sub_class(c, cb))
    }

    /// LLVM's `joinVirtRegs`: joins `rename` into `keep` when no values
    /// conflict; whether it did.
    fn join_virt(
        &mut self,
        func: &mut MachineFunction,
        copy: Inst,
        keep: VReg,
        rename: VReg,
        class: RegClass,
    ) -> bool {
        let (Some(lhs), Some(rhs)) = (self.li.vreg(keep), self.li.vreg(rename)) else {
            return false;
        };
        let erased = {
            let mut vals = JoinVals::new(func, &self.li, [keep, rename], [&lhs.range, &rhs.range]);
            if !vals.resolve_all() {
                return false;
            }
            vals.erased()
        };
        let mut shrink = Vec::new();
        for def in erased {
            let Some(mi) = self.li.slots.inst_at(def) else {
                continue;
            };
            if self.block_of[mi.index()].is_none() {
                continue;
            }
            if let Some((_, RegRef::Virt(src))) = is_full_copy(func.inst(mi))
                && src != keep
                && src != rename
            {
                shrink.push(src);
            }
            self.erase_inst(func, mi);
        }
        self.rename(func, rename, keep);
        func.vregs[keep.index()].class = Some(class);
        // The copy is one of the values erased; should it be left, it is
        // now an identity copy.
        if self.block_of[copy.index()].is_some()
            && is_full_copy(func.inst(copy)).is_some_and(|(d, s)| d == s)
        {
            self.erase_inst(func, copy);
        }
        if let Some(x) = self.li.vregs.get_mut(rename.index()) {
            *x = None;
        }
        self.recompute(func, keep);
        self.shrink(func, shrink);
        true
    }

    /// Every operand naming `from` names `to`.
    fn rename(&mut self, func: &mut MachineFunction, from: VReg, to: VReg) {
        let moved = std::mem::take(&mut self.users[from.index()]);
        for &i in &moved {
            for o in &mut func.insts[i.index()].operands {
                if let Operand::Reg(r) = o
                    && r.reg == RegRef::Virt(from)
                {
                    r.reg = RegRef::Virt(to);
                }
            }
        }
        let list = &mut self.users[to.index()];
        list.extend(moved);
        list.sort_unstable();
        list.dedup();
    }

    /// LLVM's `reMaterializeTrivialDef`: replaces `copy` (of `src` into
    /// `dst`) by a copy of `src`'s definition there. Whether it did, and
    /// whether that definition is itself a copy (worth another try once
    /// it is coalesced).
    fn remat_trivial_def(
        &mut self,
        func: &mut MachineFunction,
        copy: Inst,
        dst: RegRef,
        src: VReg,
        class: Option<RegClass>,
    ) -> Result<(bool, bool), AllocError> {
        let Some(def) = self.remat_candidate(copy, src) else {
            return Ok((false, false));
        };
        if is_copy_like(func.inst(def).op) {
            return Ok((false, true));
        }
        if !self.rematerializable(func, copy, def, dst, src) {
            return Ok((false, false));
        }
        let b = self.block_of[copy.index()].expect("a placed copy");
        let mut new = func.inst(def).clone();
        new.forget_debug_instr_number();
        for o in &mut new.operands {
            if let Operand::Reg(r) = o
                && r.reg == RegRef::Virt(src)
            {
                r.reg = dst;
                r.flags.set(RegFlags::DEAD, false);
                r.flags.set(RegFlags::KILLED, false);
            }
        }
        let location = func
            .inst(copy)
            .attrs
            .as_ref()
            .and_then(|a| a.debug_location.clone());
        if let Some(a) = &mut new.attrs {
            a.debug_location = location;
        }
        let pos = func
            .block(b)
            .insts
            .iter()
            .position(|&x| x == copy)
            .expect("a placed copy");
        let at = self.li.slots.inst(copy).expect("a numbered copy");
        let next = self
            .li
            .slots
            .entry_after(at)
            .unwrap_or(self.li.slots.block_end(b));
        let n = insert(func, b, pos + 1, new);
        if self.li.slots.insert_between(at, next, n).is_none() {
            return Err(AllocError::new(
                AllocErrorKind::Unsupported,
                &func.name,
                "no slot index left for a rematerialized instruction",
            )
            .at(b, copy)
            .located_in(func));
        }
        if self.block_of.len() <= n.index() {
            self.block_of.resize(n.index() + 1, None);
        }
        self.block_of[n.index()] = Some(b);
        self.erase_inst(func, copy);
        self.stats.rematerialized += 1;
        if let RegRef::Virt(d) = dst {
            self.users[d.index()].push(n);
            if let Some(c) = class {
                func.vregs[d.index()].class = Some(c);
            }
            self.recompute(func, d);
        }
        self.shrink(func, vec![src]);
        Ok((true, false))
    }

    /// The definition of the value `src` has at `copy`, when it is one
    /// instruction (not a merge at a block start).
    fn remat_candidate(&self, copy: Inst, src: VReg) -> Option<Inst> {
        let at = self.li.slots.inst(copy)?;
        let iv = self.li.vreg(src)?;
        let vni = iv.range.valnos[query(&iv.range, at).early? as usize];
        if vni.is_phi() {
            return None;
        }
        self.li
            .slots
            .inst_at(vni.def)
            .filter(|d| self.block_of[d.index()].is_some())
    }

    /// Whether `def` (defining `src`) may be executed again in place of
    /// `copy`, writing `dst`.
    fn rematerializable(
        &self,
        func: &MachineFunction,
        copy: Inst,
        def: Inst,
        dst: RegRef,
        src: VReg,
    ) -> bool {
        let t = self.t;
        let Op::Target(op) = func.inst(def).op else {
            return false;
        };
        let Some(d) = t.instrs.get(op.index()) else {
            return false;
        };
        if !d.is(InstrFlags::CHEAP_AS_MOVE) || d.num_defs != 1 {
            return false;
        }
        let constant = |p: Reg| is_constant(t, &self.phys_defs, p);
        if remat_instr(t, func, def, &constant) != Some(src) {
            return false;
        }
        // The whole register is defined (not `undef %x.sub = ...`).
        let full = func.inst(def).operands.iter().any(|o| {
            o.as_reg()
                .is_some_and(|r| r.is_def() && r.reg == RegRef::Virt(src) && r.sub.is_none())
        });
        if !full {
            return false;
        }
        if let RegRef::Phys(p) = dst
            && !d
                .operands
                .first()
                .and_then(|o| o.class)
                .is_some_and(|c| t.class_contains(c, p))
        {
            return false;
        }
        let Some(b) = self.block_of[copy.index()] else {
            return false;
        };
        clobbers(func, def).all(|p| !live_before(t, func, b, copy, p))
    }

    /// Takes `i` out of its block.
    fn erase_inst(&mut self, func: &mut MachineFunction, i: Inst) {
        if let Some(b) = self.block_of[i.index()].take() {
            erase(func, b, i);
        }
    }

    /// Computes `v`'s interval again from the instructions naming it.
    fn recompute(&mut self, func: &MachineFunction, v: VReg) {
        let mut list: Vec<(Inst, Block)> = Vec::new();
        let mut kept = Vec::new();
        for &i in &self.users[v.index()] {
            let Some(b) = self.block_of.get(i.index()).copied().flatten() else {
                continue;
            };
            let names = func
                .inst(i)
                .operands
                .iter()
                .any(|o| o.as_reg().is_some_and(|r| r.reg == RegRef::Virt(v)));
            if names && self.li.slots.inst(i).is_some() {
                list.push((i, b));
                kept.push(i);
            }
        }
        list.sort_by_key(|&(i, _)| self.li.slots.inst(i));
        self.users[v.index()] = kept;
        match self
            .li
            .compute_vreg_from(self.t, func, &self.cfg, v, &list, &mut self.rb)
        {
            Some(iv) => self.li.set_vreg(v, iv),
            None => {
                if let Some(x) = self.li.vregs.get_mut(v.index()) {
                    *x = None;
                }
            }
        }
    }

    /// Recomputes the intervals of `regs`, each of which lost a reader:
    /// values nobody reads any more get their `dead` flag, and
    /// instructions whose every definition is dead go when nothing else
    /// needs them, their own inputs then looked at the same way (LLVM's
    /// `shrinkToUses` and `eliminateDeadDefs`).
    fn shrink(&mut self, func: &mut MachineFunction, mut regs: Vec<VReg>) {
        while let Some(v) = regs.pop() {
            self.recompute(func, v);
            let Some(iv) = self.li.vreg(v) else { continue };
            let dead: Vec<SlotIndex> = iv
                .range
                .valnos
                .iter()
                .filter(|vn| !vn.is_phi())
                .filter(|vn| {
                    iv.range
                        .segment_at(vn.def)
                        .is_some_and(|s| s.start == vn.def && s.end == vn.def.dead_slot())
                })
                .map(|vn| vn.def)
                .collect();
            for def in dead {
                let Some(mi) = self.li.slots.inst_at(def) else {
                    continue;
                };
                if self.block_of[mi.index()].is_none() {
                    continue;
                }
                for o in &mut func.insts[mi.index()].operands {
                    if let Operand::Reg(r) = o
                        && r.is_def()
                        && r.reg == RegRef::Virt(v)
                    {
                        r.flags.set(RegFlags::DEAD, true);
                    }
                }
                if !self.deletable(func, mi) {
                    continue;
                }
                if func.inst(mi).op.is_copy() {
                    self.stats.dead += 1;
                }
                for o in &func.inst(mi).operands {
                    if let Some(r) = o.as_reg()
                        && let RegRef::Virt(x) = r.reg
                        && x != v
                        && !regs.contains(&x)
                    {
                        regs.push(x);
                    }
                }
                self.erase_inst(func, mi);
                if !regs.contains(&v) {
                    regs.push(v);
                }
            }
        }
    }

    /// Whether `i` can go once its definitions are dead: nothing but the
    /// registers it writes is affected by it (LLVM's `isSafeToMove` and
    /// the checks of `eliminateDeadDef`).
    fn deletable(&self, func: &MachineFunction, i: Inst) -> bool {
        let inst = func.inst(i);
        let pure = match inst.op {
            Op::Generic(Generic::Copy | Generic::ImplicitDef) => true,
            Op::Target(op) => self.t.instrs.get(op.index()).is_some_and(|d| {
                !(d.is(InstrFlags::SIDE_EFFECTS)
                    || d.is(InstrFlags::MAY_STORE)
                    || d.is(InstrFlags::CALL)
                    || d.is(InstrFlags::TERMINATOR)
                    || d.is(InstrFlags::BRANCH)
                    || d.is(InstrFlags::RETURN)
                    || d.is(InstrFlags::BARRIER)
                    || d.is(InstrFlags::MAY_LOAD) && !inst.is_invariant_load())
            }),
            _ => false,
        };
        pure && inst.operands.iter().all(|o| match o {
            Operand::Reg(r) => match r.reg {
                RegRef::Virt(_) => !r.is_def() || r.flags.has(RegFlags::DEAD),
                RegRef::Phys(p) => {
                    if r.is_def() {
                        r.flags.has(RegFlags::DEAD)
                    } else {
                        r.flags.has(RegFlags::UNDEF) || self.t.is_reserved(p)
                    }
                }
                RegRef::NoReg => true,
            },
            Operand::RegMask(_) => false,
            _ => true,
        })
    }

    /// Why each copy left is there.
    fn stats(&self, func: &MachineFunction) -> CoalescerStats {
        let mut s = self.stats;
        for b in func.block_ids() {
            for &i in &func.block(b).insts {
                let inst = func.inst(i);
                if !inst.op.is_copy() {
                    continue;
                }
                let (Some(d), Some(r)) = (
                    inst.operands.first().and_then(Operand::as_reg),
                    inst.operands.get(1).and_then(Operand::as_reg),
                ) else {
                    continue;
                };
                match (d.reg, r.reg) {
                    (RegRef::Virt(_), RegRef::Virt(_)) if d.sub.is_some() || r.sub.is_some() => {
                        s.left_sub_register += 1
                    }
                    (RegRef::Virt(a), RegRef::Virt(c)) => {
                        if self.common_class(func, a, c).is_some() {
                            s.left_interference += 1;
                        } else {
                            s.left_class += 1;
                        }
                    }
                    _ => s.left_physical += 1,
                }
            }
        }
        s
    }
}

/// LLVM's `isCopyLike`: the instructions the coalescer visits.
fn is_copy_like(op: Op) -> bool {
    matches!(op, Op::Generic(Generic::Copy | Generic::SubregToReg))
}
