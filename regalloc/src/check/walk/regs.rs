//! The checker's register questions: units, sub-registers, the physical register an operand names, and the checks of what a read finds and of register classes.

use crate::ir::{InstData, Op, Operand, RegMask, RegOperand, RegRef, VReg};
use crate::target::{Reg, RegClass, RegUnit, SubRegIndex, TargetInfo};

use super::super::state::{State, Value};
use super::{Checker, Here};

use super::super::error::CheckErrorKind as K;

impl<'c, 't> Checker<'c, 't> {
    pub(super) fn units(&self, r: Reg) -> &'c [RegUnit] {
        let t: &'c TargetInfo<'t> = self.t;
        t.regs.get(r.index()).map_or(&[][..], |d| &d.units[..])
    }

    pub(super) fn sub_reg(&self, r: Reg, idx: SubRegIndex) -> Option<Reg> {
        if r.index() >= self.t.regs.len() {
            return None;
        }
        self.t.sub_reg(r, idx)
    }

    /// The physical register an allocated operand reads or writes (its
    /// sub-register applied), `Ok(None)` for `$noreg`.
    pub(super) fn phys_of(&self, r: &RegOperand) -> Result<Option<Reg>, String> {
        match r.reg {
            RegRef::Virt(v) => Err(self.orig.vreg_text(v)),
            RegRef::NoReg => Ok(None),
            RegRef::Phys(p) if p.index() >= self.t.regs.len() => Err(self.reg_name(p)),
            RegRef::Phys(p) => match r.sub {
                None => Ok(Some(p)),
                Some(i) => self.sub_reg(p, i).map(Some).ok_or_else(|| {
                    format!("{} with a sub-register it does not have", self.reg_name(p))
                }),
            },
        }
    }

    /// Registers whose uses are not tracked: reserved (in this function)
    /// and constant ones (LLVM does not track their liveness either).
    pub(super) fn untracked(&self, r: Reg) -> bool {
        self.t.is_reserved(r)
            || self.reserved.get(r.index()).copied().unwrap_or(false)
            || self
                .t
                .regs
                .get(r.index())
                .is_none_or(|d| d.flags.contains(crate::target::RegFlags::CONSTANT))
    }

    /// The whole register assigned to `v` when one of its operands names
    /// sub-register `idx` and got physical register `p`: `ar`'s register
    /// when the allocated operand kept the index, else the register that
    /// is a home for `v`'s values (`classes.rs`: a split piece may have a
    /// larger class) and whose `idx` is `p`.
    pub(super) fn full_reg(
        &self,
        v: VReg,
        idx: SubRegIndex,
        ar: &RegOperand,
        p: Reg,
    ) -> Option<Reg> {
        if let (RegRef::Phys(full), Some(_)) = (ar.reg, ar.sub) {
            return Some(full);
        }
        let class = self
            .orig
            .vregs
            .get(v.index())
            .and_then(|d| d.class)
            .filter(|c| c.index() < self.t.classes.len());
        let fits = |s: Reg| {
            self.sub_reg(s, idx) == Some(p) && class.is_none_or(|c| self.homes.holds(self.t, c, s))
        };
        self.t.super_regs(p).iter().copied().find(|&s| fits(s))
    }

    pub(super) fn unit_preserved(&self, mask: &RegMask, u: RegUnit) -> bool {
        if u.index() >= self.t.units.len() {
            return true;
        }
        self.t.unit_roots(u).all(|root| match mask {
            RegMask::Named(c) => {
                c.index() < self.t.callee_saved.len() && self.t.mask_preserves(*c, root)
            }
            RegMask::Custom(list) => list.contains(&root),
        })
    }

    /// The value an original operand naming `name` reads in unit `u` of its
    /// physical register.
    pub(super) fn expected_value(&self, name: RegRef, u: RegUnit) -> Option<Value> {
        match name {
            RegRef::Virt(v) => Some(self.values.vreg(v)),
            RegRef::Phys(_) => Some(self.values.unit(u)),
            RegRef::NoReg => None,
        }
    }

    /// Checks that every unit of `p` holds what operand `name` read.
    pub(super) fn check_reads(
        &mut self,
        here: Here,
        k: Option<usize>,
        name: RegRef,
        p: Reg,
        state: &State,
    ) {
        // A constant register is read for a virtual register copied from
        // it (`constants.rs`); other untracked registers are not checked.
        let constant_read = matches!(name, RegRef::Virt(_)) && self.is_constant_reg(p);
        if !self.values_known || (self.untracked(p) && !constant_read) {
            return;
        }
        for &u in self.units(p) {
            let Some(x) = self.expected_value(name, u) else {
                return;
            };
            if !state.unit(u).contains(x) {
                let found = state.unit(u).clone();
                let what = self.reg_name(p);
                self.err(
                    K::WrongValue,
                    here,
                    k,
                    |c: &Self| format!("{what} to hold {}", c.value_name(x)),
                    |c: &Self| format!("it holds {}", c.set_text(&found)),
                );
                return;
            }
        }
    }

    /// Checks a slot holds what operand `name` read (every unit's value for
    /// a physical name).
    pub(super) fn check_slot_reads(
        &mut self,
        here: Here,
        k: Option<usize>,
        name: RegRef,
        slot: u32,
        state: &State,
    ) {
        if !self.values_known {
            return;
        }
        let want: Vec<Value> = match name {
            RegRef::Virt(v) => vec![self.values.vreg(v)],
            RegRef::Phys(q) => self.units(q).iter().map(|&u| self.values.unit(u)).collect(),
            RegRef::NoReg => return,
        };
        let have = state.slot(slot);
        if let Some(&x) = want.iter().find(|&&x| !have.contains(x)) {
            self.err(
                K::WrongValue,
                here,
                k,
                |c: &Self| format!("%stack.{slot} to hold {}", c.value_name(x)),
                |c: &Self| format!("it holds {}", c.set_text(&have)),
            );
        }
    }

    /// Checks the register an operand of virtual register `v` got: operand
    /// `k` of `o` (the original instruction, or its memory form where an
    /// operand was folded), given `ar`, naming physical register `p`. The
    /// whole register must be a home for `v`'s values (only its own class
    /// for an opcode the description lacks, whose operands may accept no
    /// more), unreserved, and `p` what the described operand accepts.
    pub(super) fn check_class(
        &mut self,
        here: Here,
        o: &InstData,
        k: usize,
        v: VReg,
        ar: &RegOperand,
        p: Reg,
    ) {
        if !self.report {
            return;
        }
        let Some(c) = self.orig.vregs.get(v.index()).and_then(|d| d.class) else {
            return;
        };
        if c.index() >= self.t.classes.len() {
            return;
        }
        let sub = o
            .operands
            .get(k)
            .and_then(Operand::as_reg)
            .and_then(|r| r.sub);
        let full = match sub {
            Some(idx) => self.full_reg(v, idx, ar, p),
            None => Some(p),
        };
        let own_class_only = matches!(o.op, Op::Unknown(_));
        let cname = self.class_name(c);
        match full {
            None => self.err(
                K::WrongClass,
                here,
                Some(k),
                |s: &Self| {
                    format!(
                        "a sub-register of a {cname} register for {}",
                        s.orig.vreg_text(v)
                    )
                },
                |c: &Self| format!("{}, which is not one", c.reg_name(p)),
            ),
            Some(s) if own_class_only && !self.t.class_contains(c, s) => self.err(
                K::WrongClass,
                here,
                Some(k),
                |s: &Self| format!("a {cname} register for {}", s.orig.vreg_text(v)),
                |c: &Self| c.reg_name(s),
            ),
            Some(s) if !own_class_only && !self.homes.holds(self.t, c, s) => self.err(
                K::WrongClass,
                here,
                Some(k),
                |s: &Self| {
                    format!(
                        "a register of an allocatable class storing {cname} values for {}",
                        s.orig.vreg_text(v)
                    )
                },
                |c: &Self| c.reg_name(s),
            ),
            // Homes are registers of allocatable classes; an unknown
            // opcode's register is held to its own class, which must be.
            // A use may read a constant register (its value is checked).
            Some(s)
                if (self.untracked(s) && (ar.is_def() || !self.is_constant_reg(s)))
                    || (own_class_only && !self.t.class(c).allocatable) =>
            {
                self.err(
                    K::WrongClass,
                    here,
                    Some(k),
                    |s: &Self| {
                        format!(
                            "an allocatable, unreserved {cname} register for {}",
                            s.orig.vreg_text(v)
                        )
                    },
                    |c: &Self| format!("{}, which is reserved or not allocatable", c.reg_name(s)),
                )
            }
            Some(_) => {
                if let Some((e, want)) = self.described_class(o, k)
                    && !self.t.class_contains(want, p)
                {
                    let (wname, op) = (self.class_name(want), self.op_name(o.op));
                    self.err(
                        K::WrongClass,
                        here,
                        Some(k),
                        |_: &Self| format!("a {wname} register, as operand {e} of {op} takes"),
                        |c: &Self| c.reg_name(p),
                    );
                }
            }
        }
    }

    /// The explicit operand number of operand `k` of `o` and the class its
    /// description gives it, when it has one.
    fn described_class(&self, o: &InstData, k: usize) -> Option<(usize, RegClass)> {
        let Op::Target(op) = o.op else {
            return None;
        };
        let desc = self.t.instrs.get(op.index())?;
        let explicit = |x: &Operand| x.as_reg().is_none_or(|r| !r.is_implicit());
        if !explicit(o.operands.get(k)?) {
            return None;
        }
        let e = o.operands[..k].iter().filter(|x| explicit(x)).count();
        let want = desc.operands.get(e)?.class?;
        (want.index() < self.t.classes.len()).then_some((e, want))
    }
}
