//! One operand at a time: rewriting it to its physical register, a virtual register's definition (spilled when it lives out or was reloaded below) and use (a register found when it has none), and debug operands.

use crate::ir::{Inst, MachineFunction, Operand, RegFlags, RegRef};
use crate::target::Reg;
use crate::{AllocError, AllocErrorKind};

use super::super::emit::Kind;
use super::{Fast, LIVE_OUT, NO_REG, RELOADED, RegInfo, VDef};

impl Fast<'_, '_> {
    pub(super) fn reg_info(func: &MachineFunction, mi: Inst, k: usize) -> Option<RegInfo> {
        match func.inst(mi).operands.get(k) {
            Some(Operand::Reg(r)) => Some(RegInfo {
                reg: r.reg,
                sub: r.sub,
                flags: r.flags,
                tied_to: r.tied_to,
            }),
            _ => None,
        }
    }

    /// Rewrites operand `k` to physical register `r` (or its sub-register
    /// the operand names). Nearly every operand names no sub-register:
    /// that case is done here, inline, the rest by [`Self::rewrite_sub`].
    #[inline]
    pub(super) fn rewrite(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        r: Reg,
    ) -> Result<(), AllocError> {
        if let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k)
            && op.sub.is_none()
        {
            op.reg = RegRef::Phys(r);
            op.flags.set(RegFlags::RENAMABLE, true);
            return Ok(());
        }
        self.rewrite_sub(func, mi, k, r)
    }

    /// [`Self::rewrite`] for an operand with a sub-register.
    #[cold]
    pub(super) fn rewrite_sub(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        r: Reg,
    ) -> Result<(), AllocError> {
        let t = self.t;
        let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k) else {
            return Ok(());
        };
        let target = match op.sub {
            None => r,
            Some(s) => match t.sub_reg(r, s) {
                Some(sr) => sr,
                None => {
                    let msg = format!(
                        "operand {k}: {} has no sub-register {}",
                        self.reg_name(r),
                        t.sub_reg_index(s).name
                    );
                    return Err(self.err(AllocErrorKind::OverConstrained, msg));
                }
            },
        };
        if op.sub.is_some() && op.is_def() && op.flags.has(RegFlags::UNDEF) {
            // The other lanes become undefined: the whole register is written.
            self.lists.implicit_defs.push(r);
            op.flags.set(RegFlags::UNDEF, false);
        }
        op.reg = RegRef::Phys(target);
        op.sub = None;
        op.flags.set(RegFlags::RENAMABLE, true);
        Ok(())
    }

    /// Definition `k` of `mi` (with `flags`, as the scan read them) of
    /// `v`. A definition that stays live through the instruction avoids
    /// fixed-register uses and keeps its register above it. (Inlined into
    /// the instruction step: nearly every instruction defines one.)
    #[inline(always)]
    pub(super) fn define_vreg(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: u32,
        live_through: bool,
        flags: RegFlags,
    ) -> Result<(), AllocError> {
        let (fixed_uses, keep) = (live_through, live_through);
        let vi = v as usize;
        if !self.is_live(v) {
            self.make_live(v);
            if !flags.has(RegFlags::DEAD) && self.may_live_out(v) {
                self.v[vi].flags |= LIVE_OUT;
            }
        }
        if self.v[vi].phys == NO_REG {
            self.alloc_vreg(func, v, None, fixed_uses)?;
        }
        let r = Reg(self.v[vi].phys);
        if self.v[vi].flags & (LIVE_OUT | RELOADED) != 0 {
            let id = self.slot_access(func, v, r, Kind::Spill)?;
            self.lists.after.push(id);
        }
        self.v[vi].flags &= !(LIVE_OUT | RELOADED);
        self.mark_used(r);
        self.rewrite(func, mi, k, r)?;
        self.v[vi].defs = self.v[vi].defs.saturating_sub(1);
        self.lists.vdefs.push(VDef {
            k,
            v,
            reg: r,
            keep,
            early: flags.has(RegFlags::EARLY_CLOBBER),
        });
        Ok(())
    }

    /// A definition whose register must stay distinct from the uses it does
    /// not share (early-clobber, tied, partial): if the register it has from
    /// below is used here, it gets a new one, copied to the old one after
    /// the instruction.
    pub(super) fn define_live_through(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: u32,
        flags: RegFlags,
    ) -> Result<(), AllocError> {
        let vi = v as usize;
        if self.is_live(v) && self.v[vi].phys != NO_REG {
            let prev = Reg(self.v[vi].phys);
            if self.is_used(prev, true) {
                self.free_reg(prev);
                self.alloc_vreg(func, v, None, true)?;
                let new = Reg(self.v[vi].phys);
                let id = self.insert_copy(func, prev, new);
                self.lists.after.push(id);
            }
        }
        self.define_vreg(func, mi, k, v, true, flags)
    }

    /// Use `k` of `mi`, which says `info` (read by the caller, not
    /// rewritten yet), of `v`.
    pub(super) fn use_vreg(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: u32,
        info: RegInfo,
    ) -> Result<Reg, AllocError> {
        let vi = v as usize;
        if !self.is_live(v) {
            self.make_live(v);
            if !info.flags.has(RegFlags::KILLED) && self.may_live_out(v) {
                self.v[vi].flags |= LIVE_OUT;
            }
        }
        if self.v[vi].phys == NO_REG {
            // A full copy to a register already assigned hints that register.
            let hint = match (func.inst(mi).op.is_copy(), Self::reg_info(func, mi, 1)) {
                (true, Some(src)) if src.sub.is_none() => match Self::reg_info(func, mi, 0) {
                    Some(RegInfo {
                        reg: RegRef::Phys(p),
                        ..
                    }) => Some(p),
                    _ => None,
                },
                _ => None,
            };
            self.alloc_vreg(func, v, hint, false)?;
        }
        let r = Reg(self.v[vi].phys);
        self.mark_used(r);
        self.rewrite(func, mi, k, r)?;
        self.v[vi].uses = self.v[vi].uses.saturating_sub(1);
        Ok(r)
    }

    pub(super) fn rewrite_debug(&mut self, func: &mut MachineFunction, mi: Inst) {
        let t = self.t;
        for o in func.insts[mi.index()].operands.iter_mut() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Virt(v) = r.reg else { continue };
            let vi = v.index();
            let (p, live) = self
                .v
                .get(vi)
                .map_or((NO_REG, false), |x| (x.phys, x.live_epoch == self.epoch));
            r.reg = if live && p != NO_REG {
                let p = Reg(p);
                match r.sub {
                    None => RegRef::Phys(p),
                    Some(s) => t.sub_reg(p, s).map_or(RegRef::NoReg, RegRef::Phys),
                }
            } else {
                RegRef::NoReg
            };
            r.sub = None;
        }
    }
}
