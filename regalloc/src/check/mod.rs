//! The symbolic checker that proves an allocated function reads, at every use, the value the original instruction used.
//!
//! A forward dataflow over the CFG of the allocated function. The abstract
//! state says, for every register unit and every spill slot, which values
//! of the *original* program it holds: virtual registers, and the original
//! values of physical register units (argument and return registers,
//! flags: pre-coloured code). At function entry every unit holds its own
//! value and no slot holds anything; at joins the sets are intersected, so
//! a location holds a value only if it does on every path.
//!
//! The allocated block is walked together with the [`AllocRecord`]:
//! original instructions (same ids, virtual registers replaced) are checked
//! operand by operand against the original function, inserted instructions
//! are read through their [`Edit`](crate::record::Edit)s (spill, reload,
//! copy, rematerialization), and removed originals are applied at their
//! anchors. Besides the values read, it checks the constraints a value
//! check alone cannot see: tied operands, early-clobbers, fixed physical
//! operands, register classes and reserved registers, virtual registers
//! left behind, instructions changed, moved, lost or unexplained, and jump
//! tables that name other blocks than the original's. An indirect branch
//! through a table reaches every entry of it: those are edges of the
//! dataflow even where the successor list leaves them out
//! (`jump_tables.rs`).
//!
//! The instruction description is the law: an instruction clobbers every
//! register its description defines and reads every register it uses,
//! whether its operands name them or not (a call's MIR may leave some
//! out). The rules the checker enforces are read by the checker itself,
//! never by calling the allocator code it checks: which registers the
//! function reserves (`reserved.rs`, from the description's
//! `ReservedRegisters` sets and the function's frame) and which registers
//! may hold a class's values (`classes.rs`).
//!
//! After the fixpoint, one more pass reports errors, sorted by block and
//! position, at most one per operand. The checker never panics on a broken
//! allocation: everything it is given is treated as untrusted.

mod classes;
mod error;
mod jump_tables;
mod lowering;
mod reserved;
mod state;
mod walk;

pub use error::{CheckError, CheckErrorKind};
pub use lowering::check_lowering;
pub use reserved::reserved_registers;

use crate::ir::MachineFunction;
use crate::record::AllocRecord;
use crate::target::TargetInfo;

/// Checks `allocated` (the result of allocating `original`, as `record`
/// describes) and returns every error found.
pub fn check(
    target: &TargetInfo<'_>,
    original: &MachineFunction,
    allocated: &MachineFunction,
    record: &AllocRecord,
) -> Result<(), Vec<CheckError>> {
    walk::Checker::new(target, original, allocated, record)
        .run()
        .map_err(|mut errors| {
            for e in &mut errors {
                e.source = source_location(original, allocated, e);
            }
            errors
        })
}

/// Where an error's instruction stands in the file `original` was read
/// from: a read instruction keeps its id through allocation; for one the
/// allocation inserted, the first read instruction at or after its
/// position in the allocated block.
fn source_location(
    original: &MachineFunction,
    allocated: &MachineFunction,
    e: &CheckError,
) -> Option<crate::ir::SourceLocation> {
    original.source.location(e.inst?).or_else(|| {
        let insts = &allocated.blocks.get(e.block?.index())?.insts;
        insts
            .get(e.position?..)?
            .iter()
            .find_map(|&i| original.source.location(i))
    })
}

#[cfg(test)]
mod tests;
