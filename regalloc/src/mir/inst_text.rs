//! `inst_text`: one instruction printed as MIR text, for diagnostics such as the checker's.

use crate::ir::{Inst, MachineFunction, Operand, RegMask, RegRef};
use crate::target::TargetInfo;

/// Instruction `i` of `f` as one line of MIR (no indentation, no newline),
/// or `None` when `i` is not in `f` or names a register, class, index or
/// mask outside `target`'s tables (a diagnostic must never panic on the
/// broken input it is describing).
pub fn inst_text(target: &TargetInfo<'_>, f: &MachineFunction, i: Inst) -> Option<String> {
    let data = f.insts.get(i.index())?;
    let in_range = data.operands.iter().all(|o| match o {
        Operand::Reg(r) => {
            let reg_ok = match r.reg {
                RegRef::Phys(p) => p.index() < target.regs.len(),
                RegRef::Virt(v) => f
                    .vregs
                    .get(v.index())
                    .is_none_or(|d| d.class.is_none_or(|c| c.index() < target.classes.len())),
                RegRef::NoReg => true,
            };
            reg_ok
                && r.sub
                    .is_none_or(|s| s.index() < target.sub_reg_indices.len())
        }
        Operand::RegMask(RegMask::Named(c)) => c.index() < target.callee_saved.len(),
        Operand::RegMask(RegMask::Custom(regs)) => {
            regs.iter().all(|r| r.index() < target.regs.len())
        }
        Operand::SubRegIndex(s) => s.index() < target.sub_reg_indices.len(),
        _ => true,
    });
    let op_ok = match data.op {
        crate::ir::Op::Target(o) => o.index() < target.instrs.len(),
        crate::ir::Op::Generic(_) | crate::ir::Op::Unknown(_) => true,
    };
    (in_range && op_ok).then(|| super::write::inst(target, f, data))
}
