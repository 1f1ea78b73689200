//! The backward walk of a block: a definition whose value is only copied, and dies at the copy, writes the copy's destination instead (LLVM's `BackwardCopyPropagateBlock`).

use crate::analysis::phys_liveness::UnitSet;
use crate::ir::{Block, Inst, MachineFunction, Operand, RegFlags, RegRef};
use crate::record::AllocRecord;
use crate::target::{Reg, TargetInfo};

use super::tracker::Tracked;
use super::{Erased, Pass};

impl Pass<'_, '_> {
    /// Walks block `b` backward; the copies to take out are left in
    /// `self.erased`.
    pub(super) fn backward_block(
        &mut self,
        func: &mut MachineFunction,
        record: &mut AllocRecord,
        b: Block,
    ) {
        let t = self.facts.t;
        self.tracker.clear();
        self.maybe_dead.clear();
        let insts = func.block(b).insts.clone();
        let masks = super::forward::mask_positions(func, &insts);
        let removed_reads = self.removed_reads(func, record, b);
        let removed_read = |at: Option<Inst>| removed_reads.get(&at).map_or(&[][..], |v| &v[..]);
        // The units live after the instruction being walked.
        let mut live = self.facts.live_out(func, b);
        for &r in removed_read(None) {
            self.tracker.invalidate(t, r);
            for &u in t.units(r) {
                live.add(u);
            }
        }
        for pos in (0..insts.len()).rev() {
            let i = insts[pos];
            if pos + 1 < insts.len() {
                // What was taken out before the instruction walked last.
                for &r in removed_read(Some(insts[pos + 1])) {
                    self.tracker.invalidate(t, r);
                    for &u in t.units(r) {
                        live.add(u);
                    }
                }
            }
            let copy = super::copy_regs(func.inst(i)).filter(|_| func.inst(i).operands.len() == 2);
            // LLVM reads `killed` on the source; kill flags are not kept
            // after rewriting, so liveness says it.
            let dies = copy.is_some_and(|(_, src)| t.units(src).iter().all(|&u| !live.has(u)));
            step_back(self, func, i, &mut live);
            if let Some((dst, src)) = copy
                && !t.regs_overlap(dst, src)
                && self.backward_propagatable(func, i, dst, src, dies)
            {
                self.tracker.invalidate(t, src);
                self.tracker.invalidate(t, dst);
                self.tracker.track(t, i, Tracked { dst, src, pos });
                continue;
            }
            // Early-clobber definitions are written before the uses are read.
            let early: Vec<Reg> = func
                .inst(i)
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .filter(|r| r.flags.has(RegFlags::EARLY_CLOBBER))
                .filter_map(|r| match r.reg {
                    RegRef::Phys(p) => Some(p),
                    _ => None,
                })
                .collect();
            for p in early {
                self.tracker.invalidate(t, p);
            }
            self.propagate_defs(func, record, &insts, &masks, pos);
            for o in func
                .inst(i)
                .operands
                .clone()
                .iter()
                .filter_map(Operand::as_reg)
            {
                let RegRef::Phys(p) = o.reg else { continue };
                let reads = !o.is_def()
                    && !o.flags.has(RegFlags::UNDEF)
                    && !o.flags.has(RegFlags::INTERNAL)
                    && !o.flags.has(RegFlags::DEBUG_USE);
                if o.is_def() || reads {
                    self.tracker.invalidate(t, p);
                }
            }
        }
        for &c in &self.maybe_dead {
            self.erased.push((c, Erased::Backward));
        }
        self.maybe_dead.clear();
        self.tracker.clear();
    }

    /// Whether `dst = COPY src` (instruction `i`) may take the place of
    /// the definition of `src` before it: neither register reserved, the
    /// source `renamable` and dying at the copy (`dies`, or `killed`).
    fn backward_propagatable(
        &self,
        func: &MachineFunction,
        i: Inst,
        dst: Reg,
        src: Reg,
        dies: bool,
    ) -> bool {
        if self.facts.is_reserved(dst) || self.facts.is_reserved(src) {
            return false;
        }
        func.inst(i).operands[1].as_reg().is_some_and(|s| {
            s.flags.has(RegFlags::RENAMABLE) && (dies || s.flags.has(RegFlags::KILLED))
        })
    }

