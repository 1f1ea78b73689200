//! `phi-node-elimination`: LLVM's PHIElimination. Each PHI becomes a copy from a new register at the top of its block, and a copy into that register at the end of each predecessor, before its terminators.
//!
//! As LLVM's, with the facts of `livevars` ([`LiveVariables`]) at hand:
//!
//! - the copy at the top goes after the block's PHIs and labels, the
//!   copies into the new register before the first terminator of each
//!   predecessor (once per predecessor, however many entries name it);
//! - a PHI whose inputs are all `undef` becomes an `IMPLICIT_DEF`, and an
//!   `undef` input an `IMPLICIT_DEF` of the new register;
//! - when every edge into the block is critical, an identical PHI lowered
//!   before (same inputs from the same blocks) lends its register, so the
//!   predecessors are not given a second copy of the same value;
//! - kill and dead flags move to the copies, and the predecessor's copy
//!   kills its source when no other PHI of that edge and no successor
//!   needs it.
//!
//! Critical edges: first, as LLVM's `SplitPHIEdges`, the edge from a
//! predecessor with several successors is split when the input is live
//! out of the predecessor past the PHI and not live into the block, or
//! when the edge leaves a loop (not entering it from an outer one); never
//! a loop's back edge. The split itself
//! (`split_critical_edge.rs`) rewrites the
//! predecessor's branches from the target's branch facts, or the jump
//! table a dispatch the description names goes through; an edge LLVM
//! cannot split (a branch its analysis does not understand) is left.
//! New blocks are numbered in layout order at the end. Without the
//! `livevars` facts (the pass run alone), LLVM neither splits nor updates
//! flags, and neither does this.
use std::collections::HashMap;

use crate::analysis::cfg::Cfg;
use crate::analysis::dom::DomTree;
use crate::analysis::loops::LoopInfo;
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{
    Block, Generic, Inst, InstAttrs, InstData, MachineFunction, Op, Operand, RegFlags, RegOperand,
    RegRef, VReg,
};
use crate::target::{SubRegIndex, TargetInfo};

use crate::record::BlockOrigin;

use super::LiveVariables;
use super::edit::{first_terminator, insert, is_debug, is_position};
use super::split_critical_edge::{Layout, live_in_sets, split};

const PHI: Op = Op::Generic(Generic::Phi);
const COPY: Op = Op::Generic(Generic::Copy);
const IMPLICIT_DEF: Op = Op::Generic(Generic::ImplicitDef);

/// Runs the pass on `func`, updating `lv` when given.
pub fn run(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    lv: Option<&mut LiveVariables>,
) -> Result<(), AllocError> {
    run_recorded(target, func, lv, None)
}

/// [`run`], keeping `origins` (where each block came from, by block) in
/// step with the blocks split edges add and the renumbering.
pub(crate) fn run_recorded(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    mut lv: Option<&mut LiveVariables>,
    origins: Option<&mut Vec<BlockOrigin>>,
) -> Result<(), AllocError> {
    func.compute_preds();
    let mut layout = Layout::of(func);
    let mut splits = Vec::new();
    if let Some(lv) = lv.as_deref_mut() {
        split_phi_edges(target, func, &mut layout, lv, &mut splits)?;
        func.compute_preds();
    }
    if let Some(o) = origins {
        record_origins(o, &splits, layout.order());
    }
    let mut pass = Lowering {
        t: target,
        phi_uses: phi_use_counts(func),
        lowered: HashMap::new(),
        implicit_defs: Vec::new(),
    };
    for b in func.block_ids() {
        pass.block(func, b, lv.as_deref_mut())?;
    }
    pass.remove_unused_implicit_defs(func, lv.as_deref_mut());
    layout.apply(func, lv);
    func.compute_preds();
    Ok(())
}

