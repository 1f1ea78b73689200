//! The fast allocator's walk over one block: each instruction from the bottom up, then the block's new instruction list (reloads for the top, inserted code, identity copies taken out).

use crate::AllocError;

use crate::ir::{Block, Generic, MachineFunction, Op};
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
        self.block = b;
        self.unit_state.fill(FREE);
        self.epoch += 1;
        self.lists.live_list.clear();
        self.has_succs = !func.block(b).succs.is_empty();
        // Physical registers live into a successor stay untouched here.
        for s in 0..func.block(b).succs.len() {
            let sb = func.block(b).succs[s].block;
            for l in 0..func.block(sb).live_ins.len() {
                let r = func.block(sb).live_ins[l].reg;
                if !self.is_reserved(r) {
                    self.set_state(r, FIXED);
                }
            }
        }
        let mut insts = std::mem::take(&mut func.blocks[b.index()].insts);
        let mut rev = std::mem::take(&mut self.rev);
        rev.clear();
        let mut any_removed = false;
        for &mi in insts.iter().rev() {
            self.inst = mi;
            self.lists.after.clear();
            self.lists.before.clear();
            let identity = match self.allocate_inst(func, mi) {
                Ok(x) => x,
                Err(e) => {
                    func.blocks[b.index()].insts = insts;
                    self.rev = rev;
                    return Err(e);
                }
            };
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
        // Values still wanted at the top come from their slots.
        let mut begin = std::mem::take(&mut self.lists.begin);
        begin.clear();
        for i in 0..self.lists.live_list.len() {
            let v = self.lists.live_list[i];
            let p = self.v[v as usize].phys;
            if p != NO_REG {
                match self.slot_access(func, v, Reg(p), Kind::Reload) {
                    Ok(id) => begin.push(id),
                    Err(e) => {
                        func.blocks[b.index()].insts = insts;
                        self.rev = rev;
                        return Err(e);
                    }
                }
            }
        }
        // The new list goes into the block's own vector, in layout order:
        // labels, the reloads for the top, the rest. It has room unless
        // something was inserted; then it is replaced rather than grown
        // (growing would copy the old entries, all of them stale).
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
        insts.extend_from_slice(&begin);
        self.lists.begin = begin;
        if any_removed {
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
        } else {
            insts.extend(rest.iter().rev());
        }
        func.blocks[b.index()].insts = insts;
        self.rev = rev;
        Ok(())
    }
}
