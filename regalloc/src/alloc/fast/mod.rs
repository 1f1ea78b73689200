//! LLVM's RegAllocFast: per block, instructions in reverse, live-outs stored at block end and live-ins reloaded.
//!
//! The allocator never builds live intervals. It walks each block from the
//! bottom up, keeping for every register unit what it holds (free, a
//! physical register fixed by the code, or a virtual register) and for
//! every virtual register where it lives right now. A use met on the way up
//! claims a register for its value from there up to the definition; a
//! definition ends that claim. Values that cross block boundaries live in a
//! stack slot there: a definition of such a value is stored right after it,
//! and a value still wanted at the top of a block is reloaded there. When a
//! register has to be taken from a value that is still wanted below, the
//! value is reloaded right below the instruction that took the register, and
//! its definition is stored to the slot.
//!
//! The heuristics follow LLVM 19's RegAllocFast so that spill and reload
//! counts can be compared with `llc -O0`: the same cost scale for taking a
//! register (a clean value already in a slot is cheaper to evict than a
//! dirty one), COPY hints on both sides, the same "may live across blocks"
//! test (including its limit of 8 uses), allocation orders with
//! callee-saved registers last.
//!
//! Files: `cache` (facts derived from the target's tables alone, kept
//! in the caller's contexts from function to function), `prepare` (function-wide facts gathered before allocation),
//! `block` (the per-block walk and the per-instruction steps),
//! `emit` (spill, reload and copy instructions from the target's
//! templates) and `liveness` (kill and dead flags and block live-ins,
//! recomputed over the allocated code).

mod block;
mod cache;
mod emit;
mod liveness;
mod prepare;

use crate::alloc::order::TargetOrders;
use crate::ir::MachineFunction;
use crate::target::TargetInfo;

use super::AllocError;
use crate::record::AllocRecord;

pub(crate) use cache::{Buffers, TargetTables};

/// Allocates `func` with the fast allocator, with the target's derived
/// `orders` and `tables` and the reusable `buffers`.
///
/// The caller's contexts keep them (`TargetContext::orders` and
/// `TargetContext::fast_tables`, `AllocContext::fast`); they are passed
/// apart so that the contexts, which hold this allocator's types, are
/// not also named by it.
///
/// Every virtual register is replaced by a physical one; spill slots are
/// added as `spill-slot` stack objects; block live-ins and kill/dead flags
/// are recomputed. On error the function may be partly rewritten.
pub(crate) fn run_in(
    target: &TargetInfo<'_>,
    orders: &TargetOrders,
    tables: &TargetTables,
    buffers: &mut Buffers,
    func: &mut MachineFunction,
) -> Result<AllocRecord, AllocError> {
    let mut scratch = buffers.0.take().unwrap_or_default();
    let result = run_with(target, func, &tables.0, orders, &mut scratch);
    // After an error the buffers may hold marks the next function must not
    // see: they are dropped then.
    if result.is_ok() {
        buffers.0 = Some(scratch);
    }
    result
}

/// [`run_in`] with the target's derived tables and reusable buffers.
fn run_with(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    tables: &cache::Tables,
    orders: &TargetOrders,
    scratch: &mut cache::Scratch,
) -> Result<AllocRecord, AllocError> {
    let facts = prepare::Facts::gather(target, func, tables, orders, scratch)?;
    // Held for the function: the tables' lists may grow meanwhile (on
    // other threads), these entries never change.
    let reserving = tables.reserving_at(facts.reserving);
    let variant = orders.variant_at(facts.variant);
    let live = liveness::Liveness::new(target, func, &reserving, scratch);
    let mut alloc = block::Fast::new(target, func, facts, tables, &reserving, &variant, scratch);
    for b in func.block_ids() {
        alloc.allocate_block(func, b)?;
    }
    let record = alloc.finish(scratch);
    live.finish(func, scratch);
    Ok(record)
}

#[cfg(test)]
mod tests;
