//! Branch facts for editing control flow (the direct unconditional branch and how each conditional branch is reversed: LLVM's `insertBranch` and `reverseBranchCondition`, given as data), and the commuting facts the two-address pass edits instructions by.
//!
//! LLVM's targets read and rewrite a block's branches in C++
//! (`TargetInstrInfo::analyzeBranch`, `insertBranch`, `removeBranch`,
//! `reverseBranchCondition`). The reading is generic here: a block ends
//! in at most a conditional branch and an unconditional one, told apart by
//! their flags (`isBranch`, `isBarrier`, `isIndirectBranch`), each naming
//! its target block in a block operand. What is not generic is given by
//! the description: which branch a new block jumps with, which
//! conditional branches the target's analysis understands, and the
//! opposite of each. A conditional branch the description does not list
//! is one LLVM's analysis gives up on (BPF's), and a block ending in one
//! is never split.

use super::ids::Opcode;

/// One conditional branch the target's branch analysis understands.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ConditionalBranchDesc {
    /// The branch.
    pub branch: Opcode,
    /// How to branch on the opposite condition; `None` when the target
    /// cannot (Hexagon's hardware-loop ends).
    pub reverse: Option<BranchReversal>,
}

/// How a conditional branch is turned into its opposite.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BranchReversal {
    /// The opcode of the opposite branch (the same one when only the
    /// condition operand changes).
    pub inverse: Opcode,
    /// The explicit operand holding a condition code and the value XORed
    /// into it (x86's `JCC_1` condition, AArch64's `Bcc`), if any.
    pub condition: Option<(u8, i64)>,
}

/// What commuting one instruction does besides swapping its first two
/// uses (LLVM's `findCommutedOpIndices` and `commuteInstructionImpl`,
/// given as data): an `isCommutable` instruction without one swaps those
/// two uses and nothing else.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CommuteRuleDesc {
    /// The instruction.
    pub instr: Opcode,
    /// False when swapping alone does not commute it (it becomes another
    /// instruction, or commutes only for some immediates): not commuted.
    pub commutes: bool,
    /// The explicit operand holding a condition code and the value XORed
    /// into it when the uses swap (x86's `CMOV`).
    pub condition: Option<(u8, i64)>,
}
