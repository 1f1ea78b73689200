//! The forward walk of a block: uses read copies' sources, redundant copies go, and dead copies go (LLVM's `ForwardCopyPropagateBlock`).

use crate::ir::{Block, Inst, MachineFunction, Operand, RegFlags, RegRef};
use crate::record::AllocRecord;
use crate::target::Reg;

use super::tracker::Tracked;
use super::{CopyPropagation, Erased, Pass};

impl Pass<'_, '_> {
    /// Walks block `b` forward; the copies to take out are left in
    /// `self.erased`.
    pub(super) fn forward_block(
        &mut self,
        func: &mut MachineFunction,
        record: &mut AllocRecord,
        b: Block,
        done: &mut CopyPropagation,
    ) {
        self.tracker.clear();
        self.maybe_dead.clear();
        let insts = func.block(b).insts.clone();
        let masks = mask_positions(func, &insts);
        let removed_reads = self.removed_reads(func, record, b);
        let t = self.facts.t;
        for (pos, &i) in insts.iter().enumerate() {
            for &r in removed_reads.get(&Some(i)).map_or(&[][..], |v| &v[..]) {
                self.read(t, r);
            }
            if let Some((dst, src)) = super::copy_regs(func.inst(i))
                && !self.facts.t.regs_overlap(dst, src)
            {
                self.forward_copy(func, record, &insts, &masks, pos, dst, src, done);
                continue;
            }
            self.forward_other(func, record, &insts, &masks, pos, done);
        }
        for &r in removed_reads.get(&None).map_or(&[][..], |v| &v[..]) {
            self.read(t, r);
        }
        // Copies whose destination a successor reads are live.
        let live_out = self.facts.live_out(func, b);
        for u in (0..t.units.len()).map(crate::target::RegUnit::new) {
            if live_out.has(u)
                && let Some(c) = self.tracker.copy_for_unit(u, false)
            {
                self.maybe_dead.retain(|&x| x != c);
            }
        }
        for &c in &self.maybe_dead {
            self.erased.push((c, Erased::Dead));
        }
        self.maybe_dead.clear();
        self.tracker.clear();
    }

    /// The COPY at `pos` (`dst = COPY src`, registers apart).
    #[allow(clippy::too_many_arguments)]
    fn forward_copy(
        &mut self,
        func: &mut MachineFunction,
        record: &mut AllocRecord,
        insts: &[Inst],
        masks: &[usize],
        pos: usize,
        dst: Reg,
        src: Reg,
        done: &mut CopyPropagation,
    ) {
        let t = self.facts.t;
        let i = insts[pos];
        // `dst` already holds `src` (`src = COPY dst` before), or the copy
        // repeats one before.
        if self.erase_if_redundant(func, insts, masks, pos, dst, src)
            || self.erase_if_redundant(func, insts, masks, pos, src, dst)
        {
            return;
        }
        self.forward_uses(func, record, insts, masks, pos, done);
        let Some((dst, src)) = super::copy_regs(func.inst(i)) else {
            return;
        };
        self.read(t, src);
        let implicit: Vec<(Reg, bool, bool)> = func.inst(i).operands[2..]
            .iter()
            .filter_map(Operand::as_reg)
            .filter_map(|r| match r.reg {
                RegRef::Phys(p) => Some((p, r.is_def(), reads(r))),
                _ => None,
            })
            .collect();
        for &(p, _, read) in &implicit {
            if read {
                self.read(t, p);
            }
        }
        if !self.facts.is_reserved(dst) {
            self.maybe_dead.push(i);
        }
        // Copies out of `dst` are stale, and so are those into it.
        self.tracker.clobber(t, dst);
        for &(p, def, _) in &implicit {
            if def {
                self.tracker.clobber(t, p);
            }
        }
        self.tracker.track(t, i, Tracked { dst, src, pos });
    }

    /// An instruction at `pos` other than a COPY between registers apart.
    fn forward_other(
        &mut self,
        func: &mut MachineFunction,
        record: &mut AllocRecord,
        insts: &[Inst],
        masks: &[usize],
        pos: usize,
        done: &mut CopyPropagation,
    ) {
        let t = self.facts.t;
        let i = insts[pos];
        // Early-clobber definitions are written before the uses are read.
        let early: Vec<(Reg, bool)> = func
            .inst(i)
            .operands
            .iter()
            .enumerate()
            .filter_map(|(k, o)| {
                let r = o.as_reg()?;
                let RegRef::Phys(p) = r.reg else { return None };
                r.flags
                    .has(RegFlags::EARLY_CLOBBER)
                    .then(|| (p, super::is_tied(t, func.inst(i), k)))
            })
            .collect();
        for (p, tied) in early {
            if tied {
                self.read(t, p);
            }
            self.tracker.clobber(t, p);
        }
        self.forward_uses(func, record, insts, masks, pos, done);
        let mut defs: Vec<Reg> = Vec::new();
        let mut has_mask = false;
        for o in &func.inst(i).operands {
            match o {
                Operand::RegMask(_) => has_mask = true,
                Operand::Reg(r) => {
                    let RegRef::Phys(p) = r.reg else { continue };
                    if r.is_def() && !r.flags.has(RegFlags::EARLY_CLOBBER) {
                        if !self.facts.is_constant(p) {
                            defs.push(p);
                        }
                    } else if reads(r) && !r.flags.has(RegFlags::DEBUG_USE) {
                        self.read(t, p);
                    }
                }
                _ => {}
            }
        }
        if has_mask {
            self.mask_kills_dead_copies(func, i);
        }
        for d in defs {
            self.tracker.clobber(t, d);
        }
    }

