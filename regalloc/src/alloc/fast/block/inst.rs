//! One instruction: its operands scanned once, then fixed-register definitions, virtual definitions, the registers definitions free, register masks, fixed-register uses, virtual uses, `undef` uses, early-clobbers and ties, in LLVM's RegAllocFast order.

use crate::ir::{Inst, MachineFunction, Op, Operand, RegFlags, RegMask, RegOperand, RegRef, VReg};
use crate::target::Reg;
use crate::{AllocError, AllocErrorKind};

use super::super::prepare::is_debug;
use super::{FIXED, Fast, Mask, NO_REG, RegInfo};

/// What the operand scan of one instruction found, for the passes after
/// it.
#[derive(Copy, Clone, Default)]
struct Scan {
    /// Some virtual definition stays live through the instruction
    /// (early-clobber, tied to a use, a partial definition, or read by an
    /// instruction of unknown description).
    live_through: bool,
    /// Some fixed-register use of a register not reserved.
    has_fixed_use: bool,
    /// Some early-clobber definition, virtual or physical.
    has_early: bool,
    /// Some `undef` use of a virtual register.
    has_undef_use: bool,
    /// How many operands the instruction had before allocation.
    operands: usize,
}

impl Fast<'_, '_> {
    /// Allocates the operands of `mi`; returns whether it became an
    /// identity copy to take out. (Inlined into the block walk, its only
    /// caller; each step below is inlined into it.)
    #[inline(always)]
    pub(super) fn allocate_inst(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
    ) -> Result<bool, AllocError> {
        self.stamp = self.stamp.wrapping_add(2);
        if self.stamp < 2 {
            // The stamp wrapped: forget every old stamp.
            self.used.fill(0);
            self.stamp = 2;
        }
        if is_debug(func.inst(mi).op) {
            self.rewrite_debug(func, mi);
            return Ok(false);
        }
        // 1. Scan the operands once.
        let scan = self.scan_operands(func, mi);
        // 2. Fixed-register definitions take their registers now, in
        // operand order (the scan read no register state).
        for i in 0..self.lists.pdefs.len() {
            let (p, _) = self.lists.pdefs[i];
            self.displace(func, p)?;
            self.set_state(p, FIXED);
            self.mark_used(p);
        }
        // 3. Virtual register definitions.
        self.define_vregs(func, mi, scan.live_through)?;
        // 4. Definitions end their values here (going up): free their
        // registers.
        self.free_defined();
        // 5. A call's register mask clobbers what lives in the registers it
        // does not preserve: those values are reloaded after the call.
        if !self.lists.masks.is_empty() {
            self.displace_clobbered(func)?;
        }
        // 6. Fixed-register uses: live from their definition above down to
        // here.
        if scan.has_fixed_use {
            self.use_fixed_regs(func)?;
        }
        // 7. Virtual register uses.
        self.use_vregs(func, mi)?;
        // 8. `undef` uses.
        if scan.has_undef_use {
            self.use_undefs(func, mi, scan.operands)?;
        }
        // 9. Early-clobbers and definitions tied to other registers end
        // here.
        self.free_late(func, mi, scan.has_early);
        for i in 0..self.lists.implicit_defs.len() {
            let r = self.lists.implicit_defs[i];
            func.insts[mi.index()]
                .operands
                .push(Operand::Reg(RegOperand {
                    flags: RegFlags::DEF | RegFlags::IMPLICIT,
                    ..RegOperand::use_of(r)
                }));
        }
        self.done[mi.index()] = true;
        Ok(is_identity_copy(func, mi))
    }

