//! Register class constraints of a virtual register's operands, and inflation: the largest class a register may have given only the instructions that use it (LLVM's `recomputeRegClass` over `getRegClassConstraintEffectForVReg`).
//!
//! Instruction selection gives a virtual register the class every one of
//! its operands accepts. After a split, a piece that no longer holds the
//! narrow operand (an x86 `LEA` index that may not be `RSP`, a byte
//! register that must have a high half) may use a larger class: the
//! largest legal super-class of the original class, narrowed by each
//! operand the piece still has. Per-instruction split relies on this: the
//! pieces around the constrained instructions keep the narrow class, the
//! rest is inflated and finds a register more easily.

use crate::ir::{Inst, MachineFunction, Op, Operand, RegRef, VReg};
use crate::target::{RegClass, TargetInfo};

/// The largest class that is a sub-class of both `a` and `b` (LLVM's
/// `getCommonSubClass`); ties go to the class listed first.
pub fn common_sub_class(t: &TargetInfo<'_>, a: RegClass, b: RegClass) -> Option<RegClass> {
    if t.is_sub_class(a, b) {
        return Some(a);
    }
    if t.is_sub_class(b, a) {
        return Some(b);
    }
    (0..t.classes.len())
        .map(RegClass::new)
        .filter(|&c| t.is_sub_class(c, a) && t.is_sub_class(c, b))
        .max_by_key(|&c| (t.class(c).members.len(), std::cmp::Reverse(c)))
}

/// The largest allocatable super-class of `c` that a register of `c` can
/// move to without changing how it is stored: the same register and spill
/// sizes, the same lanes, spill and reload instructions of its own. `c`
/// itself when there is none larger.
pub fn largest_legal_super_class(t: &TargetInfo<'_>, c: RegClass) -> RegClass {
    let d = t.class(c);
    (0..t.classes.len())
        .map(RegClass::new)
        .filter(|&s| {
            let sd = t.class(s);
            t.is_sub_class(c, s)
                && sd.allocatable
                && sd.reg_size == d.reg_size
                && sd.spill_size == d.spill_size
                && sd.lane_mask == d.lane_mask
                && sd.spill.is_empty() == d.spill.is_empty()
                && sd.reload.is_empty() == d.reload.is_empty()
                && sd.spill_align == d.spill_align
                && sd.spill_stack_id == d.spill_stack_id
        })
        .max_by_key(|&s| (t.class(s).members.len(), std::cmp::Reverse(s)))
        .unwrap_or(c)
}

/// The class `v` may have, starting from `start`, so that every operand of
/// `v` in `insts` accepts it; `None` when one of them accepts no sub-class
/// of `start`.
pub fn constrained_class(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    v: VReg,
    insts: &[Inst],
    start: RegClass,
) -> Option<RegClass> {
    let mut cur = start;
    for &i in insts {
        let inst = func.inst(i);
        let desc = match inst.op {
            Op::Target(o) => t.instrs.get(o.index()),
            Op::Generic(_) => None,
            Op::Unknown(_) => {
                // What the instruction accepts is not known: no wider than
                // the class the function declares.
                if inst
                    .operands
                    .iter()
                    .any(|o| matches!(o, Operand::Reg(r) if r.reg == RegRef::Virt(v)))
                    && let Some(declared) = func.vreg_class(v)
                {
                    cur = common_sub_class(t, cur, declared)?;
                }
                continue;
            }
        };
        for (k, o) in inst.operands.iter().enumerate() {
            let Operand::Reg(r) = o else { continue };
            if r.reg != RegRef::Virt(v) {
                continue;
            }
            let want = if r.is_implicit() {
                None
            } else {
                desc.and_then(|d| d.operands.get(k)).and_then(|d| d.class)
            };
            cur = match (want, r.sub) {
                (Some(w), None) => common_sub_class(t, cur, w)?,
                (Some(w), Some(idx)) => t.matching_super_reg_class(cur, w, idx)?,
                (None, Some(idx)) => t.sub_class_with_sub_reg(cur, idx)?,
                (None, None) => cur,
            };
        }
    }
    Some(cur)
}

/// How many registers of `c` are allocatable (not reserved).
pub fn allocatable_count(t: &TargetInfo<'_>, c: RegClass) -> usize {
    t.class(c)
        .members
        .iter()
        .filter(|&&r| !t.is_reserved(r))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    #[test]
    fn operands_narrow_the_class_and_sub_registers_ask_for_a_super_register() {
        let t = bpf();
        let gpr = t.find_class("gpr").unwrap();
        let gpr32 = t.find_class("gpr32").unwrap();
        assert_eq!(common_sub_class(t, gpr, gpr), Some(gpr));
        assert_eq!(common_sub_class(t, gpr, gpr32), None);
        assert_eq!(largest_legal_super_class(t, gpr), gpr);
        let f = read(
            "---
name: narrow
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr32 }
body: |
  bb.0:
    %0:gpr = LD_imm64 1
    %1:gpr32 = COPY %0.sub_32
    STW32 %1, %0, 0
    RET
...
",
        );
        let insts = f.block(crate::ir::Block::new(0)).insts.clone();
        // A 64-bit register read through its low half by a copy, and as
        // a 64-bit address by the store.
        assert_eq!(constrained_class(t, &f, VReg(0), &insts, gpr), Some(gpr));
        assert_eq!(
            constrained_class(t, &f, VReg(1), &insts, gpr32),
            Some(gpr32)
        );
        // A 32-bit register cannot be the store's 64-bit address.
        assert_eq!(constrained_class(t, &f, VReg(0), &insts[2..], gpr32), None);
        assert_eq!(allocatable_count(t, gpr), t.class(gpr).members.len() - 2);
    }
}
