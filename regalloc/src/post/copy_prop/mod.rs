//! Machine copy propagation after allocation, as LLVM's `machine-cp` (MachineCopyPropagation) does it on physical registers, block by block.
//!
//! Each block is walked twice, as LLVM walks it:
//!
//! 1. **backward** (`backward.rs`): `$r1 = OP ...; ...; $r2 = COPY $r1`,
//!    where `$r1` dies at the copy and neither register is read or written
//!    in between, becomes `$r2 = OP ...` and the copy goes (the defining
//!    operand must be `renamable`, untied, and its class must take `$r2`).
//!    LLVM asks for a `killed` flag on the copy's source; the rewriter
//!    clears kill flags, so the pass reads the same fact from the block's
//!    physical liveness (no unit of `$r1` live after the copy);
//! 2. **forward** (`forward.rs`): after `$r1 = COPY $r0`, a `renamable`,
//!    untied, explicit use of `$r1` (or of a sub-register of it) while
//!    neither register has been written reads `$r0` instead, where the
//!    operand's class (or, into a COPY, some common class) takes it; a copy
//!    that moves a value the destination already holds (`$r1 = COPY $r0`
//!    again, or `$r0 = COPY $r1` back) goes; and a copy whose destination
//!    is written again, or clobbered by a call's register mask, before
//!    anything reads it, or that is live into no successor, goes as dead.
//!
//! Register units carry the aliasing (a write of `$eax` ends a copy into
//! `$rax`). Reserved registers are never the destination of a removed
//! copy, and a reserved source is forwarded only when it is constant by
//! description (`$wzr`; LLVM's `isConstantPhysReg` also takes registers
//! neither written nor allocatable, which the checker does not follow).
//! A use that named a sub-register before allocation
//! ([`SubRegisterUses`]) is forwarded only to that sub-register of a
//! register of its virtual register's class. Forwarding
//! clears kill flags it makes stale, and a forwarded operand is no longer
//! `renamable` (LLVM's `setReg` clears the flag).
//!
//! The record follows the code so that the symbolic checker can read the
//! result against the original: an original COPY taken out is listed in
//! [`AllocRecord::removed`] (a dead one also in
//! [`AllocRecord::dead_copies`]), an inserted one loses its edit, and an
//! edit whose register an operand change renamed says the new one.

mod backward;
mod forward;
mod tracker;

#[cfg(test)]
mod tests;

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::phys_liveness::UnitSet;
use crate::ir::{Block, Inst, InstData, MachineFunction, Operand, RegFlags, RegMask, RegRef};
use crate::record::{AllocRecord, Edit, Removed};
use crate::target::{Reg, RegClass, RegFlags as PhysFlags, SubRegIndex, TargetInfo};

/// What copy propagation did to one function.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct CopyPropagation {
    /// Uses that read a copy's source instead of its destination.
    pub forwarded: usize,
    /// Definitions that write a copy's destination instead of its source
    /// (each takes its copy out).
    pub backward: usize,
    /// Copies of a value the destination already held.
    pub redundant: usize,
    /// Copies whose destination nothing read.
    pub dead: usize,
}

impl CopyPropagation {
    /// Copies taken out of the function.
    pub fn removed(&self) -> usize {
        self.backward + self.redundant + self.dead
    }
}

/// Why a copy is taken out.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Erased {
    /// Its definition was propagated backward into the instruction that
    /// defined its source.
    Backward,
    /// The destination already held the value.
    Redundant,
    /// Nothing read the destination.
    Dead,
}

/// The operands, by instruction and operand index, that named a
/// sub-register before allocation (`%5.sub_32`), with the index and the
/// virtual register's class: the checker holds the register such a use
/// reads to be that sub-register of a register for the class, so
/// forwarding may only move it to another such register (Hexagon's
/// `isub_lo` must stay a low half). Taken from the function before
/// allocation; the rewriter keeps instruction ids and explicit operand
/// positions.
#[derive(Clone, Debug, Default)]
pub(crate) struct SubRegisterUses(HashMap<(Inst, usize), (SubRegIndex, Option<RegClass>)>);

impl SubRegisterUses {
    /// The sub-register uses of `func`, before allocation.
    pub(crate) fn of(func: &MachineFunction) -> SubRegisterUses {
        let mut uses = HashMap::default();
        for i in func.inst_ids() {
            for (k, o) in func.inst(i).operands.iter().enumerate() {
                let Some(r) = o.as_reg().filter(|r| !r.is_def()) else {
                    continue;
                };
                let Some(idx) = r.sub else { continue };
                let class = match r.reg {
                    RegRef::Virt(v) => func.vregs.get(v.index()).and_then(|d| d.class),
                    _ => None,
                };
                uses.insert((i, k), (idx, class));
            }
        }
        SubRegisterUses(uses)
    }

