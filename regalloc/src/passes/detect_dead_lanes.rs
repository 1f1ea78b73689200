//! `detect-dead-lanes`: LLVM's DetectDeadLanes. Where liveness follows sub-register lanes, definitions no lane of which is ever read are marked `dead`, and reads of lanes never defined (or feeding only lanes never read) are marked `undef`.
//!
//! The analysis follows lanes through the instructions that become copies
//! (COPY, PHI, REG_SEQUENCE, INSERT_SUBREG, EXTRACT_SUBREG): for each
//! virtual register, the lanes some instruction may read (*used*, a
//! backward flow from readers through copy-like definitions to their
//! sources) and the lanes some instruction defined (*defined*, a forward
//! flow from definitions through copy-like readers). A register defined by
//! a copy-like instruction starts with no lanes either way and gains them
//! from the flow; any other starts with all its lanes used where read
//! whole (the read lanes where read through a sub-register index) and
//! all defined (none for an `IMPLICIT_DEF` or a `dead` definition). A copy
//! between classes whose sub-registers do not correspond (LLVM's
//! `isCrossCopy`) stops the flow: its source counts as wholly read, its
//! result as wholly defined.
//!
//! Then every definition of a register with no used lane is marked `dead`,
//! and every read is marked `undef` when the lanes it reads are not both
//! defined and used, or when it feeds a copy-like instruction only lanes
//! of the result that nothing reads. Marking a cross-class copy's input
//! `undef` changes the starting facts, so the whole runs again until that
//! no longer happens, as LLVM's.
//!
//! LLVM runs it only where the subtarget tracks sub-register liveness
//! ([`TargetInfo::tracks_sub_reg_liveness`]: of our four, Hexagon); on
//! the others the pass changes nothing. Lane masks are the description's
//! (LLVM's: one lane per leaf sub-register index, a class without
//! sub-registers having lane 0), composed through sub-register indices as
//! LLVM's generated `composeSubRegIndexLaneMask` composes them.

use std::collections::VecDeque;

use crate::error::AllocError;
use crate::ir::{Generic, Inst, MachineFunction, Op, Operand, RegFlags, RegOperand, RegRef, VReg};
use crate::target::{LaneMask, RegClass, SubRegIndex, TargetInfo};

use super::edit::reads_reg;

/// Runs the pass on `func` (nothing where the target does not track
/// sub-register liveness).
pub fn run(target: &TargetInfo<'_>, func: &mut MachineFunction) -> Result<(), AllocError> {
    if !target.tracks_sub_reg_liveness {
        return Ok(());
    }
    let lanes = Lanes { t: target };
    loop {
        let facts = Detector::new(&lanes, func).compute(func);
        if !mark_operands(&lanes, &facts, func) {
            return Ok(());
        }
    }
}

/// One virtual register's lanes: those some instruction may read, and
/// those some instruction defined.
#[derive(Copy, Clone, Default)]
struct VRegLanes {
    used: u64,
    defined: u64,
}

/// Lane masks as LLVM's `TargetRegisterInfo` computes them, from the
/// description's sub-register indices and classes.
struct Lanes<'a, 't> {
    t: &'a TargetInfo<'t>,
}

impl Lanes<'_, '_> {
    /// The lanes sub-register index `sub` covers; all lanes without one
    /// (LLVM's `getSubRegIndexLaneMask(0)`).
    fn of_index(&self, sub: Option<SubRegIndex>) -> u64 {
        match sub {
            Some(s) if s.index() < self.t.sub_reg_indices.len() => {
                self.t.sub_reg_index(s).lane_mask.0
            }
            Some(_) => 0,
            None => LaneMask::ALL.0,
        }
    }

    /// The lanes of a register of class `c` (lane 0 for a class without
    /// sub-registers, or an unknown one).
    fn of_class(&self, c: Option<RegClass>) -> u64 {
        let m = c
            .filter(|c| c.index() < self.t.classes.len())
            .map_or(0, |c| self.t.class(c).lane_mask.0);
        if m == 0 { 1 } else { m }
    }

