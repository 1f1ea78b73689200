//! `AllocRecord`: what an allocator inserted into and removed from a function, which is what the checker reads beside the original.
//!
//! The contract between every allocator and the checker:
//!
//! - Instructions keep their ids. Every instruction whose id is below
//!   [`AllocRecord::original_insts`] is the original instruction of the same
//!   id, with its virtual registers replaced by physical ones (explicit
//!   operands keep their positions; implicit operands may be appended, such
//!   as `implicit-def` of a super-register). Its opcode is unchanged unless
//!   it is in [`AllocRecord::edits`] (see below).
//! - Instructions with ids at or above `original_insts` were inserted by the
//!   allocator. Each has an entry in `edits` saying what it does in terms
//!   the checker understands: a spill, a reload, a register copy, or a
//!   rematerialization.
//! - An original COPY may be turned into a spill, a reload or another copy
//!   (a reload folded into a COPY of a spilled register, for instance); it
//!   then also has an entry in `edits`, and the checker reads it as the
//!   original copy (from the edit's source, which must hold the copy's
//!   source value, to its destination).
//! - An original instruction that now accesses a spill slot through a
//!   memory operand instead of a register (a folded reload, spill, or
//!   both) is listed in [`AllocRecord::memory_folds`]: its opcode is the
//!   memory form of the target's fold for the original opcode and operand,
//!   and its explicit operands are the original ones with that operand
//!   (and the use tied to it) replaced by the fold's address.
//! - Original instructions taken out of the function (identity copies after
//!   rewriting, definitions made dead by rematerialization) are listed in
//!   [`AllocRecord::removed`], with the place they were taken from, so that
//!   the checker can apply a removed COPY's meaning (the destination value
//!   equals the source value) at the right point.
//! - A removed original COPY between two registers (copy propagation
//!   after allocation takes out copies of a value the destination already
//!   holds) writes nothing: its destination must already hold the copied
//!   value. One whose destination nothing reads is also listed in
//!   [`AllocRecord::dead_copies`]: the value it defined lives nowhere.
//! - Spill slots are new `stack:` objects of kind `spill-slot`, named in the
//!   edits by their `%stack.N` id.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{Block, Inst, VReg};
use crate::target::Reg;

/// What an inserted (or converted) instruction does.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Edit {
    /// Stores physical register `from` to spill slot `%stack.slot`.
    Spill {
        /// The register stored.
        from: Reg,
        /// The `%stack.N` id of the slot.
        slot: u32,
    },
    /// Loads spill slot `%stack.slot` into physical register `to`.
    Reload {
        /// The `%stack.N` id of the slot.
        slot: u32,
        /// The register loaded.
        to: Reg,
    },
    /// Copies physical register `from` to `to` (same size).
    Copy {
        /// The source.
        from: Reg,
        /// The destination.
        to: Reg,
    },
    /// Recomputes the value of `vreg` into `to`: a copy of the instruction
    /// that defines `vreg` (which the target marks rematerializable), whose
    /// own register uses, if any, are checked like an original instruction's.
    Remat {
        /// The virtual register whose value is recomputed.
        vreg: VReg,
        /// The register it is recomputed into.
        to: Reg,
        /// The original defining instruction it copies.
        of: Inst,
    },
}

/// An original instruction rewritten by a memory-operand fold (the
/// target's [`crate::target::MemoryFoldDesc`] for its opcode and `operand`):
/// explicit operand `operand` of its original form (and the use tied to
/// it, for a definition that has one) now lives in spill slot
/// `%stack.slot`, named by the fold's address operands. A folded use reads
/// the slot, a folded definition writes it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FoldedAccess {
    /// The explicit operand of the original instruction the address replaced.
    pub operand: usize,
    /// The `%stack.N` id of the slot it accesses.
    pub slot: u32,
}

