//! Physical registers in the lowering checker: what a register's units hold, read and written alike on the SSA and the lowered side, and what a call's mask or an instruction's description clobbers.

use crate::ir::{InstData, Op, Operand, RegMask, RegOperand, RegRef};
use crate::target::{Reg, RegUnit, TargetInfo};

use super::super::state::ValueSet;

/// The physical register operand `r` names (its sub-register applied);
/// `None` for a virtual register, `$noreg` or a register the target lacks.
pub(super) fn reg_of(t: &TargetInfo<'_>, r: &RegOperand) -> Option<Reg> {
    let RegRef::Phys(p) = r.reg else { return None };
    if p.index() >= t.regs.len() {
        return None;
    }
    match r.sub {
        None => Some(p),
        Some(i) => t.sub_reg(p, i),
    }
}

/// What every unit of `r` holds.
pub(super) fn read(t: &TargetInfo<'_>, units: &[ValueSet], r: Reg) -> ValueSet {
    let mut found: Option<ValueSet> = None;
    for u in t.units(r) {
        let s = units.get(u.index()).cloned().unwrap_or_default();
        match &mut found {
            None => found = Some(s),
            Some(f) => {
                f.intersect(&s);
            }
        }
    }
    found.unwrap_or_default()
}

/// Every unit of `r` holds `set`.
pub(super) fn write(t: &TargetInfo<'_>, units: &mut [ValueSet], r: Reg, set: &ValueSet) {
    for u in t.units(r) {
        if let Some(s) = units.get_mut(u.index()) {
            *s = set.clone();
        }
    }
}

/// Clears the units `d` changes without naming them as operands: those
/// its register masks do not preserve and its description's implicit
/// definitions.
pub(super) fn clobber_unnamed(t: &TargetInfo<'_>, d: &InstData, units: &mut [ValueSet]) {
    for o in &d.operands {
        if let Operand::RegMask(m) = o {
            for (k, s) in units.iter_mut().enumerate() {
                if !preserved(t, m, RegUnit::new(k)) {
                    *s = ValueSet::default();
                }
            }
        }
    }
    if let Op::Target(op) = d.op
        && let Some(desc) = t.instrs.get(op.index())
    {
        for &r in desc.implicit_defs.iter() {
            let named = d
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|x| x.is_def() && x.reg == RegRef::Phys(r));
            if !named {
                write(t, units, r, &ValueSet::default());
            }
        }
    }
}

/// Whether mask `m` preserves unit `u` (every register rooted at it).
fn preserved(t: &TargetInfo<'_>, m: &RegMask, u: RegUnit) -> bool {
    t.unit_roots(u).all(|root| match m {
        RegMask::Named(c) => c.index() < t.callee_saved.len() && t.mask_preserves(*c, root),
        RegMask::Custom(list) => list.contains(&root),
    })
}