    /// Whether `idx` is a leaf index (no index composes with it).
    fn is_leaf(&self, idx: SubRegIndex) -> bool {
        let n = self.t.sub_reg_indices.len();
        (0..n).all(|j| self.t.compose_sub_reg(idx, SubRegIndex::new(j)).is_none())
    }

    /// The leaf indices, each with its single lane.
    fn leaves(&self) -> impl Iterator<Item = (SubRegIndex, u64)> + '_ {
        (0..self.t.sub_reg_indices.len())
            .map(SubRegIndex::new)
            .filter(|&j| self.is_leaf(j))
            .map(|j| (j, self.of_index(Some(j))))
            .filter(|(_, m)| m.count_ones() == 1)
    }

    /// LLVM's `composeSubRegIndexLaneMask(idx, mask)`: lanes `mask` of the
    /// sub-register `idx` as lanes of the containing register.
    fn compose(&self, idx: Option<SubRegIndex>, mask: u64) -> u64 {
        let Some(idx) = idx else { return mask };
        if self.is_leaf(idx) {
            // The sub-register has no sub-registers: its one lane is lane 0.
            return if mask & 1 != 0 {
                self.of_index(Some(idx))
            } else {
                0
            };
        }
        self.leaves()
            .filter(|&(_, lane)| mask & lane != 0)
            .filter_map(|(j, _)| self.t.compose_sub_reg(idx, j))
            .fold(0, |m, k| m | self.of_index(Some(k)))
    }

    /// LLVM's `reverseComposeSubRegIndexLaneMask(idx, mask)`: lanes `mask`
    /// of a register as lanes of its sub-register `idx`.
    fn reverse_compose(&self, idx: Option<SubRegIndex>, mask: u64) -> u64 {
        let Some(idx) = idx else { return mask };
        if self.is_leaf(idx) {
            return u64::from(mask & self.of_index(Some(idx)) != 0);
        }
        self.leaves()
            .filter(|&(j, _)| {
                self.t
                    .compose_sub_reg(idx, j)
                    .is_some_and(|k| mask & self.of_index(Some(k)) != 0)
            })
            .fold(0, |m, (_, lane)| m | lane)
    }

    /// Whether every register of class `c` is covered by its
    /// sub-registers (LLVM's `CoveredBySubRegs` on the class), decided
    /// from register units.
    fn covered_by_sub_regs(&self, c: Option<RegClass>) -> bool {
        let Some(c) = c.filter(|c| c.index() < self.t.classes.len()) else {
            return false;
        };
        self.t.class(c).members.iter().all(|&r| {
            let subs = &self.t.reg(r).sub_regs;
            !subs.is_empty()
                && self
                    .t
                    .units(r)
                    .iter()
                    .all(|u| subs.iter().any(|&(_, s)| self.t.units(s).contains(u)))
        })
    }

    /// Whether some class is a sub-class of both (LLVM's
    /// `getCommonSubClass` found one).
    fn have_common_sub_class(&self, a: RegClass, b: RegClass) -> bool {
        (0..self.t.classes.len())
            .map(RegClass::new)
            .any(|c| self.t.is_sub_class(c, a) && self.t.is_sub_class(c, b))
    }

    /// Whether some class `C` has `C:sub_a` in `a` and `C:sub_b` in `b`
    /// (LLVM's `getCommonSuperRegClass`, with no index before either).
    fn have_common_super_reg_class(
        &self,
        a: RegClass,
        sub_a: SubRegIndex,
        b: RegClass,
        sub_b: SubRegIndex,
    ) -> bool {
        (0..self.t.classes.len()).map(RegClass::new).any(|c| {
            self.t.matching_super_reg_class(c, a, sub_a).is_some()
                && self.t.matching_super_reg_class(c, b, sub_b).is_some()
        })
    }
}

/// Whether `op` becomes copies (LLVM's `lowersToCopies`).
fn lowers_to_copies(op: Op) -> bool {
    matches!(
        op,
        Op::Generic(
            Generic::Copy
                | Generic::Phi
                | Generic::InsertSubreg
                | Generic::RegSequence
                | Generic::ExtractSubreg
        )
    )
}

