//! Critical-edge splitting as LLVM's `MachineBasicBlock::SplitCriticalEdge` does it for PHI elimination: a new block between a predecessor and its successor, the predecessor's branches rewritten, the live-variable facts kept.
//!
//! The new block goes right after the predecessor in the layout; it
//! takes the edge's place (and probability) in the predecessor's
//! successor list, falls through to the successor or jumps to it with the
//! target's unconditional branch, has the successor's live-ins, and
//! replaces the predecessor in the successor's PHIs. The predecessor's
//! branches are then fixed as LLVM's `updateTerminator` fixes them: a
//! branch to what is now the next block is dropped (reversing the
//! condition of a conditional one when the target can), and a fall-through
//! that no longer reaches its block becomes a branch.
//!
//! New blocks are numbered after the existing ones while the pass runs
//! (as LLVM numbers them) and placed by [`Layout`]; [`Layout::apply`]
//! renumbers every block in layout order at the end, as the MIR printer's
//! reader sees the function.
//!
//! An edge out of a jump-table dispatch that the description names
//! ([`TargetInfo::is_jump_table_branch`], LLVM's `getJumpTableIndex`) is
//! split by pointing the table's entries for the successor at the new
//! block, the dispatch left as it is, when no other block dispatches
//! through the same table.
//!
//! Not split, as LLVM does not split them: edges into an EH pad or an
//! inline-assembly branch target, and out of a block whose branches the
//! analysis does not understand ([`branch::analyze`], an indirect branch
//! the description does not name among them) or whose two branches go
//! to the same block.

use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{Block, BlockData, Generic, MachineFunction, Op, Operand, RegFlags, RegRef, Succ};
use crate::target::TargetInfo;

use super::LiveVariables;
use super::branch;
use super::edit::{insert, rename_blocks};
use super::live_variables::add_register_killed;

/// The probability LLVM prints for the one successor of a new block (an
/// unknown probability, read back as certain).
const CERTAIN: u32 = 0x8000_0000;

/// The block order while blocks are being added.
pub(crate) struct Layout {
    order: Vec<Block>,
}

impl Layout {
    /// The function's current order (block numbers are layout positions).
    pub(crate) fn of(func: &MachineFunction) -> Layout {
        Layout {
            order: func.block_ids().collect(),
        }
    }

    /// The block after `b`, if any.
    fn next(&self, b: Block) -> Option<Block> {
        let k = self.order.iter().position(|&x| x == b)?;
        self.order.get(k + 1).copied()
    }

    /// Places `new` right after `after`.
    fn insert_after(&mut self, after: Block, new: Block) {
        let k = self
            .order
            .iter()
            .position(|&x| x == after)
            .map_or(self.order.len(), |k| k + 1);
        self.order.insert(k, new);
    }

    /// The blocks in layout order (numbers as they are before [`Layout::apply`]).
    pub(crate) fn order(&self) -> &[Block] {
        &self.order
    }

    /// Renumbers the blocks in layout order, with the live-variable facts.
    pub(crate) fn apply(self, func: &mut MachineFunction, lv: Option<&mut LiveVariables>) {
        if self.order.iter().enumerate().all(|(k, b)| b.index() == k) {
            return;
        }
        let mut new_of = vec![Block::new(0); self.order.len()];
        for (k, &b) in self.order.iter().enumerate() {
            new_of[b.index()] = Block::new(k);
        }
        let mut old: Vec<Option<BlockData>> = std::mem::take(&mut func.blocks)
            .into_iter()
            .map(Some)
            .collect();
        func.blocks = self
            .order
            .iter()
            .map(|b| old[b.index()].take().unwrap_or_default())
            .collect();
        rename_blocks(func, &new_of);
        if let Some(lv) = lv {
            for b in lv.block_of.iter_mut().flatten() {
                *b = new_of[b.index()];
            }
            for var in &mut lv.vars {
                let mut alive = vec![false; new_of.len()];
                for (k, &on) in var.alive_blocks.iter().enumerate() {
                    if on && k < new_of.len() {
                        alive[new_of[k].index()] = true;
                    }
                }
                var.alive_blocks = alive;
            }
        }
    }
}