/// An original instruction taken out of the function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Removed {
    /// The instruction (its data is still in `MachineFunction::insts`).
    pub inst: Inst,
    /// The block it was in.
    pub block: Block,
    /// The instruction it came right before in the allocated block, or
    /// `None` if it was at the end. Several removed instructions before the
    /// same one are listed in their original order.
    pub before: Option<Inst>,
}

/// What an allocator did to a function beyond renaming registers.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AllocRecord {
    /// How many instructions the function had before allocation: ids below
    /// this are original instructions.
    pub original_insts: usize,
    /// The meaning of every inserted instruction, and of original COPYs
    /// turned into spill code.
    pub edits: BTreeMap<Inst, Edit>,
    /// Original instructions taken out, in the order they were taken out.
    pub removed: Vec<Removed>,
    /// Original instructions that access a spill slot through a memory
    /// operand instead of a register.
    pub memory_folds: BTreeMap<Inst, FoldedAccess>,
    /// Original COPYs taken out (also in `removed`) because nothing read
    /// their destination: the value each defined is in no register.
    pub dead_copies: BTreeSet<Inst>,
}

impl AllocRecord {
    /// A record for a function with `original_insts` instructions.
    pub fn new(original_insts: usize) -> AllocRecord {
        AllocRecord {
            original_insts,
            ..Default::default()
        }
    }

    /// Whether `i` was in the function before allocation.
    #[inline]
    pub fn is_original(&self, i: Inst) -> bool {
        i.index() < self.original_insts
    }

    /// What `i` does, if the allocator inserted or converted it.
    #[inline]
    pub fn edit(&self, i: Inst) -> Option<&Edit> {
        self.edits.get(&i)
    }
}

/// One round of the PBQP allocator solved in exact mode: the problem's
/// size, the search, and the model's objective for the heuristic's
/// solution and for the optimum.
#[derive(Clone, Debug, PartialEq)]
pub struct PbqpExactRound {
    /// Nodes (virtual registers) in the round's problem.
    pub nodes: usize,
    /// Nodes that R0, R1 and R2 left to search (0 when the heuristic
    /// needed no RN step: its solution is then the optimum).
    pub core_nodes: usize,
    /// Search nodes explored (options tried by the branch and bound).
    pub search_nodes: u64,
    /// The PBQP objective of the heuristic solution (R0, R1, R2 and RN as
    /// LLVM picks): node costs plus edge entries.
    pub heuristic_cost: f64,
    /// The optimum of the same objective, when the search finished within
    /// the limit; `None` when the limit stopped it (the round then used
    /// the heuristic's solution).
    pub optimum: Option<f64>,
}

/// Where one block of a function after the pre-allocation passes came
/// from, in the block numbers of the SSA function the passes were given.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BlockOrigin {
    /// The block is SSA block `0` (renumbered, perhaps, after unreachable
    /// blocks were removed before it).
    Original(crate::ir::Block),
    /// The block was made to split the SSA edge `from -> to` (PHI
    /// elimination's critical-edge splitting).
    Split {
        /// The edge's source in the SSA function.
        from: crate::ir::Block,
        /// The edge's destination in the SSA function.
        to: crate::ir::Block,
    },
}

/// What the pre-allocation passes claim about the function they lowered,
/// for the lowering checker (`check::check_lowering`), which verifies the
/// claim as it verifies an [`AllocRecord`]: it is untrusted.
///
/// Instructions keep their ids through the passes (new ones are appended
/// to the arena, removed ones leave it unplaced), so only blocks need a
/// record: unreachable-block removal renumbers them and edge splitting
/// adds some.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LoweringRecord {
    /// Per block of the lowered function, where it came from.
    pub block_origins: Vec<BlockOrigin>,
}

impl LoweringRecord {
    /// The record of a function of `blocks` blocks that no pass changed.
    pub fn identity(blocks: usize) -> LoweringRecord {
        LoweringRecord {
            block_origins: (0..blocks)
                .map(|b| BlockOrigin::Original(crate::ir::Block::new(b)))
                .collect(),
        }
    }
}