/// The sub-register index operand at `k`, if there is one.
fn index_operand(operands: &[Operand], k: usize) -> Option<SubRegIndex> {
    match operands.get(k) {
        Some(Operand::SubRegIndex(s)) => Some(*s),
        _ => None,
    }
}

/// The class of `v`.
fn class_of(func: &MachineFunction, v: VReg) -> Option<RegClass> {
    func.vregs.get(v.index()).and_then(|d| d.class)
}

/// The virtual register an operand names, if any.
fn vreg_of(r: &RegOperand) -> Option<VReg> {
    match r.reg {
        RegRef::Virt(v) => Some(v),
        _ => None,
    }
}

/// The defined/used lanes of every virtual register, and which are
/// defined by copy-like instructions (LLVM's `DeadLaneDetector`).
struct Facts {
    lanes: Vec<VRegLanes>,
    defined_by_copy: Vec<bool>,
}

/// The data-flow of [`Facts`] over one function.
struct Detector<'a, 'b, 't> {
    lanes: &'a Lanes<'b, 't>,
    /// Per virtual register, its one definition (instruction, operand)
    /// when it has exactly one.
    def: Vec<Option<(Inst, usize)>>,
    /// Per virtual register, the non-debug (instruction, operand) reading
    /// it, in layout order.
    uses: Vec<Vec<(Inst, usize)>>,
    facts: Facts,
    work: VecDeque<usize>,
    in_work: Vec<bool>,
}

impl<'a, 'b, 't> Detector<'a, 'b, 't> {
    fn new(lanes: &'a Lanes<'b, 't>, func: &MachineFunction) -> Self {
        let n = func.vregs.len();
        let mut defs = vec![0u32; n];
        let mut def = vec![None; n];
        let mut uses = vec![Vec::new(); n];
        for i in func.inst_ids() {
            let inst = func.inst(i);
            for (k, o) in inst.operands.iter().enumerate() {
                let Some(r) = o.as_reg() else { continue };
                let Some(v) = vreg_of(r) else { continue };
                if r.is_def() {
                    defs[v.index()] += 1;
                    def[v.index()] = Some((i, k));
                } else if !inst.op.is_debug() {
                    uses[v.index()].push((i, k));
                }
            }
        }
        for (d, &count) in def.iter_mut().zip(&defs) {
            if count != 1 {
                *d = None;
            }
        }
        Detector {
            lanes,
            def,
            uses,
            facts: Facts {
                lanes: vec![VRegLanes::default(); n],
                defined_by_copy: vec![false; n],
            },
            work: VecDeque::new(),
            in_work: vec![false; n],
        }
    }

    fn put_in_work(&mut self, v: usize) {
        if !std::mem::replace(&mut self.in_work[v], true) {
            self.work.push_back(v);
        }
    }

    /// LLVM's `computeSubRegisterLaneBitInfo`.
    fn compute(mut self, func: &MachineFunction) -> Facts {
        for v in 0..func.vregs.len() {
            let defined = self.initial_defined(func, v);
            let used = self.initial_used(func, v);
            self.facts.lanes[v] = VRegLanes { used, defined };
        }
        while let Some(v) = self.work.pop_front() {
            self.in_work[v] = false;
            let info = self.facts.lanes[v];
            if let Some((i, _)) = self.def[v] {
                self.transfer_used_step(func, i, info.used);
            }
            for k in 0..self.uses[v].len() {
                let (i, o) = self.uses[v][k];
                self.transfer_defined_step(func, i, o, info.defined);
            }
        }
        self.facts
    }

    /// The lanes of `v` (LLVM's `getMaxLaneMaskForVReg`).
    fn max_lanes(&self, func: &MachineFunction, v: VReg) -> u64 {
        self.lanes.of_class(class_of(func, v))
    }

