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
//! - a copy between virtual registers is a join ([`pair`]) when the
//!   classes allow: whole registers with a common sub-class (the
//!   description's class facts), or a copy into or of a sub-register
//!   (`undef %a.sub_32bit = COPY %b`, `%a = COPY %b.sub_32bit`), where the
//!   register without the sub-register becomes that sub-register of the
//!   other, in the largest sub-class of the other's class whose members
//!   have it in the first's class (LLVM's `getMatchingSuperRegClass`).
//!   The values of the two registers are compared lane by lane
//!   ([`join_vals`], LLVM's `JoinVals` on whole-register intervals, as
//!   LLVM does on every target but Hexagon): a value defined where the
//!   other register is live must be the other's through a copy between
//!   the two, an `IMPLICIT_DEF`, the same value through a chain of full
//!   copies, or write only lanes the other value does not hold (it then
//!   replaces it; an `IMPLICIT_DEF` so replaced in its own block goes).
//!   The register renamed is the one that becomes a sub-register, or
//!   for whole registers the copy's source unless its interval has more
//!   segments; the kept one takes the joined class. A definition renamed
//!   into a sub-register is `undef` unless its instruction reads the
//!   joined register (LLVM's `updateRegDefsUses`). The copies found
//!   equal are erased, and values left unread are flagged `dead`, their
//!   instructions erased when nothing else needs them (LLVM's
//!   dead-definition elimination);
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
//! copies between two sub-registers (LLVM looks for a common
//! super-register class, subject to target hooks such as AArch64's
//! zero-extension rule), lane sub-ranges (LLVM tracks them on Hexagon:
//! whole-register conflicts are stricter there), joins with reserved
//! physical registers, conflicts LLVM resolves by proving the clobbered
//! lanes unread before the block ends (`CR_Unresolved`, taken as
//! conflicts here), rematerialisation at sub-register copies, and LLVM's
//! last resorts when a join fails: adjusting copies back from a
//! definition, commuting the definition, and moving a partially
//! redundant copy to a predecessor. Register classes are not inflated
//! afterwards as LLVM's `recomputeRegClass` inflates them.

use crate::alloc::remat::{clobbers, is_constant, live_before, remat_instr};
use crate::analysis::intervals::unit_untracked;
use crate::analysis::{
    Cfg, DomTree, LiveIntervals, LiveRange, LoopInfo, Slot, SlotIndex, ranges::RangeBuilder,
};
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{Block, Generic, Inst, MachineFunction, Op, Operand, RegFlags, RegRef, VReg};
use crate::target::{InstrFlags, Reg, RegClass, TargetInfo};

use super::edit::{erase, insert};

mod join_vals;
mod pair;

