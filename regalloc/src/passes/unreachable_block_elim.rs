//! `unreachable-mbb-elimination`: LLVM's UnreachableMachineBlockElim. Blocks the entry cannot reach are removed; PHIs keep only the entries of their remaining predecessors.
//!
//! A PHI left with one entry is replaced: by its input everywhere when
//! the input has no sub-register, is not `undef`, and its class can be
//! narrowed to the PHI's (LLVM's `constrainRegClass`); by a `COPY` at the
//! top of the block otherwise. Blocks keep their layout order and are
//! renumbered, as LLVM's `RenumberBlocks` does.

use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{
    Block, Generic, InstData, MachineFunction, Op, Operand, RegFlags, RegOperand, RegRef,
};
use crate::target::TargetInfo;

use super::edit::{erase, insert, rename_blocks};

/// Runs the pass on `func`.
pub fn run(target: &TargetInfo<'_>, func: &mut MachineFunction) -> Result<(), AllocError> {
    run_recorded(target, func, None)
}

/// [`run`], keeping `origins` (where each block came from, by block)
/// in step with the blocks removed.
pub(crate) fn run_recorded(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    origins: Option<&mut Vec<crate::record::BlockOrigin>>,
) -> Result<(), AllocError> {
    if func.blocks.is_empty() {
        return Ok(());
    }
    let reachable = reachable_blocks(func);
    let dead: Vec<Block> = func.block_ids().filter(|b| !reachable[b.index()]).collect();
    if !dead.is_empty() {
        refuse_dead_jump_table_entries(func, &reachable)?;
        for &b in &dead {
            drop_phi_entries_from(func, b);
        }
        remove_blocks(func, &reachable);
        if let Some(o) = origins {
            let mut k = 0;
            o.retain(|_| {
                k += 1;
                reachable.get(k - 1).copied().unwrap_or(false)
            });
        }
    }
    func.compute_preds();
    for b in func.block_ids() {
        prune_phis(target, func, b);
    }
    Ok(())
}

/// Which blocks a walk of the successor edges from the entry reaches.
fn reachable_blocks(func: &MachineFunction) -> Vec<bool> {
    let mut seen = vec![false; func.blocks.len()];
    let mut stack = vec![Block::new(0)];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        for s in &func.block(b).succs {
            if !std::mem::replace(&mut seen[s.block.index()], true) {
                stack.push(s.block);
            }
        }
    }
    seen
}

/// A jump table naming a removed block would name nothing: LLVM leaves
/// such an entry dangling; here it is refused.
fn refuse_dead_jump_table_entries(
    func: &MachineFunction,
    reachable: &[bool],
) -> Result<(), AllocError> {
    let Some(jt) = &func.jump_tables else {
        return Ok(());
    };
    for (n, table) in jt.tables.iter().enumerate() {
        if let Some(b) = table.blocks.iter().find(|b| !reachable[b.index()]) {
            return Err(AllocError::new(
                AllocErrorKind::Unsupported,
                &func.name,
                format!(
                    "jump table %jump-table.{n} names bb.{}, which the entry cannot reach",
                    b.0
                ),
            ));
        }
    }
    Ok(())
}

/// Removes, from the PHIs of `dead`'s successors, the entries for `dead`.
fn drop_phi_entries_from(func: &mut MachineFunction, dead: Block) {
    let succs: Vec<Block> = func.block(dead).succs.iter().map(|s| s.block).collect();
    for s in succs {
        let phis: Vec<_> = phis_of(func, s);
        for i in phis {
            remove_phi_entries(&mut func.inst_mut(i).operands, |b| b == dead);
        }
    }
}

/// The PHIs at the top of block `b`.
fn phis_of(func: &MachineFunction, b: Block) -> Vec<crate::ir::Inst> {
    func.block(b)
        .insts
        .iter()
        .copied()
        .take_while(|&i| func.inst(i).op == PHI)
        .collect()
}

const PHI: Op = Op::Generic(Generic::Phi);

