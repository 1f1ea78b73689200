//! The registers RDF leaves untracked: those LLVM's `MachineRegisterInfo` reports reserved, which for Hexagon are more than the allocator needs to know of (registers no class allocates, such as the hardware-loop registers).

use crate::alloc::order::function_reserved;
use crate::ir::MachineFunction;
use crate::target::TargetInfo;

/// Registers LLVM 19's `getReservedRegs` reserves beyond those the
/// target tables reserve, by target name (Hexagon: the guest registers
/// G0-G3, the loop registers, `P3:0`, `C8`, `USR.OVF` and the reversed
/// vector pairs).
// TODO: carry these in the target tables (a `ReservedRegisters` field for
// registers reserved without affecting allocation).
fn extra_reserved(target: &str) -> &'static [&'static str] {
    if target.to_ascii_lowercase().contains("hexagon") {
        &[
            "GELR", "GSR", "GOSP", "G3", "SA0", "LC0", "SA1", "LC1", "P3_0", "C8", "USR_OVF",
            "WR0", "WR1", "WR2", "WR3", "WR4", "WR5", "WR6", "WR7", "WR8", "WR9", "WR10", "WR11",
            "WR12", "WR13", "WR14", "WR15",
        ]
    } else {
        &[]
    }
}

/// The registers reserved in `f` as LLVM reports them, by register index:
/// the tables' reserved set, the target's extra ones, and every register
/// containing one of them (LLVM's `markSuperRegs`).
pub fn reserved_regs(t: &TargetInfo<'_>, f: &MachineFunction) -> Vec<bool> {
    let mut r = function_reserved(t, f);
    for name in extra_reserved(&t.name) {
        if let Some(x) = t.find_reg(name) {
            r[x.index()] = true;
        }
    }
    let marked: Vec<usize> = (0..r.len()).filter(|&k| r[k]).collect();
    for k in marked {
        for s in t.super_regs(crate::target::Reg::new(k)) {
            r[s.index()] = true;
        }
    }
    r
}
