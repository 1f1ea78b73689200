//! A block's branches read and rewritten from the target's branch facts: LLVM's `analyzeBranch`, `insertBranch`, `removeBranch`, `reverseBranchCondition` and `MachineBasicBlock::updateTerminator`.
//!
//! The reading is LLVM's with modification not allowed: from the end of
//! the block (debug instructions skipped), the terminators are at most a
//! conditional branch the description lists
//! ([`TargetInfo::conditional_branch`]) followed by the target's
//! unconditional branch ([`TargetInfo::unconditional_branch`]), each
//! naming one block. Anything else (an indirect branch, a return, a
//! branch the description does not list, three branches) is a block the
//! analysis does not understand, as LLVM's targets say of theirs.
//! Rewrites change the branch instructions in place (reversing a
//! condition, retargeting, removing one) where LLVM removes and re-inserts
//! them: the result is the same instructions, their kill flags included.

use crate::ir::{Block, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegOperand};
use crate::target::{Opcode, TargetInfo};

use super::edit::is_debug;

/// What `analyzeBranch` finds at the end of a block.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct Branches {
    /// Where the conditional branch goes, or the unconditional one when
    /// there is no conditional branch (LLVM's `TBB`).
    pub taken: Option<Block>,
    /// Where the unconditional branch after a conditional one goes
    /// (LLVM's `FBB`).
    pub otherwise: Option<Block>,
    /// The conditional branch (LLVM's non-empty `Cond`).
    pub conditional: Option<Inst>,
    /// The unconditional branch.
    pub unconditional: Option<Inst>,
}

/// The block operand of branch `i`, if it has exactly one.
fn target_of(func: &MachineFunction, i: Inst) -> Option<Block> {
    let mut blocks = func.inst(i).operands.iter().filter_map(|o| match o {
        Operand::Block(b) => Some(*b),
        _ => None,
    });
    let first = blocks.next()?;
    blocks.next().is_none().then_some(first)
}

/// The target opcode of `i`, if it is a target instruction.
fn opcode(func: &MachineFunction, i: Inst) -> Option<Opcode> {
    match func.inst(i).op {
        Op::Target(o) => Some(o),
        _ => None,
    }
}

/// Reads the branches ending `b`; `None` when the target's analysis
/// would not understand them.
pub(crate) fn analyze(t: &TargetInfo<'_>, func: &MachineFunction, b: Block) -> Option<Branches> {
    let terminators: Vec<Inst> = func
        .block(b)
        .insts
        .iter()
        .rev()
        .copied()
        .filter(|&i| !is_debug(func.inst(i).op))
        .take_while(|&i| func.inst(i).op.is_terminator(t))
        .collect();
    let is_unconditional =
        |i: Inst| opcode(func, i).is_some_and(|o| t.unconditional_branch == Some(o));
    let is_conditional =
        |i: Inst| opcode(func, i).is_some_and(|o| t.conditional_branch(o).is_some());
    match terminators[..] {
        [] => Some(Branches::default()),
        [last] if is_unconditional(last) => Some(Branches {
            taken: Some(target_of(func, last)?),
            unconditional: Some(last),
            ..Branches::default()
        }),
        [last] if is_conditional(last) => Some(Branches {
            taken: Some(target_of(func, last)?),
            conditional: Some(last),
            ..Branches::default()
        }),
        [last, before] if is_unconditional(last) && is_conditional(before) => Some(Branches {
            taken: Some(target_of(func, before)?),
            otherwise: Some(target_of(func, last)?),
            conditional: Some(before),
            unconditional: Some(last),
        }),
        _ => None,
    }
}

/// Reverses the condition of conditional branch `i` in place (LLVM's
/// `reverseBranchCondition`); `false` when the target cannot.
pub(crate) fn reverse(t: &TargetInfo<'_>, func: &mut MachineFunction, i: Inst) -> bool {
    let Some(r) = opcode(func, i)
        .and_then(|o| t.conditional_branch(o))
        .and_then(|c| c.reverse)
    else {
        return false;
    };
    if let Some((k, xor)) = r.condition {
        let Some(Operand::Imm(v)) = func.inst_mut(i).operands.get_mut(usize::from(k)) else {
            return false;
        };
        *v ^= xor;
    }
    func.inst_mut(i).op = Op::Target(r.inverse);
    true
}

/// Points branch `i` at `to`.
pub(crate) fn retarget(func: &mut MachineFunction, i: Inst, to: Block) {
    for o in &mut func.inst_mut(i).operands {
        if let Operand::Block(b) = o {
            *b = to;
        }
    }
}

/// The target's unconditional branch to `to`, with the implicit operands
/// its description lists (definitions first, as LLVM's `BuildMI` adds
/// them); `None` when the target names no unconditional branch.
pub(crate) fn unconditional_to(t: &TargetInfo<'_>, to: Block) -> Option<InstData> {
    let op = t.unconditional_branch?;
    let desc = t.instr(op);
    let mut data = InstData::new(Op::Target(op));
    data.operands.push(Operand::Block(to));
    for &r in desc.implicit_defs.iter() {
        let mut o = RegOperand::def_of(r);
        o.flags.set(RegFlags::IMPLICIT, true);
        data.operands.push(Operand::Reg(o));
    }
    for &r in desc.implicit_uses.iter() {
        let mut o = RegOperand::use_of(r);
        o.flags.set(RegFlags::IMPLICIT, true);
        data.operands.push(Operand::Reg(o));
    }
    Some(data)
}