/// Removes the (value, block) pairs of a PHI whose block `gone` says,
/// scanning from the last pair as LLVM does.
fn remove_phi_entries(operands: &mut Vec<Operand>, gone: impl Fn(Block) -> bool) -> bool {
    let mut changed = false;
    let mut k = operands.len();
    while k >= 3 {
        if let Operand::Block(b) = operands[k - 1]
            && gone(b)
        {
            operands.drain(k - 2..k);
            changed = true;
        }
        k -= 2;
    }
    changed
}

/// Drops the unreachable blocks, keeping the others in layout order and
/// renumbering every reference.
fn remove_blocks(func: &mut MachineFunction, reachable: &[bool]) {
    let mut new_of = vec![Block::new(0); func.blocks.len()];
    let mut n = 0;
    for (k, &live) in reachable.iter().enumerate() {
        if live {
            new_of[k] = Block::new(n);
            n += 1;
        }
    }
    let old = std::mem::take(&mut func.blocks);
    func.blocks = old
        .into_iter()
        .zip(reachable)
        .filter_map(|(b, &live)| live.then_some(b))
        .collect();
    for b in &mut func.blocks {
        b.succs.retain(|s| reachable[s.block.index()]);
    }
    rename_blocks(func, &new_of);
}

/// Prunes the PHIs of `b` to its predecessors and replaces those left
/// with a single entry.
fn prune_phis(target: &TargetInfo<'_>, func: &mut MachineFunction, b: Block) {
    let preds = func.block(b).preds.clone();
    for i in phis_of(func, b) {
        remove_phi_entries(&mut func.inst_mut(i).operands, |p| !preds.contains(&p));
        let ops = &func.inst(i).operands;
        if ops.len() != 3 {
            continue;
        }
        let (Some(out), Some(input)) = (ops[0].as_reg().cloned(), ops[1].as_reg().cloned()) else {
            continue;
        };
        if out.reg == input.reg {
            continue;
        }
        let (RegRef::Virt(o), RegRef::Virt(v)) = (out.reg, input.reg) else {
            continue;
        };
        let undef = input.flags.has(RegFlags::UNDEF);
        if input.sub.is_none() && !undef && constrain_class(target, func, v, o) {
            replace_reg(func, o, v);
        } else {
            let at = func
                .block(b)
                .insts
                .iter()
                .position(|&x| func.inst(x).op != PHI)
                .unwrap_or(func.block(b).insts.len());
            let mut copy = InstData::new(Op::Generic(Generic::Copy));
            copy.operands.push(Operand::Reg(RegOperand::def_of(o)));
            let mut src = RegOperand::use_of(v);
            src.sub = input.sub;
            src.flags = RegFlags(input.flags.0 & !RegFlags::DEF.0 & !RegFlags::IMPLICIT.0);
            copy.operands.push(Operand::Reg(src));
            insert(func, b, at, copy);
        }
        erase(func, b, i);
    }
}

/// Narrows `v`'s class to one `o`'s class allows too (LLVM's
/// `constrainRegClass`); false when the classes have no common
/// sub-class.
fn constrain_class(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    v: crate::ir::VReg,
    o: crate::ir::VReg,
) -> bool {
    let (Some(vc), Some(oc)) = (func.vreg_class(v), func.vreg_class(o)) else {
        return func.vreg_class(v) == func.vreg_class(o);
    };
    if vc == oc {
        return true;
    }
    match crate::alloc::inflate::common_sub_class(target, vc, oc) {
        Some(c) => {
            func.vregs[v.index()].class = Some(c);
            true
        }
        None => false,
    }
}

/// Every operand naming `from` names `to` instead (LLVM's
/// `replaceRegWith`).
fn replace_reg(func: &mut MachineFunction, from: crate::ir::VReg, to: crate::ir::VReg) {
    for b in 0..func.blocks.len() {
        for k in 0..func.blocks[b].insts.len() {
            let i = func.blocks[b].insts[k];
            for o in &mut func.insts[i.index()].operands {
                if let Operand::Reg(r) = o
                    && r.reg == RegRef::Virt(from)
                {
                    r.reg = RegRef::Virt(to);
                }
            }
        }
    }
}