/// Splits the critical edges into blocks with PHIs where LLVM's
/// `SplitPHIEdges` would, block by block in layout order (the facts of
/// `lv` kept up to date as edges are split).
fn split_phi_edges(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    layout: &mut Layout,
    lv: &mut LiveVariables,
    splits: &mut Vec<(Block, Block, Block)>,
) -> Result<(), AllocError> {
    let cfg = Cfg::new(func);
    let dom = DomTree::new(&cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let live_ins = live_in_sets(func, lv);
    for b in func.block_ids() {
        if func
            .block(b)
            .attrs
            .iter()
            .any(|a| &**a == "landing-pad" || &**a == "ehpad")
        {
            continue;
        }
        split_edges_into(t, func, layout, lv, &loops, &live_ins, b, splits)?;
    }
    Ok(())
}

/// Extends `origins` (by block, before the renumbering) with the blocks
/// `splits` made, (new block, predecessor, successor) each, then puts
/// them in the layout `order` the renumbering follows.
fn record_origins(
    origins: &mut Vec<BlockOrigin>,
    splits: &[(Block, Block, Block)],
    order: &[Block],
) {
    let of = |o: &[BlockOrigin], b: Block| match o.get(b.index()) {
        Some(&BlockOrigin::Original(x)) => x,
        Some(&BlockOrigin::Split { to, .. }) => to,
        None => b,
    };
    for &(new, pred, succ) in splits {
        let origin = BlockOrigin::Split {
            from: of(origins, pred),
            to: of(origins, succ),
        };
        if origins.len() <= new.index() {
            origins.resize(new.index() + 1, origin);
        }
        origins[new.index()] = origin;
    }
    let renumbered: Vec<BlockOrigin> = order
        .iter()
        .filter_map(|b| origins.get(b.index()).copied())
        .collect();
    *origins = renumbered;
}

/// Splits, PHI by PHI and input by input (the inputs read again after
/// each split, which renames the predecessor), the edges into `b` that
/// LLVM would split. An edge that cannot be split is left, as LLVM
/// leaves it. Each split is pushed on `splits` (new block, predecessor,
/// successor).
#[allow(clippy::too_many_arguments)]
fn split_edges_into(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    layout: &mut Layout,
    lv: &mut LiveVariables,
    loops: &LoopInfo,
    live_ins: &[Vec<VReg>],
    b: Block,
    splits: &mut Vec<(Block, Block, Block)>,
) -> Result<(), AllocError> {
    let mut k = 0;
    while let Some(&phi) = func.block(b).insts.get(k)
        && func.inst(phi).op == PHI
    {
        let mut j = 1;
        while j + 1 < func.inst(phi).operands.len() {
            let ops = &func.inst(phi).operands;
            if let (Operand::Reg(r), Operand::Block(pred)) = (&ops[j], &ops[j + 1])
                && let RegRef::Virt(v) = r.reg
            {
                let pred = *pred;
                if should_split(func, lv, loops, b, v, pred)
                    && let Some(new) = split(t, func, layout, lv, live_ins, pred, b)?
                {
                    splits.push((new, pred, b));
                }
            }
            j += 2;
        }
        k += 1;
    }
    Ok(())
}

/// Whether LLVM's `SplitPHIEdges` splits `pred -> b` for the input `v`:
/// the edge is critical, not a loop's back edge, and `v` is live out of
/// `pred` past the PHI and either not live into `b` or leaving a loop
/// (other than by entering `b`'s loop from an outer one).
fn should_split(
    func: &MachineFunction,
    lv: &mut LiveVariables,
    loops: &LoopInfo,
    b: Block,
    v: VReg,
    pred: Block,
) -> bool {
    if func.block(pred).succs.len() == 1 || pred == b {
        return false;
    }
    let cur_loop = loops.loop_for(b);
    let is_header = cur_loop.is_some_and(|l| loops.get(l).header == b);
    let pred_loop = loops.loop_for(pred);
    if is_header && pred_loop == cur_loop {
        return false;
    }
    if !lv.is_live_out(func, v, pred) {
        return false;
    }
    if !lv.is_live_in(v, b) {
        return true;
    }
    cur_loop != pred_loop
        && pred_loop
            .is_some_and(|pl| !cur_loop.is_some_and(|cl| loops.contains(pl, loops.get(cl).header)))
}

/// How many PHIs read each (predecessor, register) pair (LLVM's
/// `VRegPHIUseCount`); `undef` inputs are not counted.
fn phi_use_counts(func: &MachineFunction) -> HashMap<(Block, VReg), usize> {
    let mut counts = HashMap::new();
    for i in func.inst_ids() {
        let inst = func.inst(i);
        if inst.op != PHI {
            continue;
        }
        for pair in inst.operands[1..].chunks(2) {
            if let [Operand::Reg(r), Operand::Block(p)] = pair
                && let RegRef::Virt(v) = r.reg
                && !r.flags.has(RegFlags::UNDEF)
            {
                *counts.entry((*p, v)).or_insert(0) += 1;
            }
        }
    }
    counts
}

/// A PHI's inputs as LLVM compares PHIs for identity: registers,
/// sub-registers and blocks, flags left out.
type PhiKey = Vec<(RegRef, Option<SubRegIndex>, Option<Block>)>;

fn phi_key(inst: &InstData) -> PhiKey {
    inst.operands[1..]
        .iter()
        .map(|o| match o {
            Operand::Reg(r) => (r.reg, r.sub, None),
            Operand::Block(b) => (RegRef::NoReg, None, Some(*b)),
            _ => (RegRef::NoReg, None, None),
        })
        .collect()
}

struct Lowering<'a, 't> {
    t: &'a TargetInfo<'t>,
    phi_uses: HashMap<(Block, VReg), usize>,
    /// The register each PHI lowered so far (into a block whose edges are
    /// all critical) copies its inputs into.
    lowered: HashMap<PhiKey, VReg>,
    /// `IMPLICIT_DEF`s whose registers fed an `undef` input: removed at
    /// the end if nothing reads them any more.
    implicit_defs: Vec<(Block, Inst, VReg)>,
}

impl Lowering<'_, '_> {
    fn block(
        &mut self,
        func: &mut MachineFunction,
        b: Block,
        mut lv: Option<&mut LiveVariables>,
    ) -> Result<(), AllocError> {
        let insts = &func.block(b).insts;
        if insts.first().is_none_or(|&i| func.inst(i).op != PHI) {
            return Ok(());
        }
        // The copies go before the first instruction after the PHIs and
        // labels (or at the end).
        let mut after = insts.iter().copied().find(|&i| {
            let op = func.inst(i).op;
            op != PHI && !is_position(op)
        });
        let preds = &func.block(b).preds;
        let all_critical =
            preds.len() >= 2 && preds.iter().all(|p| func.block(*p).succs.len() >= 2);
        while let Some(&phi) = func.block(b).insts.first()
            && func.inst(phi).op == PHI
        {
            func.blocks[b.index()].insts.remove(0);
            if let Some(lv) = lv.as_deref_mut() {
                lv.placed(phi, None);
            }
            // LLVM inserts each copy right after the last PHI, so each goes
            // before the one of the PHI lowered before it.
            if let Some(top) = self.lower(func, b, phi, after, all_critical, lv.as_deref_mut())? {
                after = Some(top);
            }
        }
        Ok(())
    }

    /// LLVM's `LowerPHINode`: the copy at the top of `b` (before `after`)
    /// takes the PHI's place and its kill and dead facts, then each
    /// predecessor gets its copy into the PHI's register. Returns the top
    /// copy (the next PHI's goes before it), or `None` for a PHI that
    /// defines no virtual register.
    fn lower(
        &mut self,
        func: &mut MachineFunction,
        b: Block,
        phi: Inst,
        after: Option<Inst>,
        all_critical: bool,
        mut lv: Option<&mut LiveVariables>,
    ) -> Result<Option<Inst>, AllocError> {
        let Some(Operand::Reg(dest_op)) = func.inst(phi).operands.first().cloned() else {
            return Ok(None);
        };
        let RegRef::Virt(dest) = dest_op.reg else {
            return Ok(None);
        };
        let dest_dead = dest_op.flags.has(RegFlags::DEAD);
        let top = self.insert_top_copy(func, b, phi, (dest, dest_dead), after, all_critical);
        if let Some(lv) = lv.as_deref_mut() {
            lv.placed(top.inst, Some(b));
            self.move_flags_to_copy(func, lv, b, phi, &top);
        }
        let ops = func.inst(phi).operands.clone();
        self.forget_phi_uses(&ops);
        self.lower_inputs(func, b, &ops, &top, lv)?;
        Ok(Some(top.inst))
    }

    /// The instruction that takes the PHI's place at the top of `b`,
    /// inserted before `after` (at the end without it): `dest = COPY` of
    /// the register the predecessors copy into, or `dest = IMPLICIT_DEF`
    /// when no input has a value (LLVM then inserts no predecessor copy).
    /// It keeps the PHI's debug location.
    fn insert_top_copy(
        &mut self,
        func: &mut MachineFunction,
        b: Block,
        phi: Inst,
        (dest, dest_dead): (VReg, bool),
        after: Option<Inst>,
        all_critical: bool,
    ) -> TopCopy {
        let location = func
            .inst(phi)
            .attrs
            .as_ref()
            .and_then(|a| a.debug_location.clone());
        let (data, incoming, reused) = if all_inputs_undefined(func, phi) {
            (def_inst(IMPLICIT_DEF, dest, None, location), None, false)
        } else {
            let (reg, reused) = self.incoming_register(func, phi, dest, all_critical);
            let copy = def_inst(COPY, dest, Some(reg_use(reg, None)), location);
            (copy, Some(reg), reused)
        };
        let at = after
            .and_then(|a| func.block(b).insts.iter().position(|&x| x == a))
            .unwrap_or(func.block(b).insts.len());
        TopCopy {
            inst: insert(func, b, at, data),
            dest,
            dest_dead,
            incoming,
            reused,
        }
    }

    /// The register the predecessors copy the PHI's inputs into (of
    /// `dest`'s class), and whether an earlier PHI made it: when every
    /// edge into the block is critical, a PHI identical to one lowered
    /// before reuses that one's register, so that no predecessor gets a
    /// second copy of the same value.
    fn incoming_register(
        &mut self,
        func: &mut MachineFunction,
        phi: Inst,
        dest: VReg,
        all_critical: bool,
    ) -> (VReg, bool) {
        let key = all_critical.then(|| phi_key(func.inst(phi)));
        if let Some(&reg) = key.as_ref().and_then(|k| self.lowered.get(k)) {
            return (reg, true);
        }
        let reg = func.new_vreg(func.vreg_class(dest));
        if let Some(k) = key {
            self.lowered.insert(k, reg);
        }
        (reg, false)
    }

    /// Counts the PHI's inputs (`ops`, its operands) out of
    /// [`Lowering::phi_uses`]: a source no PHI still to lower reads may
    /// die in its predecessor.
    fn forget_phi_uses(&mut self, ops: &[Operand]) {
        for pair in ops[1..].chunks(2) {
            if let [Operand::Reg(r), Operand::Block(p)] = pair
                && let RegRef::Virt(v) = r.reg
                && !r.flags.has(RegFlags::UNDEF)
                && let Some(n) = self.phi_uses.get_mut(&(*p, v))
            {
                *n = n.saturating_sub(1);
            }
        }
    }

    /// Lowers the PHI's inputs (`ops`, its operands), last first as LLVM
    /// walks them, one per predecessor: when several entries name the same
    /// predecessor (a switch with several edges to `b`), the last one's
    /// copy serves them all.
    fn lower_inputs(
        &mut self,
        func: &mut MachineFunction,
        b: Block,
        ops: &[Operand],
        top: &TopCopy,
        mut lv: Option<&mut LiveVariables>,
    ) -> Result<(), AllocError> {
        let mut inserted_into: Vec<Block> = Vec::new();
        for pair in ops[1..].chunks(2).rev() {
            let [Operand::Reg(src), Operand::Block(pred)] = pair else {
                continue;
            };
            let RegRef::Virt(reg) = src.reg else {
                continue;
            };
            if inserted_into.contains(pred) {
                continue;
            }
            inserted_into.push(*pred);
            // Asked as each input comes: the copies inserted for the
            // inputs before it are part of the function by then.
            let undef = src.flags.has(RegFlags::UNDEF) || implicitly_defined(func, reg);
            let input = Input {
                pred: *pred,
                reg,
                sub: src.sub,
                undef,
            };
            self.lower_input(func, b, &input, top, lv.as_deref_mut())?;
        }
        Ok(())
    }

    /// One input: its copy into the PHI's register before the
    /// predecessor's terminators, then the source's kill and liveness
    /// facts there.
    fn lower_input(
        &mut self,
        func: &mut MachineFunction,
        b: Block,
        input: &Input,
        top: &TopCopy,
        mut lv: Option<&mut LiveVariables>,
    ) -> Result<(), AllocError> {
        refuse_landing_pad(func, b)?;
        let new_src = self.copy_into_incoming(func, input, top, lv.as_deref_mut());
        if let Some(lv) = lv {
            self.kill_source_in_pred(func, lv, input, new_src);
        }
        Ok(())
    }

    /// The copy of `input` into the PHI's register before its
    /// predecessor's first terminator (an `IMPLICIT_DEF` of that register
    /// for an undefined input, whose own `IMPLICIT_DEF` may then go); none
    /// when the top copy is an `IMPLICIT_DEF` or reuses an earlier PHI's
    /// register, whose copies exist already.
    fn copy_into_incoming(
        &mut self,
        func: &mut MachineFunction,
        input: &Input,
        top: &TopCopy,
        lv: Option<&mut LiveVariables>,
    ) -> Option<Inst> {
        let (Some(reg), false) = (top.incoming, top.reused) else {
            return None;
        };
        let at = first_terminator(self.t, func, input.pred);
        let data = if input.undef {
            if let Some(d) = single_implicit_def(func, input.reg) {
                self.implicit_defs.push(d);
            }
            def_inst(IMPLICIT_DEF, reg, None, None)
        } else {
            def_inst(COPY, reg, Some(reg_use(input.reg, input.sub)), None)
        };
        let i = insert(func, input.pred, at, data);
        if let Some(lv) = lv {
            lv.placed(i, Some(input.pred));
        }
        Some(i)
    }

    /// After the copy (`new_src`, if one was inserted), the source may
    /// die in the predecessor: unless it is undefined, a PHI still to
    /// lower reads it from there, or it is live out, its last reader
    /// there ([`Lowering::kill_point`]) kills it and it is no longer live
    /// through the predecessor.
    fn kill_source_in_pred(
        &self,
        func: &mut MachineFunction,
        lv: &mut LiveVariables,
        input: &Input,
        new_src: Option<Inst>,
    ) {
        let (pred, src) = (input.pred, input.reg);
        if input.undef
            || self.phi_uses.get(&(pred, src)).copied().unwrap_or(0) != 0
            || lv.is_live_out(func, src, pred)
        {
            return;
        }
        if let Some(k) = self.kill_point(func, pred, src, new_src) {
            lv.add_killed(self.t, func, src, k);
        }
        lv.var(src).set_alive(pred, false);
    }

    /// Moves the PHI's kill and dead facts to the copy at the top.
    fn move_flags_to_copy(
        &self,
        func: &mut MachineFunction,
        lv: &mut LiveVariables,
        b: Block,
        phi: Inst,
        top: &TopCopy,
    ) {
        let top_copy = top.inst;
        if let Some(reg) = top.incoming {
            let old_kill = if top.reused {
                lv.var(reg)
                    .kills
                    .clone()
                    .into_iter()
                    .find(|&k| lv.block_of.get(k.index()).copied().flatten() == Some(b))
            } else {
                None
            };
            let mut copy_after_old_kill = false;
            if let Some(old) = old_kill {
                for &i in &func.block(b).insts {
                    if i == top_copy {
                        break;
                    }
                    if i == old {
                        copy_after_old_kill = true;
                        break;
                    }
                }
                if copy_after_old_kill {
                    lv.remove_killed(func, reg, old);
                }
            }
            if old_kill.is_none() || copy_after_old_kill {
                lv.add_killed(self.t, func, reg, top_copy);
            }
        }
        lv.remove_all_killed(func, phi);
        if top.dest_dead {
            lv.add_dead(self.t, func, top.dest, top_copy);
            lv.remove_dead(func, top.dest, phi);
        }
    }

    /// Which instruction of `pred` kills `src` once its PHI copy is in:
    /// the last terminator reading it, else the copy just inserted, else
    /// (no copy this time) the last reader before the terminators.
    fn kill_point(
        &self,
        func: &MachineFunction,
        pred: Block,
        src: VReg,
        new_src: Option<Inst>,
    ) -> Option<Inst> {
        let insts = &func.block(pred).insts;
        let term = first_terminator(self.t, func, pred);
        if let Some(&k) = insts[term..]
            .iter()
            .rev()
            .find(|&&i| reads(func.inst(i), src))
        {
            return Some(k);
        }
        if let Some(c) = new_src {
            return Some(c);
        }
        insts[..term]
            .iter()
            .rev()
            .find(|&&i| !is_debug(func.inst(i).op) && reads(func.inst(i), src))
            .copied()
    }

    /// Removes the `IMPLICIT_DEF`s of `undef` inputs nothing reads now.
    fn remove_unused_implicit_defs(
        &self,
        func: &mut MachineFunction,
        mut lv: Option<&mut LiveVariables>,
    ) {
        for &(b, i, v) in &self.implicit_defs {
            let used = func.inst_ids().any(|u| {
                !is_debug(func.inst(u).op)
                    && func.inst(u).operands.iter().any(|o| {
                        o.as_reg()
                            .is_some_and(|r| !r.is_def() && r.reg == RegRef::Virt(v))
                    })
            });
            if !used {
                func.blocks[b.index()].insts.retain(|&x| x != i);
                if let Some(lv) = lv.as_deref_mut() {
                    lv.placed(i, None);
                }
            }
        }
    }
}

/// The instruction that took a PHI's place at the top of its block.
struct TopCopy {
    inst: Inst,
    /// The PHI's register, which it defines, and whether that definition
    /// is dead.
    dest: VReg,
    dest_dead: bool,
    /// The register it copies, which each predecessor's copy defines
    /// (`None`: it is an `IMPLICIT_DEF`, every input was undefined).
    incoming: Option<VReg>,
    /// Whether `incoming` is an earlier identical PHI's register, whose
    /// predecessor copies exist already.
    reused: bool,
}

/// One input of a PHI: its source register `reg` (sub-register `sub`),
/// read from block `pred`; `undef` when it carries no value (an `undef`
/// operand, or a register only `IMPLICIT_DEF`s define).
struct Input {
    pred: Block,
    reg: VReg,
    sub: Option<SubRegIndex>,
    undef: bool,
}

/// Refuses a PHI into a landing pad: its predecessors' copies would
/// belong before the call that unwinds to it, not before their
/// terminators, and this pass places them only there.
fn refuse_landing_pad(func: &MachineFunction, b: Block) -> Result<(), AllocError> {
    if func
        .block(b)
        .attrs
        .iter()
        .any(|a| &**a == "landing-pad" || &**a == "ehpad")
    {
        return Err(AllocError::new(
            AllocErrorKind::Unsupported,
            &func.name,
            format!(
                "PHI elimination into the landing pad bb.{} is not supported",
                b.0
            ),
        ));
    }
    Ok(())
}

/// Whether `inst` has a use operand of `v` (LLVM's `readsRegister`, which
/// counts `undef` uses too).
fn reads(inst: &InstData, v: VReg) -> bool {
    inst.operands.iter().any(|o| {
        o.as_reg()
            .is_some_and(|r| !r.is_def() && r.reg == RegRef::Virt(v))
    })
}

/// Whether every definition of `v` is an `IMPLICIT_DEF` (true when it has
/// none).
fn implicitly_defined(func: &MachineFunction, v: VReg) -> bool {
    func.inst_ids().all(|i| {
        let inst = func.inst(i);
        inst.op == IMPLICIT_DEF
            || !inst.operands.iter().any(|o| {
                o.as_reg()
                    .is_some_and(|r| r.is_def() && r.reg == RegRef::Virt(v))
            })
    })
}

/// The `IMPLICIT_DEF` defining `v`, with its block, if that is its
/// definition.
fn single_implicit_def(func: &MachineFunction, v: VReg) -> Option<(Block, Inst, VReg)> {
    for b in func.block_ids() {
        for &i in &func.block(b).insts {
            let inst = func.inst(i);
            if inst.operands.iter().any(|o| {
                o.as_reg()
                    .is_some_and(|r| r.is_def() && r.reg == RegRef::Virt(v))
            }) {
                return (inst.op == IMPLICIT_DEF).then_some((b, i, v));
            }
        }
    }
    None
}

/// Whether every input of the PHI is `undef` or implicitly defined.
fn all_inputs_undefined(func: &MachineFunction, phi: Inst) -> bool {
    func.inst(phi).operands[1..]
        .chunks(2)
        .all(|pair| match &pair[0] {
            Operand::Reg(r) => {
                r.flags.has(RegFlags::UNDEF)
                    || matches!(r.reg, RegRef::Virt(v) if implicitly_defined(func, v))
            }
            _ => true,
        })
}

/// A use of `v` (sub-register `sub`).
fn reg_use(v: VReg, sub: Option<SubRegIndex>) -> Operand {
    let mut r = RegOperand::use_of(v);
    r.sub = sub;
    Operand::Reg(r)
}

/// `dest = op [src]`, at `location`.
fn def_inst(
    op: Op,
    dest: VReg,
    src: Option<Operand>,
    location: Option<crate::ir::DebugLocation>,
) -> InstData {
    let mut data = InstData::new(op);
    data.operands.push(Operand::Reg(RegOperand::def_of(dest)));
    data.operands.extend(src);
    if let Some(l) = location {
        data.attrs = Some(Box::new(InstAttrs {
            debug_location: Some(l),
            ..Default::default()
        }));
    }
    data
}
