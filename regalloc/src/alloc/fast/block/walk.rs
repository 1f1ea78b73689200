//! The fast allocator's walk over one block: each instruction from the bottom up, then the block's new instruction list (reloads for the top, inserted code, identity copies taken out).

use crate::AllocError;

use crate::ir::{Block, Generic, Inst, MachineFunction, Op};
use crate::record::Removed;
use crate::target::Reg;

use super::super::emit::Kind;
use super::{FIXED, FREE, Fast, NO_REG};

impl Fast<'_, '_> {
    /// Allocates block `b`, bottom up.
    pub fn allocate_block(
        &mut self,
        func: &mut MachineFunction,
        b: Block,
    ) -> Result<(), AllocError> {
        self.enter_block(func, b);
        let insts = std::mem::take(&mut func.blocks[b.index()].insts);
        let mut rev = std::mem::take(&mut self.rev);
        rev.clear();
        let walked = self
            .walk_instructions(func, &insts, &mut rev)
            .and_then(|any_removed| Ok((self.reload_live_at_top(func)?, any_removed)));
        let insts = match walked {
            Ok((begin, any_removed)) => {
                let insts = self.new_list(func, b, insts, &rev, &begin, any_removed);
                self.lists.begin = begin;
                insts
            }
            Err(e) => {
                func.blocks[b.index()].insts = insts;
                self.rev = rev;
                return Err(e);
            }
        };
        func.blocks[b.index()].insts = insts;
        self.rev = rev;
        Ok(())
    }

    /// Starts block `b`: every unit free but the physical registers live
    /// into a successor, which stay untouched here.
    fn enter_block(&mut self, func: &MachineFunction, b: Block) {
        self.block = b;
        self.unit_state.fill(FREE);
        self.epoch += 1;
        self.lists.live_list.clear();
        self.has_succs = !func.block(b).succs.is_empty();
        for s in 0..func.block(b).succs.len() {
            let sb = func.block(b).succs[s].block;
            for l in 0..func.block(sb).live_ins.len() {
                let r = func.block(sb).live_ins[l].reg;
                if !self.is_reserved(r) {
                    self.set_state(r, FIXED);
                }
            }
        }
    }

    /// Allocates the block's instructions `insts` from the bottom up,
    /// listing in `rev`, bottom first, each one with the code inserted
    /// around it. Whether any is an identity copy to take out (marked in
    /// `removing`).
    fn walk_instructions(
        &mut self,
        func: &mut MachineFunction,
        insts: &[Inst],
        rev: &mut Vec<Inst>,
    ) -> Result<bool, AllocError> {
        let mut any_removed = false;
        for &mi in insts.iter().rev() {
            self.inst = mi;
            self.lists.after.clear();
            self.lists.before.clear();
            let identity = self.allocate_inst(func, mi)?;
            // Most instructions get nothing around them: skip the two
            // extends (each a capacity check) then.
            if !self.lists.after.is_empty() {
                rev.extend_from_slice(&self.lists.after);
            }
            rev.push(mi);
            if !self.lists.before.is_empty() {
                rev.extend(self.lists.before.iter().rev());
            }
            if identity {
                self.removing[mi.index()] = true;
                any_removed = true;
            }
        }
        Ok(any_removed)
    }

    /// The reloads of the values still wanted at the top, which come from
    /// their slots.
    fn reload_live_at_top(&mut self, func: &mut MachineFunction) -> Result<Vec<Inst>, AllocError> {
        let mut begin = std::mem::take(&mut self.lists.begin);
        begin.clear();
        for i in 0..self.lists.live_list.len() {
            let v = self.lists.live_list[i];
            let p = self.v[v as usize].phys;
            if p != NO_REG {
                begin.push(self.slot_access(func, v, Reg(p), Kind::Reload)?);
            }
        }
        Ok(begin)
    }

    /// The block's new instruction list, in layout order, in the block's
    /// own vector `insts`: labels, the reloads for the top (`begin`), the
    /// rest of `rev` (identity copies taken out when `any_removed`). It
    /// has room unless something was inserted; then it is replaced rather
    /// than grown (growing would copy the old entries, all of them stale).
    fn new_list(
        &mut self,
        func: &MachineFunction,
        b: Block,
        mut insts: Vec<Inst>,
        rev: &[Inst],
        begin: &[Inst],
        any_removed: bool,
    ) -> Vec<Inst> {
        let n = rev.len() + begin.len();
        insts.clear();
        if insts.capacity() < n {
            insts = Vec::with_capacity(n);
        }
        let at = rev
            .iter()
            .rev()
            .take_while(|&&i| {
                matches!(
                    func.inst(i).op,
                    Op::Generic(Generic::EhLabel | Generic::GcLabel | Generic::AnnotationLabel)
                )
            })
            .count();
        let (rest, labels) = rev.split_at(rev.len() - at);
        insts.extend(labels.iter().rev());
        insts.extend_from_slice(begin);
        if any_removed {
            self.take_out_identity_copies(b, rest, &mut insts);
        } else {
            insts.extend(rest.iter().rev());
        }
        insts
    }

    /// Copies `rest` (bottom first) into `insts` in layout order, taking
    /// out the identity copies and recording where each stood.
    fn take_out_identity_copies(&mut self, b: Block, rest: &[Inst], insts: &mut Vec<Inst>) {
        // Identity copies are taken out while the rest is copied in
        // (one pass, not a copy and then a filtering pass). Labels and
        // the reloads for the top are never taken out and come first,
        // so only the rest has removed entries. Removed entries from
        // `pending` on wait for the next kept instruction; those after
        // the last one stay `None` (at the end).
        let mut pending = self.record.removed.len();
        for &i in rest.iter().rev() {
            if i.index() < self.removing.len() && self.removing[i.index()] {
                self.record.removed.push(Removed {
                    inst: i,
                    block: b,
                    before: None,
                });
            } else {
                for r in &mut self.record.removed[pending..] {
                    r.before = Some(i);
                }
                pending = self.record.removed.len();
                insts.push(i);
            }
        }
    }
}