    /// Whether operand `k` of `i` may read `r` instead of what it reads:
    /// it named no sub-register before allocation, or `r` is that
    /// sub-register of a register of the virtual register's class.
    fn allows(&self, t: &TargetInfo<'_>, i: Inst, k: usize, r: Reg) -> bool {
        let Some(&(idx, class)) = self.0.get(&(i, k)) else {
            return true;
        };
        t.super_regs(r)
            .iter()
            .any(|&s| t.sub_reg(s, idx) == Some(r) && class.is_none_or(|c| t.class_contains(c, s)))
    }
}

/// Runs copy propagation on every block of `func` (allocated: physical
/// registers only, block live-ins up to date), with `reserved` the
/// function's reserved registers by register and `sub_uses` the operands
/// that named sub-registers before allocation; keeps `record` in step.
/// A function with a virtual register left is not touched.
pub(crate) fn propagate_copies(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    record: &mut AllocRecord,
    reserved: &[bool],
    sub_uses: &SubRegisterUses,
) -> CopyPropagation {
    let mut done = CopyPropagation::default();
    let Some(facts) = Facts::new(t, func, reserved, sub_uses) else {
        return done;
    };
    let mut pass = Pass {
        facts,
        tracker: tracker::Tracker::default(),
        maybe_dead: Vec::new(),
        erased: Vec::new(),
        earlier: record.removed.iter().map(|r| r.inst).collect(),
    };
    for b in func.block_ids() {
        pass.backward_block(func, record, b);
        pass.erase(func, record, b, &mut done);
        pass.forward_block(func, record, b, &mut done);
        pass.erase(func, record, b, &mut done);
    }
    done
}

/// The walk's state: the function's facts, the copies tracked along the
/// block, and the copies to take out.
struct Pass<'f, 't> {
    facts: Facts<'f, 't>,
    tracker: tracker::Tracker,
    /// Copies that may be dead (LLVM's `MaybeDeadCopies`), in the order
    /// they became candidates.
    maybe_dead: Vec<Inst>,
    /// Copies to take out of the block, and why.
    erased: Vec<(Inst, Erased)>,
    /// The originals allocation had taken out before this pass.
    earlier: std::collections::HashSet<Inst>,
}

impl Pass<'_, '_> {
    /// The source registers of the COPYs allocation took out of block `b`
    /// (identity copies), by the instruction each stands before: the
    /// checker reads such a copy as reading its source there, so the
    /// walks count it as a read (LLVM never sees them).
    fn removed_reads(
        &self,
        func: &MachineFunction,
        record: &AllocRecord,
        b: Block,
    ) -> HashMap<Option<Inst>, Vec<Reg>> {
        let mut reads: HashMap<Option<Inst>, Vec<Reg>> = HashMap::default();
        for r in record.removed.iter().filter(|r| r.block == b) {
            if !self.earlier.contains(&r.inst) {
                continue;
            }
            let Some(d) = func.insts.get(r.inst.index()) else {
                continue;
            };
            if let Some((_, src)) = copy_regs(d) {
                reads.entry(r.before).or_default().push(src);
            }
        }
        reads
    }

    /// Takes the copies the last walk of block `b` erased out of it, and
    /// the record with them.
    fn erase(
        &mut self,
        func: &mut MachineFunction,
        record: &mut AllocRecord,
        b: Block,
        done: &mut CopyPropagation,
    ) {
        if self.erased.is_empty() {
            return;
        }
        for &(_, why) in &self.erased {
            match why {
                Erased::Backward => done.backward += 1,
                Erased::Redundant => done.redundant += 1,
                Erased::Dead => done.dead += 1,
            }
        }
        let erased = std::mem::take(&mut self.erased);
        take_out(func, record, b, &erased);
    }
}

/// What the pass needs to know of the target and the function.
struct Facts<'f, 't> {
    t: &'f TargetInfo<'t>,
    /// By register: reserved in this function.
    reserved: &'f [bool],
    /// By register: named by some definition operand of the function.
    defined: Vec<bool>,
    /// By register: in an allocatable class.
    allocatable: Vec<bool>,
    /// The operands that named sub-registers before allocation.
    sub_uses: &'f SubRegisterUses,
}