    fn is_cross_copy(
        &self,
        func: &MachineFunction,
        i: Inst,
        dst: Option<RegClass>,
        k: usize,
    ) -> bool {
        is_cross_copy(self.lanes, func, i, dst, k)
    }

    /// LLVM's `determineInitialDefinedLanes`.
    fn initial_defined(&mut self, func: &MachineFunction, v: usize) -> u64 {
        let Some((i, k)) = self.def[v] else {
            // Live-in or unused: taken as wholly defined.
            return LaneMask::ALL.0;
        };
        let inst = func.inst(i);
        let def = inst.operands[k].as_reg().expect("a register definition");
        if lowers_to_copies(inst.op) {
            self.facts.defined_by_copy[v] = true;
            self.put_in_work(v);
            if def.flags.has(RegFlags::DEAD) {
                return 0;
            }
            let dst = class_of(func, VReg::new(v));
            let mut defined = 0;
            for (n, o) in inst.operands.iter().enumerate().skip(1) {
                let Some(r) = o.as_reg() else { continue };
                if r.is_def() || !reads_reg(r) || r.reg == RegRef::NoReg {
                    continue;
                }
                let from = match r.reg {
                    RegRef::Phys(_) => LaneMask::ALL.0,
                    _ if self.is_cross_copy(func, i, dst, n) => LaneMask::ALL.0,
                    RegRef::Virt(u) => {
                        if let Some((j, _)) = self.def[u.index()] {
                            let op = func.inst(j).op;
                            // Lanes from copy-like definitions flow in later.
                            if lowers_to_copies(op) || op == Op::Generic(Generic::ImplicitDef) {
                                continue;
                            }
                        }
                        self.lanes.reverse_compose(r.sub, self.max_lanes(func, u))
                    }
                    RegRef::NoReg => continue,
                };
                defined |= self.transfer_defined(func, i, n, from);
            }
            return defined;
        }
        if inst.op == Op::Generic(Generic::ImplicitDef) || def.flags.has(RegFlags::DEAD) {
            return 0;
        }
        self.max_lanes(func, VReg::new(v))
    }

    /// LLVM's `determineInitialUsedLanes`.
    fn initial_used(&self, func: &MachineFunction, v: usize) -> u64 {
        let mut used = 0;
        for &(i, k) in &self.uses[v] {
            let inst = func.inst(i);
            let r = inst.operands[k].as_reg().expect("a register use");
            if !reads_reg(r) || inst.op == Op::Generic(Generic::Kill) {
                continue;
            }
            if lowers_to_copies(inst.op)
                && let Some(RegRef::Virt(d)) = inst
                    .operands
                    .first()
                    .and_then(Operand::as_reg)
                    .map(|d| d.reg)
                && !self.is_cross_copy(func, i, class_of(func, d), k)
            {
                // The flow decides what a copy-like reader uses.
                continue;
            }
            match r.sub {
                None => return self.max_lanes(func, VReg::new(v)),
                Some(s) => used |= self.lanes.of_index(Some(s)),
            }
        }
        used
    }

    /// LLVM's `transferUsedLanes`: the lanes of operand `k` of copy-like
    /// `i` that its result's used lanes `used` read.
    fn transfer_used(&self, func: &MachineFunction, i: Inst, used: u64, k: usize) -> u64 {
        transfer_used(self.lanes, func, i, used, k)
    }

    /// LLVM's `transferUsedLanesStep`: the used lanes of `i`'s result
    /// passed back to its register sources.
    fn transfer_used_step(&mut self, func: &MachineFunction, i: Inst, used: u64) {
        let inst = func.inst(i);
        for (k, o) in inst.operands.iter().enumerate().skip(1) {
            let Some(r) = o.as_reg() else { continue };
            let Some(u) = vreg_of(r) else { continue };
            if r.is_def() && !r.flags.has(RegFlags::IMPLICIT) {
                continue;
            }
            let on_operand = self.transfer_used(func, i, used, k);
            self.add_used(func, r, u, on_operand);
        }
    }