/// For each block (by number before any split), the virtual registers
/// live into it: live through it, or killed in it and defined elsewhere
/// (PHI elimination's `LiveInSets`, computed once before splitting).
pub(crate) fn live_in_sets(
    func: &MachineFunction,
    lv: &LiveVariables,
) -> Vec<Vec<crate::ir::VReg>> {
    let mut sets = vec![Vec::new(); func.blocks.len()];
    for (k, var) in lv.vars.iter().enumerate() {
        let v = crate::ir::VReg::new(k);
        let Some(def) = lv.def_of.get(k).copied().flatten() else {
            continue;
        };
        for (b, _) in var.alive_blocks.iter().enumerate().filter(|(_, on)| **on) {
            if b < sets.len() {
                sets[b].push(v);
            }
        }
        let def_block = lv.block_of.get(def.index()).copied().flatten();
        let kill_block = |i: crate::ir::Inst| lv.block_of.get(i.index()).copied().flatten();
        if var.kills.len() > 1
            || var
                .kills
                .first()
                .is_some_and(|&i| kill_block(i) != def_block)
        {
            for &i in &var.kills {
                if let Some(b) = kill_block(i)
                    && b.index() < sets.len()
                    && !sets[b.index()].contains(&v)
                {
                    sets[b.index()].push(v);
                }
            }
        }
    }
    sets
}

/// How an edge is split: through the block's branches, or by rewriting
/// the jump table it dispatches through.
enum Split {
    Branches,
    JumpTable(u32),
}

/// Whether LLVM's `canSplitCriticalEdge` allows splitting `pred -> succ`,
/// and how.
fn can_split(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    pred: Block,
    succ: Block,
) -> Option<Split> {
    if func.block(succ).attrs.iter().any(|a| {
        matches!(
            &**a,
            "landing-pad" | "ehpad" | "ehfunclet-entry" | "inlineasm-br-indirect-target"
        )
    }) {
        return None;
    }
    if let Some(table) = jump_table_index(t, func, pred)
        && !jump_table_has_other_uses(t, func, pred, table)
    {
        return Some(Split::JumpTable(table));
    }
    let branches = branch::analyze(t, func, pred)?;
    if branches.taken.is_some() && branches.taken == branches.otherwise {
        return None;
    }
    Some(Split::Branches)
}