    /// A call's register masks clobber the destinations of the copies
    /// that may be dead: those are dead.
    fn mask_kills_dead_copies(&mut self, func: &MachineFunction, call: Inst) {
        let t = self.facts.t;
        let masks: Vec<&crate::ir::RegMask> = func
            .inst(call)
            .operands
            .iter()
            .filter_map(|o| match o {
                Operand::RegMask(m) => Some(m),
                _ => None,
            })
            .collect();
        let mut k = 0;
        while k < self.maybe_dead.len() {
            let c = self.maybe_dead[k];
            let Some((dst, _)) = super::copy_regs(func.inst(c)) else {
                k += 1;
                continue;
            };
            if masks.iter().any(|m| self.facts.clobbers(m, dst)) {
                self.tracker.clobber(t, dst);
                self.maybe_dead.remove(k);
                self.erased.push((c, Erased::Dead));
            } else {
                k += 1;
            }
        }
    }

    /// `r` is read: a copy into it is live.
    fn read(&mut self, t: &crate::target::TargetInfo<'_>, r: Reg) {
        for &u in t.units(r) {
            if let Some(c) = self.tracker.copy_for_unit(u, false) {
                self.maybe_dead.retain(|&x| x != c);
            }
        }
    }

    /// Whether a call's mask at a position in `span` clobbers `a` or `b`.
    fn mask_between(
        &self,
        func: &MachineFunction,
        insts: &[Inst],
        masks: &[usize],
        span: std::ops::Range<usize>,
        a: Reg,
        b: Reg,
    ) -> bool {
        masks
            .iter()
            .filter(|&p| span.contains(p))
            .flat_map(|&p| func.inst(insts[p]).operands.iter())
            .any(|o| {
                matches!(o, Operand::RegMask(m) if self.facts.clobbers(m, a) || self.facts.clobbers(m, b))
            })
    }

    /// The available copy whose destination contains `r`, with no call
    /// between it and `pos` clobbering its registers.
    fn find_avail_copy(
        &self,
        func: &MachineFunction,
        insts: &[Inst],
        masks: &[usize],
        pos: usize,
        r: Reg,
    ) -> Option<(Inst, Tracked)> {
        let (c, tc) = self.tracker.avail_copy(self.facts.t, r)?;
        (!self.mask_between(func, insts, masks, tc.pos..pos, tc.src, tc.dst)).then_some((c, tc))
    }

    /// Erases the COPY at `pos` when an available copy before it copied
    /// `src` to `def` (LLVM's `eraseIfRedundant`, whose first call passes
    /// the COPY's destination as `src`).
    fn erase_if_redundant(
        &mut self,
        func: &mut MachineFunction,
        insts: &[Inst],
        masks: &[usize],
        pos: usize,
        src: Reg,
        def: Reg,
    ) -> bool {
        let t = self.facts.t;
        // A reserved register's value may change behind the code's back.
        if self.facts.is_reserved(src) || self.facts.is_reserved(def) {
            return false;
        }
        let Some((prev, pc)) = self.find_avail_copy(func, insts, masks, pos, def) else {
            return false;
        };
        let prev_dead = func.inst(prev).operands[0]
            .as_reg()
            .is_some_and(|r| r.flags.has(RegFlags::DEAD));
        if prev_dead || !is_nop_copy(t, pc, src, def) {
            return false;
        }
        let i = insts[pos];
        let Some((copy_def, _)) = super::copy_regs(func.inst(i)) else {
            return false;
        };
        super::clear_kills(t, func, &insts[pc.pos..pos], copy_def);
        let undef_src = func.inst(i).operands[1]
            .as_reg()
            .is_some_and(|r| r.flags.has(RegFlags::UNDEF));
        if !undef_src && let Some(Operand::Reg(s)) = func.insts[prev.index()].operands.get_mut(1) {
            s.flags.set(RegFlags::UNDEF, false);
        }
        self.erased.push((i, Erased::Redundant));
        true
    }