impl<'f, 't> Facts<'f, 't> {
    /// The facts of `func`; `None` when a virtual register is left.
    fn new(
        t: &'f TargetInfo<'t>,
        func: &MachineFunction,
        reserved: &'f [bool],
        sub_uses: &'f SubRegisterUses,
    ) -> Option<Facts<'f, 't>> {
        let mut defined = vec![false; t.regs.len()];
        for i in func.inst_ids() {
            for r in func.inst(i).operands.iter().filter_map(Operand::as_reg) {
                match r.reg {
                    RegRef::Virt(_) => return None,
                    RegRef::Phys(p) if r.is_def() => defined[p.index()] = true,
                    _ => {}
                }
            }
        }
        let mut allocatable = vec![false; t.regs.len()];
        for c in t.classes.iter().filter(|c| c.allocatable) {
            for &r in c.members.iter() {
                allocatable[r.index()] = true;
            }
        }
        Some(Facts {
            t,
            reserved,
            defined,
            allocatable,
            sub_uses,
        })
    }

    /// Whether `r` is reserved: in the function's set, or constant by
    /// description (LLVM reserves `$xzr` and the like).
    fn is_reserved(&self, r: Reg) -> bool {
        self.reserved.get(r.index()).copied().unwrap_or(false)
            || self.t.reg(r).flags.contains(PhysFlags::CONSTANT)
    }

    /// LLVM's `MachineRegisterInfo::isConstantPhysReg`: constant by
    /// description, or no alias of `r` (itself included) is written in
    /// the function or may be allocated (allocatable and not reserved).
    fn is_constant(&self, r: Reg) -> bool {
        if self.t.reg(r).flags.contains(PhysFlags::CONSTANT) {
            return true;
        }
        self.aliases(r).all(|a| {
            !self.defined[a.index()] && (!self.allocatable[a.index()] || self.is_reserved(a))
        })
    }

    /// Every register sharing a unit with `r`, `r` included.
    fn aliases(&self, r: Reg) -> impl Iterator<Item = Reg> + '_ {
        let t = self.t;
        (0..t.regs.len())
            .map(Reg::new)
            .filter(move |&a| t.regs_overlap(a, r))
    }

    /// The class operand `k` of `inst` must be allocated from, when its
    /// description gives one (LLVM's `getRegClassConstraint`; none for
    /// generic and unknown opcodes, implicit and variadic operands).
    fn class_constraint(&self, inst: &InstData, k: usize) -> Option<crate::target::RegClass> {
        let crate::ir::Op::Target(op) = inst.op else {
            return None;
        };
        let r = inst.operands.get(k)?.as_reg()?;
        if r.is_implicit() {
            return None;
        }
        self.t.instrs.get(op.index())?.operands.get(k)?.class
    }

    /// Whether a call's register mask `m` leaves `r` changed.
    fn clobbers(&self, m: &RegMask, r: Reg) -> bool {
        match m {
            RegMask::Named(c) => {
                c.index() >= self.t.callee_saved.len() || !self.t.mask_preserves(*c, r)
            }
            RegMask::Custom(list) => !list.contains(&r),
        }
    }

    /// The units live into `b`'s successors, by their live-in lists.
    fn live_out(&self, func: &MachineFunction, b: Block) -> UnitSet {
        let mut live = UnitSet::new(self.t.units.len());
        for s in &func.block(b).succs {
            let Some(sd) = func.blocks.get(s.block.index()) else {
                continue;
            };
            for l in &sd.live_ins {
                for &u in self.t.units(l.reg) {
                    live.add(u);
                }
            }
        }
        live
    }
}

/// The destination and source of `inst` when it is a COPY of one
/// physical register to another.
fn copy_regs(inst: &InstData) -> Option<(Reg, Reg)> {
    if !inst.op.is_copy() {
        return None;
    }
    let reg = |k: usize| match inst.operands.get(k)?.as_reg()?.reg {
        RegRef::Phys(p) => Some(p),
        _ => None,
    };
    Some((reg(0)?, reg(1)?))
}

/// Whether operand `k` of `inst` is tied to another (by the MIR or the
/// description).
fn is_tied(t: &TargetInfo<'_>, inst: &InstData, k: usize) -> bool {
    if inst
        .operands
        .get(k)
        .and_then(Operand::as_reg)
        .is_some_and(|r| r.tied_to.is_some())
    {
        return true;
    }
    let crate::ir::Op::Target(op) = inst.op else {
        return false;
    };
    let Some(d) = t.instrs.get(op.index()) else {
        return false;
    };
    if d.tied_to(k).is_some() {
        return true;
    }
    (0..d.operands.len()).any(|u| d.tied_to(u) == Some(k))
}