/// The jump table `b` dispatches through (LLVM's `findJumpTableIndex`):
/// its first terminator is a jump-table branch of the description whose
/// address is computed, within a few definitions, from a jump table.
fn jump_table_index(t: &TargetInfo<'_>, func: &MachineFunction, b: Block) -> Option<u32> {
    let term = *func
        .block(b)
        .insts
        .get(first_terminator_position(t, func, b))?;
    let Op::Target(op) = func.inst(term).op else {
        return None;
    };
    if !t.is_jump_table_branch(op) {
        return None;
    }
    let mut work = vec![(term, 0)];
    while let Some((i, depth)) = work.pop() {
        for o in &func.inst(i).operands {
            match o {
                Operand::Symbol(s) => {
                    if let crate::ir::Symbol::JumpTable(k) = s.sym {
                        return Some(k);
                    }
                }
                Operand::Reg(r) if !r.is_def() && depth < 3 => {
                    if let RegRef::Virt(v) = r.reg
                        && let Some(d) = unique_def(func, v)
                    {
                        work.push((d, depth + 1));
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// The one instruction defining `v`, if it has exactly one.
fn unique_def(func: &MachineFunction, v: crate::ir::VReg) -> Option<crate::ir::Inst> {
    let mut defs = func.inst_ids().filter(|&i| {
        func.inst(i).operands.iter().any(|o| {
            o.as_reg()
                .is_some_and(|r| r.is_def() && r.reg == RegRef::Virt(v))
        })
    });
    let d = defs.next()?;
    defs.next().is_none().then_some(d)
}

/// LLVM's `jumpTableHasOtherUses`: another predecessor of the table's
/// first block dispatches through the same table.
fn jump_table_has_other_uses(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    b: Block,
    table: u32,
) -> bool {
    let Some(first) = func
        .jump_tables
        .as_ref()
        .and_then(|jt| jt.tables.get(table as usize))
        .and_then(|entry| entry.blocks.first().copied())
    else {
        return true;
    };
    func.block(first)
        .preds
        .iter()
        .any(|&p| p != b && jump_table_index(t, func, p) == Some(table))
}

/// Splits `pred -> succ` if LLVM would; the new block, or `None` when the
/// edge cannot be split.
pub(crate) fn split(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    layout: &mut Layout,
    lv: &mut LiveVariables,
    live_ins: &[Vec<crate::ir::VReg>],
    pred: Block,
    succ: Block,
) -> Result<Option<Block>, AllocError> {
    let Some(how) = can_split(t, func, pred, succ) else {
        return Ok(None);
    };
    let mut fallthrough = layout.next(pred);
    let new = func.new_block();
    layout.insert_after(pred, new);
    let killed = take_terminator_kills(t, func, lv, pred);
    // The edge's place in the successor list, and the branches to it.
    let first_term = first_terminator_position(t, func, pred);
    for k in (first_term..func.block(pred).insts.len()).rev() {
        let i = func.block(pred).insts[k];
        for o in &mut func.inst_mut(i).operands {
            if let Operand::Block(b) = o
                && *b == succ
            {
                *b = new;
            }
        }
    }
    for s in &mut func.blocks[pred.index()].succs {
        if s.block == succ {
            s.block = new;
        }
    }
    if fallthrough == Some(succ) {
        fallthrough = Some(new);
    }
    match how {
        Split::JumpTable(table) => {
            if let Some(entry) = func
                .jump_tables
                .as_mut()
                .and_then(|jt| jt.tables.get_mut(table as usize))
            {
                for e in &mut entry.blocks {
                    if *e == succ {
                        *e = new;
                    }
                }
            }
        }
        Split::Branches => update_terminator(t, func, layout, lv, pred, fallthrough)?,
    }
    func.blocks[new.index()].succs.push(Succ {
        block: succ,
        prob: Some(CERTAIN),
    });
    if layout.next(new) != Some(succ) {
        let jump = jump(t, func, succ)?;
        let i = insert(func, new, 0, jump);
        lv.placed(i, Some(new));
    }
    replace_phi_block(func, succ, pred, new);
    func.blocks[new.index()].live_ins = func.block(succ).live_ins.clone();
    restore_kills(t, func, lv, pred, killed);
    add_new_block(func, lv, live_ins, new, succ);
    Ok(Some(new))
}

/// The target's unconditional branch to `to`, or an error when the
/// description names none.
fn jump(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    to: Block,
) -> Result<crate::ir::InstData, AllocError> {
    branch::unconditional_to(t, to).ok_or_else(|| {
        AllocError::new(
            AllocErrorKind::Unsupported,
            &func.name,
            format!(
                "splitting an edge to bb.{} needs a jump, and the target description names \
                 no UnconditionalBranch",
                to.0
            ),
        )
    })
}

fn first_terminator_position(t: &TargetInfo<'_>, func: &MachineFunction, b: Block) -> usize {
    super::edit::first_terminator(t, func, b)
}

/// Clears the kill flags of the registers `pred`'s terminators kill
/// (forgetting the kills of virtual registers), returning the registers.
fn take_terminator_kills(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    lv: &mut LiveVariables,
    pred: Block,
) -> Vec<RegRef> {
    let mut killed = Vec::new();
    let first = first_terminator_position(t, func, pred);
    let insts: Vec<_> = func.block(pred).insts[first..].to_vec();
    for i in insts {
        let n = func.inst(i).operands.len();
        for k in 0..n {
            let Operand::Reg(r) = &func.inst(i).operands[k] else {
                continue;
            };
            if r.is_def() || !r.flags.has(RegFlags::KILLED) || r.flags.has(RegFlags::UNDEF) {
                continue;
            }
            let reg = r.reg;
            let forget = match reg {
                RegRef::Virt(v) => lv.var(v).remove_kill(i),
                RegRef::Phys(_) => true,
                _ => false,
            };
            if forget {
                killed.push(reg);
                if let Operand::Reg(r) = &mut func.inst_mut(i).operands[k] {
                    r.flags.set(RegFlags::KILLED, false);
                }
            }
        }
    }
    killed
}

/// Puts the kills taken by [`take_terminator_kills`] back on the last
/// instruction of `pred` that reads each register (LLVM restores them
/// after the branches are rewritten, last register first).
fn restore_kills(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    lv: &mut LiveVariables,
    pred: Block,
    mut killed: Vec<RegRef>,
) {
    while let Some(reg) = killed.pop() {
        let insts = func.block(pred).insts.clone();
        for &i in insts.iter().rev() {
            if !add_register_killed(t, func.inst_mut(i), reg, false) {
                continue;
            }
            if let RegRef::Virt(v) = reg {
                lv.var(v).kills.push(i);
            }
            break;
        }
    }
}

/// Replaces `old` by `new` as an incoming block of `b`'s PHIs.
fn replace_phi_block(func: &mut MachineFunction, b: Block, old: Block, new: Block) {
    let insts = func.block(b).insts.clone();
    for i in insts {
        if func.inst(i).op != Op::Generic(Generic::Phi) {
            break;
        }
        for o in func.inst_mut(i).operands.iter_mut().skip(1) {
            if let Operand::Block(x) = o
                && *x == old
            {
                *x = new;
            }
        }
    }
}

/// LLVM's `LiveVariables::addNewBlock` with live-in sets: what is live
/// into `succ` is live through `new`, and so are the PHI inputs now
/// coming from `new`.
fn add_new_block(
    func: &MachineFunction,
    lv: &mut LiveVariables,
    live_ins: &[Vec<crate::ir::VReg>],
    new: Block,
    succ: Block,
) {
    for &v in live_ins.get(succ.index()).map_or(&[][..], |s| &s[..]) {
        lv.var(v).set_alive(new, true);
    }
    for &i in &func.block(succ).insts {
        let inst = func.inst(i);
        if inst.op != Op::Generic(Generic::Phi) {
            break;
        }
        for pair in inst.operands[1..].chunks(2) {
            if let [Operand::Reg(r), Operand::Block(from)] = pair
                && *from == new
                && let RegRef::Virt(v) = r.reg
            {
                lv.var(v).set_alive(new, true);
            }
        }
    }
}

/// LLVM's `updateTerminator`: after `b`'s branches were pointed at the
/// new block, drops a branch to the block that now follows `b` and adds
/// one where `b` no longer falls through to `fallthrough`.
fn update_terminator(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    layout: &Layout,
    lv: &mut LiveVariables,
    b: Block,
    fallthrough: Option<Block>,
) -> Result<(), AllocError> {
    if func.block(b).succs.is_empty() {
        return Ok(());
    }
    let Some(br) = branch::analyze(t, func, b) else {
        return Err(AllocError::new(
            AllocErrorKind::Unsupported,
            &func.name,
            format!(
                "the branches of bb.{} changed shape while an edge was split",
                b.0
            ),
        ));
    };
    let next = layout.next(b);
    let is_next = |x: Option<Block>| x.is_some() && x == next;
    let is_succ =
        |func: &MachineFunction, x: Block| func.block(b).succs.iter().any(|s| s.block == x);
    let Some(cond) = br.conditional else {
        if br.taken.is_some() {
            if is_next(br.taken)
                && let Some(u) = br.unconditional
            {
                remove(func, b, u);
            }
        } else if let Some(f) = fallthrough
            && is_succ(func, f)
            && !is_eh_pad(func, f)
            && !is_next(Some(f))
        {
            append_jump(t, func, lv, b, f)?;
        }
        return Ok(());
    };
    if let Some(otherwise) = br.otherwise {
        if is_next(br.taken) {
            if branch::reverse(t, func, cond) {
                branch::retarget(func, cond, otherwise);
                if let Some(u) = br.unconditional {
                    remove(func, b, u);
                }
            }
        } else if is_next(Some(otherwise))
            && let Some(u) = br.unconditional
        {
            remove(func, b, u);
        }
        return Ok(());
    }
    let Some(f) = fallthrough else {
        return Ok(());
    };
    if br.taken == Some(f) {
        remove(func, b, cond);
        if !is_next(br.taken) {
            append_jump(t, func, lv, b, f)?;
        }
        return Ok(());
    }
    if is_next(br.taken) {
        if branch::reverse(t, func, cond) {
            branch::retarget(func, cond, f);
        } else {
            append_jump(t, func, lv, b, f)?;
        }
    } else if !is_next(Some(f)) {
        append_jump(t, func, lv, b, f)?;
    }
    Ok(())
}

fn is_eh_pad(func: &MachineFunction, b: Block) -> bool {
    func.block(b)
        .attrs
        .iter()
        .any(|a| matches!(&**a, "landing-pad" | "ehpad" | "ehfunclet-entry"))
}

fn remove(func: &mut MachineFunction, b: Block, i: crate::ir::Inst) {
    func.blocks[b.index()].insts.retain(|&x| x != i);
}

fn append_jump(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    lv: &mut LiveVariables,
    b: Block,
    to: Block,
) -> Result<(), AllocError> {
    let data = jump(t, func, to)?;
    let at = func.block(b).insts.len();
    let i = insert(func, b, at, data);
    lv.placed(i, Some(b));
    Ok(())
}
