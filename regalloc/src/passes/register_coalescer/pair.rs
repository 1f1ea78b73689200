//! The two virtual registers of a copy and where each lands in the joined register (LLVM's `CoalescerPair`).
//!
//! A whole-register copy joins the two registers whole. A copy into a
//! sub-register (`undef %a.sub_32bit = COPY %b`) joins `%b` into `%a` at
//! `sub_32bit`; a copy of a sub-register (`%a = COPY %b.sub_32bit`) joins
//! `%a` into `%b` at `sub_32bit`: the register renamed (`src`) is always
//! the one that becomes a sub-register. Copies between two sub-registers
//! are left (LLVM looks for a common super-register class there).

use crate::ir::{InstData, Operand, RegRef, VReg};
use crate::target::{RegClass, SubRegIndex, TargetInfo};

/// The registers of a copy to join.
#[derive(Copy, Clone, Debug)]
pub(super) struct Pair {
    /// The register renamed into `dst`.
    pub(super) src: VReg,
    /// The register kept.
    pub(super) dst: VReg,
    /// Where `src` lands in the joined register (`None`: all of it).
    pub(super) src_idx: Option<SubRegIndex>,
    /// The class of the joined register.
    pub(super) class: RegClass,
    /// Whether the copy reads or writes a sub-register.
    pub(super) partial: bool,
}

/// One register operand of a copy, with its sub-register.
pub(super) type CopyEnd = (RegRef, Option<SubRegIndex>);

/// The operands of a `COPY`: destination and source.
pub(super) fn copy_operands(inst: &InstData) -> Option<(CopyEnd, CopyEnd)> {
    if !inst.op.is_copy() || inst.operands.len() != 2 {
        return None;
    }
    let (Operand::Reg(d), Operand::Reg(s)) = (&inst.operands[0], &inst.operands[1]) else {
        return None;
    };
    (d.is_def() && !s.is_def()).then_some(((d.reg, d.sub), (s.reg, s.sub)))
}

/// Sub-register `b` of sub-register `a` (`None` stands for the whole
/// register); the outer `None` when the two do not compose.
pub(super) fn compose(
    t: &TargetInfo<'_>,
    a: Option<SubRegIndex>,
    b: Option<SubRegIndex>,
) -> Option<Option<SubRegIndex>> {
    match (a, b) {
        (None, x) | (x, None) => Some(x),
        (Some(a), Some(b)) => t.compose_sub_reg(a, b).map(Some),
    }
}

/// The lanes sub-register `idx` covers (all lanes for the whole register).
pub(super) fn lanes(t: &TargetInfo<'_>, idx: Option<SubRegIndex>) -> u64 {
    match idx {
        Some(i) if i.index() < t.sub_reg_indices.len() => t.sub_reg_index(i).lane_mask.0,
        _ => u64::MAX,
    }
}

impl Pair {
    /// The pair of a `COPY` between two virtual registers of classes that
    /// can be joined (LLVM's `setRegisters`), before the two are flipped
    /// by size.
    pub(super) fn of_copy(
        t: &TargetInfo<'_>,
        classes: &dyn Fn(VReg) -> Option<RegClass>,
        common: &dyn Fn(RegClass, RegClass) -> Option<RegClass>,
        inst: &InstData,
    ) -> Option<Pair> {
        let ((RegRef::Virt(d), dsub), (RegRef::Virt(s), ssub)) = copy_operands(inst)? else {
            return None;
        };
        let (dc, sc) = (classes(d)?, classes(s)?);
        match (dsub, ssub) {
            (None, None) => Some(Pair {
                src: s,
                dst: d,
                src_idx: None,
                class: common(dc, sc)?,
                partial: false,
            }),
            // `%d.idx = COPY %s`: `%s` becomes `%d.idx`.
            (Some(idx), None) if d != s => Some(Pair {
                src: s,
                dst: d,
                src_idx: Some(idx),
                class: t.matching_super_reg_class(dc, sc, idx)?,
                partial: true,
            }),
            // `%d = COPY %s.idx`: `%d` becomes `%s.idx`.
            (None, Some(idx)) if d != s => Some(Pair {
                src: d,
                dst: s,
                src_idx: Some(idx),
                class: t.matching_super_reg_class(sc, dc, idx)?,
                partial: true,
            }),
            _ => None,
        }
    }

    /// The same pair with the roles swapped (whole-register copies only).
    pub(super) fn flipped(self) -> Pair {
        debug_assert!(!self.partial);
        Pair {
            src: self.dst,
            dst: self.src,
            ..self
        }
    }

    /// Whether `inst` copies the same lanes between the two registers,
    /// either way (LLVM's `CoalescerPair::isCoalescable`).
    pub(super) fn is_coalescable(&self, t: &TargetInfo<'_>, inst: &InstData) -> bool {
        let Some(((RegRef::Virt(d), dsub), (RegRef::Virt(s), ssub))) = copy_operands(inst) else {
            return false;
        };
        let ((s, ssub), (d, dsub)) = if d == self.src {
            ((d, dsub), (s, ssub))
        } else {
            ((s, ssub), (d, dsub))
        };
        if s != self.src || d != self.dst {
            return false;
        }
        match (compose(t, self.src_idx, ssub), compose(t, None, dsub)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }
}