/// Whether another implicit use of `inst` than operand `k` overlaps the
/// register `r` (LLVM's `hasImplicitOverlap`: such a use may be tied to
/// the operand in ways the description does not say).
fn has_implicit_overlap(t: &TargetInfo<'_>, inst: &InstData, k: usize, r: Reg) -> bool {
    inst.operands.iter().enumerate().any(|(j, o)| {
        j != k
            && o.as_reg().is_some_and(|x| {
                x.is_implicit()
                    && !x.is_def()
                    && matches!(x.reg, RegRef::Phys(p) if t.regs_overlap(p, r))
            })
    })
}

/// Clears the kill flags of uses of registers overlapping `r` in the
/// instructions `insts` (LLVM's `clearRegisterKills`).
fn clear_kills(t: &TargetInfo<'_>, func: &mut MachineFunction, insts: &[Inst], r: Reg) {
    for &i in insts {
        for o in &mut func.insts[i.index()].operands {
            let Operand::Reg(x) = o else { continue };
            if !x.is_def()
                && x.flags.has(RegFlags::KILLED)
                && matches!(x.reg, RegRef::Phys(p) if t.regs_overlap(p, r))
            {
                x.flags.set(RegFlags::KILLED, false);
            }
        }
    }
}

/// Renames the register the edit of `inst`, if any, names from `old` to
/// `new`, where an operand (a use when `use_`, else a definition) naming
/// `old` became `new`: the edit must keep saying what the instruction
/// does. An operand the edit does not speak of (an address) changes it
/// not.
fn rename_in_edit(record: &mut AllocRecord, inst: Inst, old: Reg, new: Reg, use_: bool) {
    let Some(e) = record.edits.get_mut(&inst) else {
        return;
    };
    let named = match e {
        Edit::Spill { from, .. } | Edit::Copy { from, .. } if use_ => from,
        Edit::Copy { to, .. } | Edit::Reload { to, .. } | Edit::Remat { to, .. } if !use_ => to,
        _ => return,
    };
    if *named == old {
        *named = new;
    }
}

/// Whether renaming operand `k` of `inst` (naming `old`) is something its
/// edit, if any, can follow: the edit names `old` itself, or an operand
/// it does not speak of.
fn edit_allows(record: &AllocRecord, inst: Inst, old: Reg, use_: bool, t: &TargetInfo<'_>) -> bool {
    match record.edits.get(&inst) {
        None => true,
        Some(Edit::Spill { from, .. }) | Some(Edit::Copy { from, .. }) if use_ => {
            *from == old || !t.regs_overlap(*from, old)
        }
        Some(Edit::Copy { to, .. })
        | Some(Edit::Reload { to, .. })
        | Some(Edit::Remat { to, .. })
            if !use_ =>
        {
            *to == old || !t.regs_overlap(*to, old)
        }
        Some(_) => true,
    }
}

/// Takes the `erased` copies (in block order or not) out of block `b`:
/// an original one is listed as removed (a dead one also as a dead
/// copy), an inserted one loses its edit, and removed originals that
/// stood before any of them now stand before what follows, in their
/// order.
fn take_out(
    func: &mut MachineFunction,
    record: &mut AllocRecord,
    b: Block,
    erased: &[(Inst, Erased)],
) {
    let gone: HashMap<Inst, Erased> = erased.iter().copied().collect();
    let insts = std::mem::take(&mut func.blocks[b.index()].insts);
    // The block's removed originals by the instruction they stand before.
    let mut by_anchor: HashMap<Option<Inst>, Vec<Removed>> = HashMap::default();
    record.removed.retain(|r| {
        if r.block == b {
            by_anchor.entry(r.before).or_default().push(*r);
            false
        } else {
            true
        }
    });
    let mut pending: Vec<Removed> = Vec::new();
    let mut kept = Vec::with_capacity(insts.len());
    for &i in &insts {
        let here = by_anchor.remove(&Some(i)).unwrap_or_default();
        match gone.get(&i) {
            Some(&why) => {
                pending.extend(here);
                if record.is_original(i) {
                    pending.push(Removed {
                        inst: i,
                        block: b,
                        before: None,
                    });
                    if why == Erased::Dead {
                        record.dead_copies.insert(i);
                    }
                } else {
                    record.edits.remove(&i);
                }
            }
            None => {
                for mut r in pending.drain(..).chain(here) {
                    r.before = Some(i);
                    record.removed.push(r);
                }
                kept.push(i);
            }
        }
    }
    for mut r in pending
        .drain(..)
        .chain(by_anchor.remove(&None).unwrap_or_default())
    {
        r.before = None;
        record.removed.push(r);
    }
    // Anchors not in the block (none are expected): as they were.
    for (_, rs) in by_anchor {
        record.removed.extend(rs);
    }
    func.blocks[b.index()].insts = kept;
}
