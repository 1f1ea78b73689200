//! The registers RDF leaves untracked: those LLVM's `MachineRegisterInfo` reports reserved, which are the target's reserved registers, the ones its description names untracked (registers allocation need not know of, such as Hexagon's guest and hardware-loop registers) and its constant registers.

use crate::alloc::order::function_reserved;
use crate::ir::MachineFunction;
use crate::target::{Reg, RegFlags, TargetInfo};

/// The registers reserved in `f` as LLVM reports them, by register index:
/// the function's reserved set (closed under overlap), the target's
/// untracked registers, and its constant registers (zero registers: LLVM
/// reserves them, since no value flows through them), the last two with
/// every register containing them (LLVM's `markSuperRegs`: AArch64's
/// `W30_WZR` pair holds `WZR`).
pub fn reserved_regs(t: &TargetInfo<'_>, f: &MachineFunction) -> Vec<bool> {
    let mut r = function_reserved(t, f);
    for k in 0..r.len() {
        let reg = Reg::new(k);
        if t.is_untracked(reg) || t.reg(reg).flags.contains(RegFlags::CONSTANT) {
            r[k] = true;
            for s in t.super_regs(reg) {
                r[s.index()] = true;
            }
        }
    }
    r
}