    /// Step 1 of [`Fast::allocate_inst`]: scans the operands once,
    /// borrowing them (nothing is taken or inserted meanwhile), and lists
    /// what the steps after visit: register masks, virtual definitions,
    /// virtual uses, physical registers read and defined, each in operand
    /// order. The steps then visit only their own operands instead of
    /// every operand again; they index the lists rather than take them out
    /// and put them back (two moves and a drop per list and instruction).
    #[inline(always)]
    fn scan_operands(&mut self, func: &MachineFunction, mi: Inst) -> Scan {
        self.lists.masks.clear();
        self.lists.vdefs.clear();
        self.lists.pdefs.clear();
        self.lists.late_free.clear();
        self.lists.implicit_defs.clear();
        self.lists.def_order.clear();
        self.lists.uses.clear();
        self.lists.fixed_uses.clear();
        let ops = &func.insts[mi.index()].operands;
        let unknown_op = matches!(func.insts[mi.index()].op, Op::Unknown(_));
        let mut scan = Scan {
            operands: ops.len(),
            ..Scan::default()
        };
        let reserved = self.reserved;
        let lists = &mut self.lists;
        for (k, o) in ops.iter().enumerate() {
            match o {
                Operand::Reg(r) => match r.reg {
                    RegRef::Virt(v) if r.is_def() => {
                        scan.has_early |= r.flags.has(RegFlags::EARLY_CLOBBER);
                        let lt = r.flags.has(RegFlags::EARLY_CLOBBER)
                            || tied_to_read(ops, k)
                            || (unknown_op && reads_vreg(ops, v))
                            || (r.sub.is_some() && !r.flags.has(RegFlags::UNDEF));
                        scan.live_through |= lt;
                        lists.def_order.push((k, v.0, lt, r.flags));
                    }
                    RegRef::Virt(_) if r.flags.has(RegFlags::UNDEF) => scan.has_undef_use = true,
                    RegRef::Virt(_) => lists.uses.push((
                        k,
                        RegInfo {
                            reg: r.reg,
                            sub: r.sub,
                            flags: r.flags,
                            tied_to: r.tied_to,
                        },
                    )),
                    RegRef::Phys(p) => {
                        let is_reserved = reserved.get(p.index()).copied().unwrap_or(true);
                        if r.is_def() {
                            if !is_reserved {
                                let early = r.flags.has(RegFlags::EARLY_CLOBBER);
                                scan.has_early |= early;
                                let keep = early || tied_to_read(ops, k);
                                lists.pdefs.push((p, keep));
                            }
                        } else if !r.flags.has(RegFlags::UNDEF) {
                            lists.fixed_uses.push((p, is_reserved));
                            scan.has_fixed_use |= !is_reserved;
                        }
                    }
                    _ => {}
                },
                Operand::RegMask(RegMask::Named(s)) => lists.masks.push(Mask::Named(*s)),
                Operand::RegMask(RegMask::Custom(l)) => lists.masks.push(Mask::Custom(l.clone())),
                _ => {}
            }
        }
        scan
    }

    /// Step 3 of [`Fast::allocate_inst`]: the virtual definitions get
    /// registers, those live through the instruction first (when
    /// `live_through`), avoiding the fixed registers it reads.
    #[inline(always)]
    fn define_vregs(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        live_through: bool,
    ) -> Result<(), AllocError> {
        if self.lists.def_order.is_empty() {
            return Ok(());
        }
        if live_through {
            // Registers that stay live through the instruction must
            // avoid the fixed registers it reads.
            for i in 0..self.lists.fixed_uses.len() {
                self.mark_fixed_use(self.lists.fixed_uses[i].0);
            }
            self.lists.def_order.sort_by_key(|&(k, _, lt, _)| (!lt, k));
        }
        for i in 0..self.lists.def_order.len() {
            let (k, v, lt, flags) = self.lists.def_order[i];
            if lt {
                self.define_live_through(func, mi, k, v, flags)?;
            } else {
                self.define_vreg(func, mi, k, v, false, flags)?;
            }
        }
        Ok(())
    }

    /// Step 4 of [`Fast::allocate_inst`]: the registers of the
    /// definitions not kept to the instruction's end are free above it.
    #[inline(always)]
    fn free_defined(&mut self) {
        for i in (0..self.lists.pdefs.len()).rev() {
            let (p, keep) = self.lists.pdefs[i];
            if !keep {
                self.free_reg(p);
                self.unmark(p);
            }
        }
        for i in (0..self.lists.vdefs.len()).rev() {
            let d = self.lists.vdefs[i];
            if d.keep {
                continue;
            }
            if self.v[d.v as usize].phys == d.reg.0 {
                self.free_reg(d.reg);
            }
            self.unmark(d.reg);
        }
    }

    /// Step 5 of [`Fast::allocate_inst`]: the live values in registers the
    /// instruction's masks clobber are moved out of them.
    #[inline(always)]
    fn displace_clobbered(&mut self, func: &mut MachineFunction) -> Result<(), AllocError> {
        for i in 0..self.lists.live_list.len() {
            let v = self.lists.live_list[i];
            let p = self.v[v as usize].phys;
            if p != NO_REG && self.clobbered(Reg(p)) {
                self.displace(func, Reg(p))?;
            }
        }
        Ok(())
    }