    /// LLVM's `addUsedLanesOnOperand`.
    fn add_used(&mut self, func: &MachineFunction, r: &RegOperand, u: VReg, used: u64) {
        if !reads_reg(r) {
            return;
        }
        let used = self.lanes.compose(r.sub, used) & self.max_lanes(func, u);
        let info = &mut self.facts.lanes[u.index()];
        if used & !info.used == 0 {
            return;
        }
        info.used |= used;
        if self.facts.defined_by_copy[u.index()] {
            self.put_in_work(u.index());
        }
    }

    /// LLVM's `transferDefinedLanesStep`: the defined lanes of the
    /// register read by operand `k` of `i` passed on to `i`'s result.
    fn transfer_defined_step(&mut self, func: &MachineFunction, i: Inst, k: usize, defined: u64) {
        let inst = func.inst(i);
        let r = inst.operands[k].as_reg().expect("a register use");
        if !reads_reg(r) {
            return;
        }
        let Some(RegRef::Virt(d)) = inst
            .operands
            .first()
            .and_then(Operand::as_reg)
            .filter(|d| d.is_def())
            .map(|d| d.reg)
        else {
            return;
        };
        if !self.facts.defined_by_copy[d.index()] {
            return;
        }
        let defined = self.lanes.reverse_compose(r.sub, defined);
        let defined = self.transfer_defined(func, i, k, defined);
        let info = &mut self.facts.lanes[d.index()];
        if defined & !info.defined == 0 {
            return;
        }
        info.defined |= defined;
        self.put_in_work(d.index());
    }

    /// LLVM's `transferDefinedLanes`: lanes `defined` of operand `k` of
    /// copy-like `i` as lanes of its result.
    fn transfer_defined(&self, func: &MachineFunction, i: Inst, k: usize, defined: u64) -> u64 {
        let inst = func.inst(i);
        let l = self.lanes;
        let defined = match inst.op {
            Op::Generic(Generic::RegSequence) => {
                let s = index_operand(&inst.operands, k + 1);
                l.compose(s, defined) & l.of_index(s)
            }
            Op::Generic(Generic::InsertSubreg) => {
                let s = index_operand(&inst.operands, 3);
                if k == 2 {
                    l.compose(s, defined) & l.of_index(s)
                } else {
                    defined & !l.of_index(s)
                }
            }
            Op::Generic(Generic::ExtractSubreg) => {
                l.reverse_compose(index_operand(&inst.operands, 2), defined)
            }
            _ => defined,
        };
        let d = inst
            .operands
            .first()
            .and_then(Operand::as_reg)
            .and_then(vreg_of);
        d.map_or(defined, |d| defined & self.max_lanes(func, d))
    }
}

/// LLVM's `transferUsedLanes`: the lanes of operand `k` of copy-like `i`
/// that its result's used lanes `used` read.
fn transfer_used(
    lanes: &Lanes<'_, '_>,
    func: &MachineFunction,
    i: Inst,
    used: u64,
    k: usize,
) -> u64 {
    let inst = func.inst(i);
    match inst.op {
        Op::Generic(Generic::RegSequence) => {
            lanes.reverse_compose(index_operand(&inst.operands, k + 1), used)
        }
        Op::Generic(Generic::InsertSubreg) => {
            let s = index_operand(&inst.operands, 3);
            if k == 2 {
                return lanes.reverse_compose(s, used);
            }
            let class = inst
                .operands
                .first()
                .and_then(Operand::as_reg)
                .and_then(vreg_of)
                .and_then(|d| class_of(func, d));
            if lanes.covered_by_sub_regs(class) {
                used & !lanes.of_index(s)
            } else {
                lanes.of_class(class)
            }
        }
        Op::Generic(Generic::ExtractSubreg) => {
            lanes.compose(index_operand(&inst.operands, 2), used)
        }
        _ => used,
    }
}

