//! The checker's own reading of the registers a function may not be given: the description's `ReservedRegisters` sets, applied by LLVM's frame rules, written apart from the allocator's (`alloc::order`) so that a mistake there is not repeated here.
//!
//! The description gives three register sets, each closed under overlap:
//! reserved in every function, reserved while the function keeps a frame
//! pointer, and while it needs a base pointer. Which apply is decided from
//! the function, as LLVM 19's `hasFP` and `hasBasePointer` decide for x86
//! and AArch64 (the two targets here with frame or base pointer sets):
//!
//! - The frame pointer is kept when the frame cannot be laid out from the
//!   stack pointer alone: variable-sized objects, a taken frame address, an
//!   opaque stack-pointer adjustment, or a stack realigned because an
//!   object asks for more alignment than the calling convention gives it.
//!   It is also kept when the policy says so: the IR attribute
//!   `"frame-pointer"` (`all`: always, `non-leaf`: if the function calls,
//!   `none`: never), or without one the target's default (AArch64 keeps a
//!   frame record in every function that calls).
//! - The base pointer is needed when neither the stack pointer nor the
//!   frame pointer can reach the locals: the stack pointer moves by amounts
//!   unknown when compiling (variable-sized objects, an opaque adjustment)
//!   and the frame pointer is at an unknown distance from them (a realigned
//!   stack) or, on a target that gives a threshold, likely too far (a local
//!   frame at least that large).
//! - A function calls when its `frameInfo` says so, or one of its
//!   instructions is a call or carries a register mask.
//! - Registers that exist only with some subtarget features
//!   (`ReservedWithoutFeatures`: x86's XMM16-31 without AVX-512) are
//!   reserved in a function whose features lack any of them.

use crate::ir::{FramePointerKind, MachineFunction, Op, Operand, StackObjectKind};
use crate::target::{InstrFlags, TargetInfo, bits};

/// The registers `f` may not be given, by register number.
pub fn reserved_registers(t: &TargetInfo<'_>, f: &MachineFunction) -> Vec<bool> {
    let frame = &f.frame_info;
    let calls = frame.has_calls || makes_calls(t, f);
    let policy = match f.frame_pointer {
        Some(FramePointerKind::All) => true,
        Some(FramePointerKind::NonLeaf) => calls,
        Some(FramePointerKind::None) => false,
        None => calls && t.frame_pointer_in_non_leaf,
    };
    let variable_sized = f
        .stack
        .iter()
        .any(|o| o.kind == StackObjectKind::VariableSized);
    let realigned = t.stack_alignment > 0 && frame.max_alignment > u64::from(t.stack_alignment);
    let keeps_frame_pointer = policy
        || variable_sized
        || frame.frame_address_taken
        || frame.opaque_sp_adjustment
        || realigned;
    let stack_pointer_moves = variable_sized || frame.opaque_sp_adjustment;
    let far_locals = t.base_pointer_frame_size > 0
        && frame.local_frame_size >= u64::from(t.base_pointer_frame_size);
    let needs_base_pointer = stack_pointer_moves && (realigned || far_locals);
    let absent: Vec<&[u32]> = t
        .reserved_without
        .iter()
        .filter(|g| !f.features.contains(g.features))
        .map(|g| &g.regs[..])
        .collect();
    (0..t.regs.len())
        .map(|r| {
            bits::test(&t.reserved, r)
                || (keeps_frame_pointer && bits::test(&t.frame_pointer, r))
                || (needs_base_pointer && bits::test(&t.base_pointer, r))
                || absent.iter().any(|regs| bits::test(regs, r))
        })
        .collect()
}

/// Whether some instruction of `f` is a call: by its description, or by a
/// register mask (the mark of a call whatever its opcode).
fn makes_calls(t: &TargetInfo<'_>, f: &MachineFunction) -> bool {
    f.inst_ids().any(|i| {
        let inst = f.inst(i);
        let described_call = match inst.op {
            Op::Target(o) => t
                .instrs
                .get(o.index())
                .is_some_and(|d| d.is(InstrFlags::CALL)),
            Op::Generic(_) | Op::Unknown(_) => false,
        };
        described_call
            || inst
                .operands
                .iter()
                .any(|o| matches!(o, Operand::RegMask(_)))
    })
}