    /// Step 6 of [`Fast::allocate_inst`]: each fixed register read and not
    /// reserved is taken for the value it holds.
    #[inline(always)]
    fn use_fixed_regs(&mut self, func: &mut MachineFunction) -> Result<(), AllocError> {
        for i in 0..self.lists.fixed_uses.len() {
            let (p, reserved) = self.lists.fixed_uses[i];
            if !reserved {
                self.displace(func, p)?;
                self.set_state(p, FIXED);
                self.mark_fixed_use(p);
            }
        }
        Ok(())
    }

    /// Step 7 of [`Fast::allocate_inst`]: the virtual register uses, as the
    /// scan listed them (operand `k` is rewritten only when its turn comes,
    /// so what the scan read still holds).
    #[inline(always)]
    fn use_vregs(&mut self, func: &mut MachineFunction, mi: Inst) -> Result<(), AllocError> {
        for j in 0..self.lists.uses.len() {
            let (k, info) = self.lists.uses[j];
            let RegRef::Virt(v) = info.reg else { continue };
            let vi = v.index();
            // LLVM's `mayLiveIn`: more than a few definitions count as
            // crossing blocks.
            if !self.v[vi].across && self.v[vi].defs >= 8 {
                self.v[vi].across = true;
            }
            let tied_def = info.tied_to.map(usize::from);
            let same =
                tied_def.is_none_or(|d| self.lists.vdefs.iter().any(|x| x.k == d && x.v == v.0));
            let r = self.use_vreg(func, mi, k, v.0, info)?;
            if !same && let Some(d) = tied_def {
                // Tied to a definition of another register: copy the value
                // into the definition's register just before.
                self.tie_to_def(func, mi, k, d, r)?;
            }
        }
        Ok(())
    }

    /// Step 8 of [`Fast::allocate_inst`]: each `undef` use of a virtual
    /// register among the instruction's first `n` operands (those it had
    /// before allocation), in operand order.
    #[inline(always)]
    fn use_undefs(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        n: usize,
    ) -> Result<(), AllocError> {
        for k in 0..n {
            let Some(info) = Self::reg_info(func, mi, k) else {
                continue;
            };
            let RegRef::Virt(v) = info.reg else { continue };
            if info.is_def() || !info.undef() {
                continue;
            }
            self.use_undef(func, mi, k, v)?;
        }
        Ok(())
    }

    /// Step 9 of [`Fast::allocate_inst`]: the registers of early-clobber
    /// definitions (when `has_early`, which counts virtual and physical
    /// ones) and of definitions kept to the end are freed, unless the
    /// instruction reads them; then those listed to be freed late.
    #[inline(always)]
    fn free_late(&mut self, func: &MachineFunction, mi: Inst, has_early: bool) {
        if has_early {
            for i in 0..self.lists.vdefs.len() {
                let d = self.lists.vdefs[i];
                if d.early
                    && !self.reads_reg(func, mi, d.reg)
                    && self.v[d.v as usize].phys == d.reg.0
                {
                    self.free_reg(d.reg);
                }
            }
            for i in 0..self.lists.pdefs.len() {
                let (p, keep) = self.lists.pdefs[i];
                if keep && !self.reads_reg(func, mi, p) {
                    self.free_reg(p);
                }
            }
        }
        for i in 0..self.lists.late_free.len() {
            let d = self.lists.late_free[i];
            if let Some(x) = self.lists.vdefs.iter().find(|x| x.k == d).copied() {
                if self.v[x.v as usize].phys == x.reg.0 {
                    self.free_reg(x.reg);
                }
            } else if let Some(RegInfo {
                reg: RegRef::Phys(p),
                ..
            }) = Self::reg_info(func, mi, d)
            {
                self.free_reg(p);
            }
        }
    }

    #[inline]
    pub(super) fn is_reserved(&self, p: Reg) -> bool {
        self.reserved.get(p.index()).copied().unwrap_or(true)
    }

    /// Whether the instruction reads a register overlapping `r`.
    pub(super) fn reads_reg(&self, func: &MachineFunction, mi: Inst, r: Reg) -> bool {
        func.inst(mi).operands.iter().any(|o| {
            o.as_reg().is_some_and(|x| {
                !x.is_def()
                    && !x.flags.has(RegFlags::UNDEF)
                    && matches!(x.reg, RegRef::Phys(p) if self.t.regs_overlap(p, r))
            })
        })
    }

