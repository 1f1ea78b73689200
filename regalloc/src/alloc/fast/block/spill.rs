//! The fast allocator's spill code: stack slots for virtual registers, spill and reload instructions appended to the function with their edits, and room for them in the instruction array.

use crate::{AllocError, AllocErrorKind};

use crate::ir::{Inst, InstData, MachineFunction};
use crate::record::Edit;
use crate::target::Reg;

use super::super::emit::{self, Kind};
use super::{Fast, NO_SLOT};

/// Size in bytes from which the instruction array grows in one large step
/// (see `Fast::grow_insts`).
const LARGE_INSTS: usize = 128 << 10;

impl Fast<'_, '_> {
    fn slot_of(&mut self, func: &mut MachineFunction, v: u32) -> u32 {
        let vi = v as usize;
        if self.v[vi].slot == NO_SLOT {
            let class = self.class_of(v);
            let id = self.f.next_slot;
            self.f.next_slot += 1;
            self.v[vi].slot = emit::new_slot(self.t, func, class, id, &self.f.info);
        }
        self.v[vi].slot
    }

    /// Builds a spill or reload of `v` in `r`, appends it to the function
    /// (not yet to a block) and records its edit.
    pub(super) fn slot_access(
        &mut self,
        func: &mut MachineFunction,
        v: u32,
        r: Reg,
        kind: Kind,
    ) -> Result<Inst, AllocError> {
        let slot = self.slot_of(func, v);
        let class = self.class_of(v);
        let data = emit::slot_access(self.t, class, r, slot, kind, &self.f.info).map_err(|m| {
            let text = func.vreg_text(crate::ir::VReg(v));
            self.err(AllocErrorKind::Unsupported, format!("{text}: {m}"))
        })?;
        let id = self.push_inst(func, data);
        let edit = match kind {
            Kind::Spill => Edit::Spill { from: r, slot },
            Kind::Reload => Edit::Reload { slot, to: r },
        };
        self.edits.push((id, edit));
        Ok(id)
    }

    /// Appends an inserted instruction to the function.
    #[inline]
    pub(super) fn push_inst(&mut self, func: &mut MachineFunction, data: InstData) -> Inst {
        if func.insts.len() == func.insts.capacity() {
            self.grow_insts(func);
        }
        func.insts.push(data);
        Inst::new(func.insts.len() - 1)
    }

    /// Makes room in the instruction array. A caller's fresh clone has no
    /// spare capacity, and doubling it copies the whole array (and, for a
    /// large function, touches fresh pages) for the few percent of
    /// instructions a fast allocation adds. Small exact steps first: while
    /// the allocator's block has room past the array's length, they grow
    /// it in place. Once a step has had to move the array, growth doubles
    /// as usual, so it moves at most once more. An array past the
    /// allocator's size classes (`LARGE_INSTS` bytes) has no room after
    /// it: any step moves it, so its first step is an eighth, enough for
    /// the spill code of nearly every function (AArch64's largest add a
    /// tenth), and it moves once where small steps moved it twice.
    ///
    /// Such a move goes into the array a previous large function left
    /// behind when it has the room (see `spare_insts`), and this array
    /// stays behind in its place: memory already mapped and touched, where
    /// a new allocation of a few hundred kilobytes is fresh pages, each
    /// faulted in and zeroed by the system on its first write.
    #[cold]
    fn grow_insts(&mut self, func: &mut MachineFunction) {
        let n = func.insts.len();
        if self.insts_moved {
            func.insts.reserve(n.max(16));
            return;
        }
        let bytes = n * std::mem::size_of::<InstData>();
        if bytes >= LARGE_INSTS {
            let want = n + n / 8 + 64;
            let mut room = if self.spare_insts.capacity() >= want {
                std::mem::take(&mut self.spare_insts)
            } else {
                Vec::with_capacity(want)
            };
            room.append(&mut func.insts);
            let old = std::mem::replace(&mut func.insts, room);
            if old.capacity() > self.spare_insts.capacity() {
                self.spare_insts = old;
            }
            self.insts_moved = true;
            return;
        }
        let before = func.insts.as_ptr();
        func.insts.reserve_exact(n / 64 + 8);
        self.insts_moved = func.insts.as_ptr() != before;
    }

    pub(super) fn insert_copy(&mut self, func: &mut MachineFunction, to: Reg, from: Reg) -> Inst {
        let id = self.push_inst(func, emit::copy(to, from));
        self.edits.push((id, Edit::Copy { from, to }));
        id
    }
}
