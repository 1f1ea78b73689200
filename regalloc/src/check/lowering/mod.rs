//! The lowering checker: translation validation of the pre-allocation passes, proving that a function after them (still in virtual registers) reads, at every read, the value the SSA function's instruction read.
//!
//! The passes (`processimpdefs`, unreachable-block removal, `livevars`,
//! PHI elimination with critical-edge splitting, two-address lowering
//! with commuting, three-address conversion and the lowering of
//! `REG_SEQUENCE`/`INSERT_SUBREG`, the register coalescer with renaming,
//! copy erasure and trivial rematerialization) are not called: the
//! checker reads only the two functions, the target description and a
//! [`LoweringRecord`] (where each block came from), which it treats as an
//! untrusted claim and verifies (`structure.rs`).
//!
//! Symbolic values (`values.rs`) are the SSA function's virtual registers
//! and the values of physical registers (at entry, as written by an SSA
//! instruction, or merged at an SSA block's entry), with copies,
//! `REG_SEQUENCE` and `INSERT_SUBREG` seen through per sub-register, and
//! constants (instructions that read no register, equal when alike). The
//! SSA side is read once (`ssa.rs`); the lowered function is walked by a
//! forward dataflow (`walk.rs`) whose state says which SSA values each
//! lowered virtual register and register unit holds (intersected where
//! paths meet). On each lowered edge into a block standing for an SSA
//! block, that block's PHIs are applied: a location holding the value a
//! PHI takes from the edge's SSA predecessor (through a split block, the
//! edge's source) holds the PHI's value after the edge, and values of the
//! PHIs' earlier executions are forgotten, so swapped or lost PHI copies
//! show. Every COPY and `IMPLICIT_DEF` the lowered function has moves or
//! undefines values and is otherwise free; instructions of the SSA
//! function keep their ids through the passes and are checked operand by
//! operand against the SSA instruction (opcode, immediates, blocks
//! through the origins, physical registers), reads against the SSA
//! read's value; an instruction may be commuted (its first two uses
//! swapped, a condition code reversed) where the description says it
//! commutes, a conditional branch reversed as the description reverses
//! it, and replaced by one of its `ThreeAddressForm`s (paired with the
//! SSA instruction it replaces by block and opcode). Inserted
//! instructions must be jumps, three-address forms or constants; SSA
//! instructions left out must be copies, PHIs, sequences, undefined
//! values, an unconditional branch or definitions without effect (a
//! value still read shows where it is read).
//!
//! Not checked: ties (the lowering may stop before two-address lowering;
//! the allocators' input checks hold the two-address form), the order of memory accesses and other effects within a
//! block (the passes move only instructions without them), which way a
//! conditional branch goes beyond its target being one of its SSA
//! block's successors when reversed, and values read through
//! sub-registers that straddle the pieces a value was built from (such a
//! read is reported, not accepted).

mod phys;
mod ssa;
mod structure;
mod values;
mod walk;

use crate::ir::MachineFunction;
use crate::record::LoweringRecord;
use crate::target::TargetInfo;

use super::error::CheckError;

/// Checks `lowered` (the result of the pre-allocation passes on the SSA
/// function `ssa`, as `record` describes its blocks) and returns every
/// error found, sorted by block and position.
pub fn check_lowering(
    target: &TargetInfo<'_>,
    ssa: &MachineFunction,
    lowered: &MachineFunction,
    record: &LoweringRecord,
) -> Result<(), Vec<CheckError>> {
    let mut values = values::Values::new(target);
    let facts = ssa::Ssa::new(target, ssa, &mut values);
    let mut errors = match structure::verify(target, &facts, lowered, record) {
        Ok(map) => walk::Walk::new(target, &facts, lowered, &map, values).run(),
        Err(errors) => errors,
    };
    for e in &mut errors {
        e.source = e.inst.and_then(|i| ssa.source.location(i)).or_else(|| {
            let insts = &lowered.blocks.get(e.block?.index())?.insts;
            insts
                .get(e.position?..)?
                .iter()
                .find_map(|&i| ssa.source.location(i))
        });
    }
    errors.sort_by_key(|a| a.sort_key());
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