    /// Use `k` (now in `r`) is tied to definition `d` of another register:
    /// copy `r` into the definition's register before the instruction.
    pub(super) fn tie_to_def(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        d: usize,
        r: Reg,
    ) -> Result<(), AllocError> {
        let Some(RegInfo {
            reg: RegRef::Phys(dr),
            ..
        }) = Self::reg_info(func, mi, d)
        else {
            return Err(self.err(
                AllocErrorKind::Unsupported,
                format!("operand {k} is tied to operand {d}, which is not a register definition"),
            ));
        };
        let used = Self::reg_info(func, mi, k).map_or(r, |i| match i.reg {
            RegRef::Phys(p) => p,
            _ => r,
        });
        if used != dr {
            let id = self.insert_copy(func, dr, used);
            self.lists.before.push(id);
            if let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k) {
                op.reg = RegRef::Phys(dr);
            }
        }
        self.lists.late_free.push(d);
        Ok(())
    }

    /// An `undef` use reads no value: any register of its class will do;
    /// the definition's register when tied, else the one it has, else the
    /// first of the order.
    pub(super) fn use_undef(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: VReg,
    ) -> Result<(), AllocError> {
        let Some(info) = Self::reg_info(func, mi, k) else {
            return Ok(());
        };
        let vi = v.index();
        if let Some(d) = info.tied_to
            && let Some(RegInfo {
                reg: RegRef::Phys(p),
                ..
            }) = Self::reg_info(func, mi, usize::from(d))
        {
            if let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k) {
                op.reg = RegRef::Phys(p);
                op.sub = None;
                op.flags.set(RegFlags::RENAMABLE, true);
            }
        } else {
            let r = if self.is_live(v.0) && self.v[vi].phys != NO_REG {
                Reg(self.v[vi].phys)
            } else {
                let c = self.class_of(v.0).index();
                match self.order(c).first() {
                    Some(&r) => r,
                    None => {
                        let msg = format!(
                            "operand {k}: class {} of {} has no allocatable register",
                            self.class_name(func, v.0),
                            func.vreg_text(v)
                        );
                        return Err(self.err(AllocErrorKind::OutOfRegisters, msg));
                    }
                }
            };
            self.rewrite(func, mi, k, r)?;
        }
        self.v[vi].uses = self.v[vi].uses.saturating_sub(1);
        Ok(())
    }
}

/// Whether an operand of `ops` reads virtual register `v`. An opcode the
/// description lacks ([`crate::ir::UnknownOp`]) may tie a definition to a
/// use without the MIR saying so (LLVM prints only ties its own description
/// cannot imply: AVX-512 masked moves, SVE `AND_ZI`, HVX accumulating
/// shifts): there, a definition and a use of one virtual register are one
/// register, which keeping the definition's register live through the
/// instruction gives the use, as for a tie.
fn reads_vreg(ops: &[Operand], v: VReg) -> bool {
    ops.iter().any(|o| {
        o.as_reg().is_some_and(|r| {
            !r.is_def() && !r.flags.has(RegFlags::UNDEF) && r.reg == RegRef::Virt(v)
        })
    })
}

/// Whether `mi` is now a copy of a physical register to itself.
#[inline(always)]
fn is_identity_copy(func: &MachineFunction, mi: Inst) -> bool {
    let d = func.inst(mi);
    d.op.is_copy()
        && d.operands.len() == 2
        && match (&d.operands[0], &d.operands[1]) {
            (Operand::Reg(a), Operand::Reg(b)) => {
                a.reg == b.reg && matches!(a.reg, RegRef::Phys(_))
            }
            _ => false,
        }
}

/// Whether operand `k` of `ops` (a definition) is tied to a use that reads
/// its value.
fn tied_to_read(ops: &[Operand], k: usize) -> bool {
    let reg = |i: usize| match ops.get(i) {
        Some(Operand::Reg(r)) => Some(r),
        _ => None,
    };
    reg(k)
        .and_then(|r| r.tied_to)
        .and_then(|u| reg(usize::from(u)))
        .is_some_and(|u| !u.is_def() && !u.flags.has(RegFlags::UNDEF))
}