use join_vals::{JoinVals, Replaced, Side, query};
use pair::{Pair, compose, copy_operands};

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
        let (dead, undef) = (d.flags.has(RegFlags::DEAD), s.flags.has(RegFlags::UNDEF));
        let partial = d.sub.is_some() || s.sub.is_some();
        match (d.reg, s.reg) {
            (RegRef::Virt(dv), RegRef::Virt(sv)) => {
                let classes = |v: VReg| func.vreg_class(v);
                let common = |a: RegClass, b: RegClass| self.common_sub_class(a, b);
                let Some(pair) = Pair::of_copy(self.t, &classes, &common, inst) else {
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
                // `LiveRange::size`, not the length `getSize`); a
                // sub-register copy keeps the register with the
                // sub-register.
                let size = |v: VReg| self.li.vreg(v).map_or(0, |iv| iv.range.segments.len());
                let pair = if !pair.partial && size(pair.src) > size(pair.dst) {
                    pair.flipped()
                } else {
                    pair
                };
                if self.join_virt(func, copy, pair) {
                    self.stats.joined += 1;
                    return Ok((true, false));
                }
                if partial {
                    return Ok((false, true));
                }
                let (done, _) =
                    self.remat_trivial_def(func, copy, RegRef::Virt(dv), sv, Some(pair.class))?;
                Ok((done, !done))
            }
            (RegRef::Phys(p), RegRef::Virt(sv)) if !partial => {
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
            (RegRef::Virt(dv), RegRef::Phys(p)) if !partial && !undef => {
                Ok((self.join_constant_phys(func, copy, dv, p), false))
            }
            _ => Ok((false, false)),
        }
    }

    /// LLVM's `joinReservedPhysReg` for a copy of a constant register
    /// (AArch64's `$wzr`, written only by `dead` definitions) into a virtual register with that one value:
    /// the register's readers read the constant register, and the copy
    /// goes. Whether it did. (A reserved register that some instruction
    /// writes needs its interference checked; not done here.)
    fn join_constant_phys(
        &mut self,
        func: &mut MachineFunction,
        copy: Inst,
        v: VReg,
        p: Reg,
    ) -> bool {
        let t = self.t;
        // LLVM's `isConstantPhysReg`, of a register LLVM reserves: the
        // description says so (`isConstant`; our descriptions do not
        // list such registers as reserved), or it is reserved and
        // nothing writes it.
        let constant = t.reg(p).flags.contains(crate::target::RegFlags::CONSTANT)
            || is_constant(t, &self.phys_defs, p);
        if !constant
            || !func.vreg_class(v).is_some_and(|c| t.class_contains(c, p))
            || self.li.vreg(v).is_none_or(|iv| iv.range.valnos.len() != 1)
        {
            return false;
        }
        let readers: Vec<Inst> = self.users[v.index()]
            .iter()
            .copied()
            .filter(|&i| i != copy && self.block_of[i.index()].is_some())
            .collect();
        // Every reader reads `p` or one of its sub-registers.
        let phys_of = |sub: Option<crate::target::SubRegIndex>| match sub {
            None => Some(p),
            Some(s) => t.sub_reg(p, s),
        };
        let readable = readers.iter().all(|&i| {
            func.inst(i)
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .all(|r| r.reg != RegRef::Virt(v) || (!r.is_def() && phys_of(r.sub).is_some()))
        });
        if !readable {
            return false;
        }
        self.erase_inst(func, copy);
        for &i in &readers {
            for o in &mut func.insts[i.index()].operands {
                if let Operand::Reg(r) = o
                    && r.reg == RegRef::Virt(v)
                    && let Some(q) = phys_of(r.sub)
                {
                    r.reg = RegRef::Phys(q);
                    r.sub = None;
                    r.flags.set(RegFlags::KILLED, false);
                }
            }
        }
        self.users[v.index()].clear();
        if let Some(x) = self.li.vregs.get_mut(v.index()) {
            *x = None;
        }
        self.stats.joined += 1;
        true
    }

    /// The largest class whose registers both classes hold (LLVM's
    /// `getCommonSubClass`: the first in the description's order).
    fn common_class(&self, func: &MachineFunction, a: VReg, b: VReg) -> Option<RegClass> {
        self.common_sub_class(func.vreg_class(a)?, func.vreg_class(b)?)
    }

    /// The largest class whose registers both `ca` and `cb` hold.
    fn common_sub_class(&self, ca: RegClass, cb: RegClass) -> Option<RegClass> {
        if ca == cb {
            return Some(ca);
        }
        (0..self.t.classes.len())
            .map(RegClass::new)
            .find(|&c| self.t.is_sub_class(c, ca) && self.t.is_sub_class(c, cb))
    }

    /// LLVM's `joinVirtRegs`: joins `pair.src` into `pair.dst` when no
    /// values conflict; whether it did.
    fn join_virt(&mut self, func: &mut MachineFunction, copy: Inst, pair: Pair) -> bool {
        let (keep, rename) = (pair.dst, pair.src);
        let (Some(lhs), Some(rhs)) = (self.li.vreg(keep), self.li.vreg(rename)) else {
            return false;
        };
        let (erased, replaced, reads) = {
            let sides = [
                Side {
                    reg: keep,
                    idx: None,
                    range: &lhs.range,
                },
                Side {
                    reg: rename,
                    idx: pair.src_idx,
                    range: &rhs.range,
                },
            ];
            let mut vals = JoinVals::new(self.t, func, &self.li, pair, sides);
            if !vals.resolve_all() {
                return false;
            }
            let live = [(&lhs.range, vals.dropped(0)), (&rhs.range, vals.dropped(1))];
            let Some(reads) = self.renamed_reads(func, pair, &live) else {
                return false;
            };
            (vals.erased(), vals.replaced(), reads)
        };
        self.mark_replacing_defs(func, &replaced);
        let mut shrink = Vec::new();
        for def in erased {
            let Some(mi) = self.li.slots.inst_at(def) else {
                continue;
            };
            if self.block_of[mi.index()].is_none() {
                continue;
            }
            if let Some((_, (RegRef::Virt(src), _))) = copy_operands(func.inst(mi))
                && src != keep
                && src != rename
            {
                shrink.push(src);
            }
            self.erase_inst(func, mi);
        }
        self.rename(func, pair, &reads);
        func.vregs[keep.index()].class = Some(pair.class);
        // The copy is one of the values erased; should it be left, it is
        // now an identity copy.
        if self.block_of[copy.index()].is_some()
            && copy_operands(func.inst(copy)).is_some_and(|(d, s)| d == s)
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

    /// For each instruction naming `pair.src`, whether it reads the
    /// joined register, which its definitions then keep (LLVM's
    /// `updateRegDefsUses`: it reads `src`, or lands in a sub-register
    /// where the joined register is live: where one of the two `live`
    /// ranges is, but for the values listed with it, which go). `None`
    /// when a sub-register of `src` has none in the joined register.
    fn renamed_reads(
        &self,
        func: &MachineFunction,
        pair: Pair,
        live: &[(&LiveRange, Vec<u32>); 2],
    ) -> Option<Vec<(Inst, bool)>> {
        let src = RegRef::Virt(pair.src);
        let mut out = Vec::new();
        for &i in &self.users[pair.src.index()] {
            if self.block_of.get(i.index()).copied().flatten().is_none() {
                continue;
            }
            let mut names = false;
            let mut reads = false;
            for r in func.inst(i).operands.iter().filter_map(Operand::as_reg) {
                if r.reg != src {
                    continue;
                }
                names = true;
                compose(self.t, pair.src_idx, r.sub)?;
                reads |= if r.is_def() {
                    r.sub.is_some() && !r.flags.has(RegFlags::UNDEF)
                } else {
                    !r.flags.has(RegFlags::UNDEF)
                };
            }
            if !names {
                continue;
            }
            if !reads
                && pair.src_idx.is_some()
                && let Some(at) = self.li.slots.inst(i)
            {
                let base = at.with(Slot::Block);
                reads = live.iter().any(|(range, dropped)| {
                    range
                        .segment_at(base)
                        .is_some_and(|s| !dropped.contains(&s.valno))
                });
            }
            out.push((i, reads));
        }
        Some(out)
    }

    /// A definition replacing the other register's value keeps the lanes
    /// it does not write, and is live on (LLVM's `pruneValues`).
    fn mark_replacing_defs(&self, func: &mut MachineFunction, replaced: &[Replaced]) {
        for r in replaced {
            let Some(mi) = self.li.slots.inst_at(r.def) else {
                continue;
            };
            for o in &mut func.insts[mi.index()].operands {
                let Operand::Reg(op) = o else { continue };
                if !op.is_def() || op.reg != RegRef::Virt(r.reg) {
                    continue;
                }
                if op.sub.is_some() && !r.replaces_implicit_def {
                    op.flags.set(RegFlags::UNDEF, false);
                }
                op.flags.set(RegFlags::DEAD, false);
            }
        }
    }

    /// Every operand naming `pair.src` names `pair.dst`, at `src`'s
    /// sub-register; a definition there is `undef` unless its
    /// instruction reads the joined register (`reads`).
    fn rename(&mut self, func: &mut MachineFunction, pair: Pair, reads: &[(Inst, bool)]) {
        let (from, to) = (pair.src, pair.dst);
        let moved = std::mem::take(&mut self.users[from.index()]);
        for &(i, reads) in reads {
            for o in &mut func.insts[i.index()].operands {
                let Operand::Reg(r) = o else { continue };
                if r.reg != RegRef::Virt(from) {
                    continue;
                }
                r.reg = RegRef::Virt(to);
                r.sub = compose(self.t, pair.src_idx, r.sub).flatten();
                if pair.src_idx.is_some() && r.is_def() {
                    r.flags.set(RegFlags::UNDEF, !reads);
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