/// LLVM's `modifySubRegisterOperandStatus`: marks definitions of
/// registers with no used lane `dead` and reads of lanes not defined or
/// feeding no used lane `undef`; whether to run again (an input of a
/// cross-class copy became `undef`).
fn mark_operands(lanes: &Lanes<'_, '_>, facts: &Facts, func: &mut MachineFunction) -> bool {
    let mut again = false;
    let insts: Vec<Inst> = func.inst_ids().collect();
    for i in insts {
        for k in 0..func.inst(i).operands.len() {
            let Some(r) = func.inst(i).operands[k].as_reg() else {
                continue;
            };
            let Some(v) = vreg_of(r) else { continue };
            let info = facts.lanes[v.index()];
            let mut set_dead = false;
            let mut set_undef = false;
            if r.is_def() && !r.flags.has(RegFlags::DEAD) && info.used == 0 {
                set_dead = true;
            }
            if reads_reg(r) {
                let mask = lanes.of_index(r.sub);
                if info.defined & info.used & mask == 0 {
                    set_undef = true;
                } else if let Some(cross) = undef_input(lanes, facts, func, i, k) {
                    set_undef = true;
                    again |= cross;
                }
            }
            if let Some(r) = func.inst_mut(i).operands[k].as_reg_mut() {
                if set_dead {
                    r.flags.set(RegFlags::DEAD, true);
                }
                if set_undef {
                    r.flags.set(RegFlags::UNDEF, true);
                }
            }
        }
    }
    again
}

/// LLVM's `isUndefInput`: when operand `k` of `i` feeds a copy-like
/// instruction only lanes of its result that nothing reads, whether the
/// copy is across classes (`Some(cross)`); `None` otherwise.
fn undef_input(
    lanes: &Lanes<'_, '_>,
    facts: &Facts,
    func: &MachineFunction,
    i: Inst,
    k: usize,
) -> Option<bool> {
    let inst = func.inst(i);
    let r = inst.operands[k].as_reg()?;
    if r.is_def() || !lowers_to_copies(inst.op) {
        return None;
    }
    let d = inst
        .operands
        .first()
        .and_then(Operand::as_reg)
        .and_then(vreg_of)?;
    if !facts.defined_by_copy[d.index()] {
        return None;
    }
    if transfer_used(lanes, func, i, facts.lanes[d.index()].used, k) != 0 {
        return None;
    }
    let cross = match r.reg {
        RegRef::Virt(_) => is_cross_copy(lanes, func, i, class_of(func, d), k),
        _ => false,
    };
    Some(cross)
}

/// LLVM's `isCrossCopy`: whether operand `k` of copy-like `i`, whose
/// result has class `dst`, copies between classes whose sub-registers
/// do not correspond.
fn is_cross_copy(
    lanes: &Lanes<'_, '_>,
    func: &MachineFunction,
    i: Inst,
    dst: Option<RegClass>,
    k: usize,
) -> bool {
    let inst = func.inst(i);
    let Some(r) = inst.operands[k].as_reg() else {
        return false;
    };
    let Some(v) = vreg_of(r) else { return false };
    let src = class_of(func, v);
    if src == dst {
        return false;
    }
    let (Some(src), Some(dst)) = (src, dst) else {
        return true;
    };
    let t = lanes.t;
    let mut src_sub = r.sub;
    let mut dst_sub = None;
    match inst.op {
        Op::Generic(Generic::InsertSubreg) if k == 2 => dst_sub = index_operand(&inst.operands, 3),
        Op::Generic(Generic::RegSequence) => dst_sub = index_operand(&inst.operands, k + 1),
        Op::Generic(Generic::ExtractSubreg) => {
            let outer = index_operand(&inst.operands, 2);
            src_sub = match (outer, src_sub) {
                (Some(a), Some(b)) => t.compose_sub_reg(a, b),
                (a, None) => a,
                (None, b) => b,
            };
        }
        _ => {}
    }
    match (src_sub, dst_sub) {
        (Some(a), Some(b)) => !lanes.have_common_super_reg_class(src, a, dst, b),
        (Some(a), None) => t.matching_super_reg_class(src, dst, a).is_none(),
        (None, Some(b)) => t.matching_super_reg_class(dst, src, b).is_none(),
        (None, None) => !lanes.have_common_sub_class(src, dst),
    }
}
