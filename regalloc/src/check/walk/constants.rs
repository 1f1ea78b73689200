//! Constant registers (`$wzr`, `$xzr`): which values each is known to equal, so that a use forwarded to one by copy propagation (LLVM's `machine-cp` forwards `%5 = COPY $wzr` into `STRWui %5`) can be checked.
//!
//! A constant register holds the same value whatever is written to it.
//! Its units' sets in the state are therefore never cleared by a write:
//! they keep the virtual registers copied from the register (an original
//! `%v = COPY $wzr`, or a COPY whose source copy propagation forwarded
//! to it), until the program redefines one of them. A use of `%v` that
//! reads the constant register is right exactly when its units hold
//! `%v`.

use crate::ir::{Operand, RegRef};
use crate::target::{Reg, RegFlags as PhysFlags, RegUnit, TargetInfo};

use super::super::state::{State, Value, ValueSet};
use super::{Checker, Here};

/// The units of the registers `t` describes as constant, each once.
pub(super) fn constant_units(t: &TargetInfo<'_>) -> Vec<RegUnit> {
    let mut units: Vec<RegUnit> = Vec::new();
    for d in t
        .regs
        .iter()
        .filter(|d| d.flags.contains(PhysFlags::CONSTANT))
    {
        for &u in d.units.iter() {
            if !units.contains(&u) {
                units.push(u);
            }
        }
    }
    units
}

impl Checker<'_, '_> {
    /// Whether `r` is constant by its description.
    pub(super) fn is_constant_reg(&self, r: Reg) -> bool {
        self.t
            .regs
            .get(r.index())
            .is_some_and(|d| d.flags.contains(PhysFlags::CONSTANT))
    }

    /// The units of constant registers, with what each holds now.
    pub(super) fn constant_sets(&self, state: &State) -> Vec<(RegUnit, ValueSet)> {
        self.constant_units
            .iter()
            .map(|&u| (u, state.unit(u).clone()))
            .collect()
    }

    /// After instruction `here`: the constant units hold what they held
    /// before (`before`), less the values the instruction redefined, plus
    /// the virtual register a COPY defined from a constant register (kept
    /// or taken out: the value is the constant wherever it is, and a
    /// spill of it stores what the constant register holds).
    pub(super) fn keep_constant_sets(
        &self,
        here: Here,
        state: &mut State,
        before: Vec<(RegUnit, ValueSet)>,
    ) {
        if before.is_empty() {
            return;
        }
        let i = here.inst;
        let original = self
            .rec
            .is_original(i)
            .then(|| self.orig.insts.get(i.index()))
            .flatten();
        let redefined: Vec<Value> = original.map_or_else(Vec::new, |o| {
            o.operands
                .iter()
                .filter_map(Operand::as_reg)
                .filter(|r| r.is_def())
                .filter_map(|r| match r.reg {
                    RegRef::Virt(v) => Some(self.values.vreg(v)),
                    _ => None,
                })
                .collect()
        });
        for (u, mut set) in before {
            for &x in &redefined {
                set.remove(x);
            }
            state.set_unit(u, set);
        }
        let Some(o) = original else { return };
        if !o.op.is_copy() || self.rec.edit(i).is_some() {
            return;
        }
        let (Some(RegRef::Virt(v)), Some(a)) = (
            o.operands.first().and_then(Operand::as_reg).map(|r| r.reg),
            self.alloc.insts.get(i.index()),
        ) else {
            return;
        };
        let source = a.operands.get(1).and_then(Operand::as_reg);
        if let Some(RegRef::Phys(p)) = source.filter(|s| s.sub.is_none()).map(|s| s.reg)
            && a.op.is_copy()
            && self.is_constant_reg(p)
        {
            for &u in self.units(p) {
                state.add_to_unit(u, self.values.vreg(v));
            }
        }
    }
}