    /// Definitions of the instruction at `pos` whose value a later copy
    /// only moves write the copy's destination instead; the copy is then a
    /// candidate to go (LLVM's `propagateDefs`).
    fn propagate_defs(
        &mut self,
        func: &mut MachineFunction,
        record: &mut AllocRecord,
        insts: &[Inst],
        masks: &[usize],
        pos: usize,
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
            let RegRef::Phys(defined) = r.reg else {
                continue;
            };
            if !r.is_def()
                || r.is_implicit()
                || r.flags.has(RegFlags::UNDEF)
                || !r.flags.has(RegFlags::RENAMABLE)
                || super::is_tied(t, func.inst(i), k)
            {
                continue;
            }
            let Some((copy, c)) = self.tracker.avail_backward_copy(t, defined) else {
                continue;
            };
            if c.src != defined
                || self.mask_after(func, insts, masks, pos, c.pos, c.src, c.dst)
                || !self
                    .facts
                    .class_constraint(func.inst(i), k)
                    .is_some_and(|rc| t.class_contains(rc, c.dst))
                || super::has_implicit_overlap(t, func.inst(i), k, defined)
                || overlapping_other_def(t, func, i, k, c.dst)
                || !super::edit_allows(record, i, defined, false, t)
            {
                continue;
            }
            let dst_renamable = func.inst(copy).operands[0]
                .as_reg()
                .is_some_and(|d| d.flags.has(RegFlags::RENAMABLE));
            if let Some(Operand::Reg(op)) = func.insts[i.index()].operands.get_mut(k) {
                op.reg = RegRef::Phys(c.dst);
                op.flags.set(RegFlags::RENAMABLE, dst_renamable);
            }
            super::rename_in_edit(record, i, defined, c.dst, false);
            if !self.maybe_dead.contains(&copy) {
                self.maybe_dead.push(copy);
            }
        }
    }

    /// Whether a call's mask after position `from` up to `to` (included)
    /// clobbers `a` or `b`.
    #[allow(clippy::too_many_arguments)]
    fn mask_after(
        &self,
        func: &MachineFunction,
        insts: &[Inst],
        masks: &[usize],
        from: usize,
        to: usize,
        a: Reg,
        b: Reg,
    ) -> bool {
        masks
            .iter()
            .filter(|&&p| from < p && p <= to)
            .flat_map(|&p| func.inst(insts[p]).operands.iter())
            .any(|o| {
                matches!(o, Operand::RegMask(m) if self.facts.clobbers(m, a) || self.facts.clobbers(m, b))
            })
    }
}

/// Whether another definition of instruction `i` than operand `k` is
/// `r`, or a sub- or super-register of it (LLVM's
/// `hasOverlappingMultipleDef`).
fn overlapping_other_def(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    i: Inst,
    k: usize,
    r: Reg,
) -> bool {
    func.inst(i).operands.iter().enumerate().any(|(j, o)| {
        j != k
            && o.as_reg().is_some_and(|x| {
                x.is_def()
                    && matches!(x.reg, RegRef::Phys(p)
                        if p == r || t.sub_reg_index_of(p, r).is_some() || t.sub_reg_index_of(r, p).is_some())
            })
    })
}

/// Steps the live units `live` back over instruction `i` (as it is
/// before the walk changes it): what it writes or a mask clobbers is
/// dead before it, what it reads is live.
fn step_back(pass: &Pass<'_, '_>, func: &MachineFunction, i: Inst, live: &mut UnitSet) {
    let t = pass.facts.t;
    for o in &func.inst(i).operands {
        match o {
            Operand::Reg(r) if r.is_def() => {
                if let RegRef::Phys(p) = r.reg {
                    for &u in t.units(p) {
                        live.remove(u);
                    }
                }
            }
            Operand::RegMask(m) => {
                for u in (0..t.units.len()).map(crate::target::RegUnit::new) {
                    if t.unit_roots(u).any(|r| pass.facts.clobbers(m, r)) {
                        live.remove(u);
                    }
                }
            }
            _ => {}
        }
    }
    for o in &func.inst(i).operands {
        if let Operand::Reg(r) = o
            && !r.is_def()
            && !r.flags.has(RegFlags::UNDEF)
            && let RegRef::Phys(p) = r.reg
        {
            for &u in t.units(p) {
                live.add(u);
            }
        }
    }
}
