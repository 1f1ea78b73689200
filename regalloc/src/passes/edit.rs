//! Small edits and questions the passes share: reads as LLVM counts them, debug instructions, inserting and removing instructions, renaming blocks.

use crate::ir::{
    Block, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegOperand,
};
use crate::target::TargetInfo;

/// Whether the operand reads its register as LLVM's `readsReg` counts
/// reads: not `undef`, not `internal`, and a use or a sub-register
/// definition (which keeps the other lanes).
pub(crate) fn reads_reg(r: &RegOperand) -> bool {
    !r.flags.has(RegFlags::UNDEF)
        && !r.flags.has(RegFlags::INTERNAL)
        && (!r.is_def() || r.sub.is_some())
}

/// Whether `op` is a debug instruction, which no pass counts as a reader.
pub(crate) fn is_debug(op: Op) -> bool {
    op.is_debug()
}

/// Adds `data` to the function's instructions and places it at `pos` in
/// block `b`.
pub(crate) fn insert(func: &mut MachineFunction, b: Block, pos: usize, data: InstData) -> Inst {
    func.insts.push(data);
    let i = Inst::new(func.insts.len() - 1);
    func.blocks[b.index()].insts.insert(pos, i);
    i
}

/// Takes instruction `i` out of block `b` (the arena keeps it, unplaced).
pub(crate) fn erase(func: &mut MachineFunction, b: Block, i: Inst) {
    func.blocks[b.index()].insts.retain(|&x| x != i);
}

/// Renames every block reference by `new_of` (old number to new).
pub(crate) fn rename_blocks(func: &mut MachineFunction, new_of: &[Block]) {
    for b in &mut func.blocks {
        for s in &mut b.succs {
            s.block = new_of[s.block.index()];
        }
        for p in &mut b.preds {
            *p = new_of[p.index()];
        }
    }
    for k in 0..func.blocks.len() {
        for n in 0..func.blocks[k].insts.len() {
            let i = func.blocks[k].insts[n];
            for o in &mut func.insts[i.index()].operands {
                if let Operand::Block(b) = o {
                    *b = new_of[b.index()];
                }
            }
        }
    }
    if let Some(jt) = &mut func.jump_tables {
        for table in &mut jt.tables {
            for b in &mut table.blocks {
                *b = new_of[b.index()];
            }
        }
    }
}

/// Whether `op` is a label or a CFI instruction (LLVM's `isPosition`),
/// which code placed at a block's top goes after.
pub(crate) fn is_position(op: Op) -> bool {
    matches!(
        op,
        Op::Generic(
            Generic::EhLabel
                | Generic::GcLabel
                | Generic::AnnotationLabel
                | Generic::CfiInstruction
        )
    )
}

/// Position of the first terminator of `b` (its length when it has none).
pub(crate) fn first_terminator(t: &TargetInfo<'_>, func: &MachineFunction, b: Block) -> usize {
    let insts = &func.block(b).insts;
    insts
        .iter()
        .position(|&i| func.inst(i).op.is_terminator(t))
        .unwrap_or(insts.len())
}