    /// Uses of the instruction at `pos` that an available copy's
    /// destination holds read its source instead (LLVM's `forwardUses`).
    fn forward_uses(
        &mut self,
        func: &mut MachineFunction,
        record: &mut AllocRecord,
        insts: &[Inst],
        masks: &[usize],
        pos: usize,
        done: &mut CopyPropagation,
    ) {
        if self.tracker.is_empty() {
            return;
        }
        let t = self.facts.t;
        let i = insts[pos];
        for k in 0..func.inst(i).operands.len() {
            let Some(r) = func.inst(i).operands[k].as_reg() else {
                continue;
            };
            let RegRef::Phys(used) = r.reg else { continue };
            if r.is_def()
                || r.is_implicit()
                || r.flags.has(RegFlags::UNDEF)
                || !r.flags.has(RegFlags::RENAMABLE)
                || super::is_tied(t, func.inst(i), k)
            {
                continue;
            }
            let Some((copy, c)) = self.find_avail_copy(func, insts, masks, pos, used) else {
                continue;
            };
            let forwarded = if used == c.dst {
                c.src
            } else {
                match t
                    .sub_reg_index_of(c.dst, used)
                    .and_then(|idx| t.sub_reg(c.src, idx))
                {
                    Some(s) => s,
                    None => continue,
                }
            };
            // A reserved source only when constant (LLVM's
            // `isConstantPhysReg`); by description only, as the checker
            // follows only those (`$wzr`, not a never-written reserved one).
            if self.facts.is_reserved(c.src)
                && !t
                    .reg(c.src)
                    .flags
                    .contains(crate::target::RegFlags::CONSTANT)
            {
                continue;
            }
            if !self.facts.sub_uses.allows(t, i, k, forwarded)
                || !self.forwardable_class(func, c, i, k)
                || super::has_implicit_overlap(t, func.inst(i), k, used)
                || self.copy_partly_overwrites(func, i, c.src)
                || !super::edit_allows(record, i, used, true, t)
            {
                continue;
            }
            let src_op = func.inst(copy).operands[1].as_reg().map(|s| s.flags);
            let src_undef = src_op.is_some_and(|f| f.has(RegFlags::UNDEF));
            if let Some(Operand::Reg(op)) = func.insts[i.index()].operands.get_mut(k) {
                op.reg = RegRef::Phys(forwarded);
                // LLVM's `setReg` drops `renamable`, and nothing sets it again.
                op.flags.set(RegFlags::RENAMABLE, false);
                op.flags.set(RegFlags::UNDEF, src_undef);
            }
            super::rename_in_edit(record, i, used, forwarded, true);
            super::clear_kills(t, func, &insts[c.pos..=pos], c.src);
            done.forwarded += 1;
        }
    }

    /// Whether copy `c`'s source may replace operand `k` of `user`: the
    /// operand's class takes it, or `user` is a COPY and some class holds
    /// both the source and the user's destination (LLVM's
    /// `isForwardableRegClassCopy`; no class of the four targets copies
    /// through another, so the cross-class test never refuses).
    fn forwardable_class(&self, func: &MachineFunction, c: Tracked, user: Inst, k: usize) -> bool {
        let t = self.facts.t;
        let inst = func.inst(user);
        if let Some(class) = self.facts.class_constraint(inst, k) {
            return t.class_contains(class, c.src);
        }
        let Some((user_dst, _)) = super::copy_regs(inst) else {
            return false;
        };
        t.classes.iter().enumerate().any(|(n, _)| {
            let rc = crate::target::RegClass::new(n);
            t.class_contains(rc, c.src) && t.class_contains(rc, user_dst)
        })
    }

    /// Whether `user` is a COPY that writes part of `src` but not `src`
    /// itself: the tracker cannot follow a source partly overwritten.
    fn copy_partly_overwrites(&self, func: &MachineFunction, user: Inst, src: Reg) -> bool {
        let t = self.facts.t;
        let inst = func.inst(user);
        if !inst.op.is_copy() {
            return false;
        }
        let defs = inst
            .operands
            .iter()
            .filter_map(Operand::as_reg)
            .filter(|r| r.is_def());
        let mut modifies = false;
        let mut defines = false;
        for r in defs {
            if let RegRef::Phys(p) = r.reg {
                modifies |= t.regs_overlap(p, src);
                defines |= p == src;
            }
        }
        modifies && !defines
    }
}

/// Whether operand `r` reads its register (LLVM's `readsReg` after
/// allocation: a use that is not `undef` or `internal`).
fn reads(r: &crate::ir::RegOperand) -> bool {
    !r.is_def() && !r.flags.has(RegFlags::UNDEF) && !r.flags.has(RegFlags::INTERNAL)
}

/// The positions in `insts` of instructions with a register mask.
pub(super) fn mask_positions(func: &MachineFunction, insts: &[Inst]) -> Vec<usize> {
    insts
        .iter()
        .enumerate()
        .filter(|&(_, &i)| {
            func.inst(i)
                .operands
                .iter()
                .any(|o| matches!(o, Operand::RegMask(_)))
        })
        .map(|(p, _)| p)
        .collect()
}

/// Whether the earlier copy `prev` copied `src` to `def`, perhaps as
/// matching sub-registers of its own registers (LLVM's `isNopCopy`).
fn is_nop_copy(t: &crate::target::TargetInfo<'_>, prev: Tracked, src: Reg, def: Reg) -> bool {
    if prev.src == src && prev.dst == def {
        return true;
    }
    let Some(idx) = t.sub_reg_index_of(prev.src, src) else {
        return false;
    };
    t.sub_reg_index_of(prev.dst, def) == Some(idx)
}
