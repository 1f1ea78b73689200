//! The registers RDF leaves untracked: those LLVM's `MachineRegisterInfo` reports reserved, which are the target's reserved registers and the ones its description names untracked (registers allocation need not know of, such as Hexagon's guest and hardware-loop registers).

use crate::alloc::order::function_reserved;
use crate::ir::MachineFunction;
use crate::target::{Reg, TargetInfo};

/// The registers reserved in `f` as LLVM reports them, by register index:
/// the function's reserved set (closed under overlap) and the target's
/// untracked registers (closed under super-registers, as LLVM's
/// `markSuperRegs` closes its reserved set).
pub fn reserved_regs(t: &TargetInfo<'_>, f: &MachineFunction) -> Vec<bool> {
    let mut r = function_reserved(t, f);
    for (k, reserved) in r.iter_mut().enumerate() {
        *reserved |= t.is_untracked(Reg::new(k));
    }
    r
}
