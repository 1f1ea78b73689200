//! Rematerialization: which values of a register can be recomputed at their uses instead of reloaded, and the copies that recompute them.
//!
//! A value can be recomputed when its definition is a rematerializable
//! instruction whose only inputs cannot change (constant registers,
//! immutable memory), or, for a split piece, when the original register's
//! definition of that value is. A definition that clobbers a register
//! (x86's `MOV32r0`, an `xor` that writes the flags) is recomputed only
//! where that register is dead, which is what LLVM's x86 back end checks
//! before it rematerializes a zeroing idiom; where the flags are live,
//! the value is stored and reloaded instead.

use crate::analysis::{LiveIntervals, Slot, SlotIndex, ValNo};
use crate::ir::{Block, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegRef, VReg};
use crate::target::{InstrFlags, Reg, RegClass, TargetInfo};

use super::virtmap::VirtRegMap;

/// The instruction recomputing each value of `v` (by value number), for
/// the values that can be recomputed at every instruction of `users` that
/// reads them: a definition clobbering a register needs it dead at each
/// such use, where its copy would go.
pub(super) fn remat_values(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    li: &LiveIntervals,
    vrm: &VirtRegMap,
    v: VReg,
    users: &[Inst],
    constant: &dyn Fn(Reg) -> bool,
) -> Vec<Option<Inst>> {
    let Some(iv) = li.vreg(v) else {
        return Vec::new();
    };
    let mut remat: Vec<Option<Inst>> = iv
        .range
        .valnos
        .iter()
        .map(|vn| remat_source(t, func, li, vrm, *vn, v, constant))
        .collect();
    for (vn, r) in remat.iter_mut().enumerate() {
        if let Some(def) = *r
            && !placeable(t, func, li, v, users, vn, def)
        {
            *r = None;
        }
    }
    remat
}

/// Whether every value of `v` can be recomputed at its uses: every entry
/// of [`remat_values`] is some. Stops at the first value that cannot, so
/// that a range with one ordinary definition (most) costs one look at its
/// definitions rather than the whole analysis.
pub(super) fn all_remat_values(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    li: &LiveIntervals,
    vrm: &VirtRegMap,
    v: VReg,
    users: &[Inst],
    constant: &dyn Fn(Reg) -> bool,
) -> bool {
    let Some(iv) = li.vreg(v) else {
        return true;
    };
    let mut defs = Vec::with_capacity(iv.range.valnos.len());
    for vn in &iv.range.valnos {
        match remat_source(t, func, li, vrm, *vn, v, constant) {
            Some(def) => defs.push(def),
            None => return false,
        }
    }
    defs.iter()
        .enumerate()
        .all(|(vn, &def)| placeable(t, func, li, v, users, vn, def))
}

/// Whether value `vn` of `v`, recomputed by `def`, can be recomputed at
/// every instruction of `users` reading it: a definition clobbering a
/// register needs it dead there.
fn placeable(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    li: &LiveIntervals,
    v: VReg,
    users: &[Inst],
    vn: usize,
    def: Inst,
) -> bool {
    if clobbers(func, def).next().is_none() {
        return true;
    }
    let Some(iv) = li.vreg(v) else {
        return true;
    };
    users.iter().all(|&i| {
        let Some(at) = li.slots.inst(i) else {
            return true;
        };
        let before = at.with(Slot::Block);
        let reads_this = iv
            .range
            .segment_at(before)
            .is_some_and(|seg| seg.valno as usize == vn)
            && func.inst(i).operands.iter().any(|o| {
                // A use, or a sub-register definition that keeps
                // (reads) the other lanes.
                o.as_reg().is_some_and(|r| {
                    r.reg == RegRef::Virt(v)
                        && !r.flags.has(RegFlags::UNDEF)
                        && (!r.is_def() || r.sub.is_some())
                })
            });
        !reads_this
            || li
                .slots
                .block_of(at)
                .is_some_and(|b| clobbers(func, def).all(|p| !live_before(t, func, b, i, p)))
    })
}

/// Whether physical register `p` is live just before instruction `i` of
/// block `b`: read at or after `i` before anything redefines it, or live
/// out of the block. Found from the instructions themselves (the unit
/// ranges of registers no class allocates are not kept during
/// allocation); only registers that [`clobberable`] admits are asked
/// about, whose every read and write the code names.
pub(crate) fn live_before(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    b: Block,
    i: Inst,
    p: Reg,
) -> bool {
    let bd = func.block(b);
    let Some(pos) = bd.insts.iter().position(|&x| x == i) else {
        // Not in the block: assume the worst.
        return true;
    };
    let covers = |q: Reg| {
        let (qu, pu) = (t.units(q), t.units(p));
        pu.iter().all(|u| qu.contains(u))
    };
    for &j in &bd.insts[pos..] {
        let regs = || {
            func.inst(j)
                .operands
                .iter()
                .filter_map(|o| match o.as_reg() {
                    Some(r) => match r.reg {
                        RegRef::Phys(q) if t.regs_overlap(q, p) => Some((q, r)),
                        _ => None,
                    },
                    None => None,
                })
        };
        // Uses read before the instruction's definitions write.
        if regs().any(|(_, r)| !r.is_def() && !r.flags.has(RegFlags::UNDEF)) {
            return true;
        }
        if regs().any(|(q, r)| r.is_def() && covers(q)) {
            return false;
        }
    }
    bd.succs.iter().any(|s| {
        func.block(s.block)
            .live_ins
            .iter()
            .any(|l| t.regs_overlap(l.reg, p))
    })
}

/// Whether a rematerialized copy may clobber `p` (where it is dead): no
/// allocatable class has a register overlapping it, so only the
/// function's own instructions give it values, and its liveness is
/// tracked in full (it is neither reserved nor constant).
fn clobberable(t: &TargetInfo<'_>, p: Reg) -> bool {
    p.index() < t.regs.len()
        && !t.is_reserved(p)
        && !t
            .units(p)
            .iter()
            .any(|&u| crate::analysis::intervals::unit_untracked(t, u))
        && !overlapping_regs(t, p).any(|r| {
            t.classes
                .iter()
                .enumerate()
                .any(|(k, c)| c.allocatable && t.class_contains(RegClass::new(k), r))
        })
}

/// Every register overlapping `p` (some more than once): `p`, and the
/// registers holding one of its units, which are the unit's roots and
/// their super-registers. Asking each whether a class holds it is a bit
/// test, where comparing `p` with every member of every class is not.
fn overlapping_regs<'t>(t: &'t TargetInfo<'_>, p: Reg) -> impl Iterator<Item = Reg> + 't {
    std::iter::once(p).chain(
        t.units(p)
            .iter()
            .filter(move |u| u.index() < t.units.len())
            .flat_map(move |&u| t.unit_roots(u))
            .flat_map(move |r| std::iter::once(r).chain(t.super_regs(r).iter().copied())),
    )
}

/// The registers instruction `i` defines dead (what a copy of it clobbers).
pub(crate) fn clobbers(func: &MachineFunction, i: Inst) -> impl Iterator<Item = Reg> + '_ {
    func.inst(i)
        .operands
        .iter()
        .filter_map(|o| match o.as_reg() {
            Some(r) if r.is_def() && r.flags.has(RegFlags::DEAD) => match r.reg {
                RegRef::Phys(p) => Some(p),
                _ => None,
            },
            _ => None,
        })
}

/// Whether reserved register `p` is a constant for rematerialization: no
/// instruction of the function (whose written registers are `phys_defs`)
/// writes a register overlapping it.
pub(crate) fn is_constant(t: &TargetInfo<'_>, phys_defs: &[Reg], p: Reg) -> bool {
    p.index() < t.regs.len() && t.is_reserved(p) && !phys_defs.iter().any(|&d| t.regs_overlap(d, p))
}

/// The instruction that recomputes value `vn` of `v`, if there is one:
/// the value's own definition when it can be re-executed anywhere
/// ([`remat_instr`]), or, for a split product whose value was copied from
/// a sibling, the original register's definition of that value (LLVM
/// rematerializes from the original interval the same way).
pub(super) fn remat_source(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    li: &LiveIntervals,
    vrm: &VirtRegMap,
    vn: ValNo,
    v: VReg,
    constant: &dyn Fn(Reg) -> bool,
) -> Option<Inst> {
    if vn.is_phi() {
        // A merge of a split piece's values carries, wherever it is live,
        // the original's value at its block start (the piece changes value
        // only where the original does, or at copies between pieces): that
        // value's definition recomputes it.
        let original = vrm.original(v);
        if original == v {
            return None;
        }
        return original_remat(t, func, li, original, vn.def, constant);
    }
    let i = li.slots.inst_at(vn.def)?;
    if remat_instr(t, func, i, constant) == Some(v) {
        return Some(i);
    }
    let inst = func.inst(i);
    let original = vrm.original(v);
    if !inst.op.is_copy() || inst.operands.len() != 2 || original == v {
        return None;
    }
    let (Operand::Reg(d), Operand::Reg(s)) = (&inst.operands[0], &inst.operands[1]) else {
        return None;
    };
    let RegRef::Virt(src) = s.reg else {
        return None;
    };
    if d.reg != RegRef::Virt(v)
        || d.sub.is_some()
        || s.sub.is_some()
        || vrm.original(src) != original
    {
        return None;
    }
    let at = li.slots.inst(i)?;
    original_remat(t, func, li, original, at.with(Slot::Block), constant)
}

/// The definition of the value original register `original` has at `at`
/// (its range before any split), if that value has one instruction that
/// can be re-executed anywhere.
fn original_remat(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    li: &LiveIntervals,
    original: VReg,
    at: SlotIndex,
    constant: &dyn Fn(Reg) -> bool,
) -> Option<Inst> {
    let range = li.original(original)?;
    let ovn = range.valnos.get(range.segment_at(at)?.valno as usize)?;
    if ovn.is_phi() {
        return None;
    }
    let def = li.slots.inst_at(ovn.def)?;
    remat_instr(t, func, def, constant).map(|_| def)
}

/// The virtual register `i` defines, if `i` can be re-executed anywhere: a
/// rematerializable target instruction with no side effects, no store and
/// no load other than of memory that does not change, whose register operands are definitions of that one register
/// (a full definition, or an `undef` sub-register one), uses of
/// `constant` physical registers, and dead definitions of registers no
/// allocation gives out ([`clobberable`], such as flags; a copy may go only
/// where they are dead, see [`remat_values`]). Other physical operands rule
/// it out.
pub(crate) fn remat_instr(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    i: Inst,
    constant: &dyn Fn(Reg) -> bool,
) -> Option<VReg> {
    let inst = func.inst(i);
    let Op::Target(op) = inst.op else { return None };
    let d = t.instrs.get(op.index())?;
    if !d.is(InstrFlags::REMAT)
        || d.is(InstrFlags::SIDE_EFFECTS)
        || d.is(InstrFlags::MAY_LOAD) && !inst.is_invariant_load()
        || d.is(InstrFlags::MAY_STORE)
        || !d.implicit_defs.iter().all(|&p| clobberable(t, p))
        || !d.implicit_uses.is_empty()
    {
        return None;
    }
    let mut def = None;
    for o in &inst.operands {
        match o {
            Operand::Reg(r) => match r.reg {
                RegRef::NoReg => {}
                RegRef::Phys(p) if !r.is_def() && constant(p) => {}
                RegRef::Phys(p)
                    if r.is_def() && r.flags.has(RegFlags::DEAD) && clobberable(t, p) => {}
                RegRef::Virt(x)
                    if r.is_def()
                        && (r.sub.is_none() || r.flags.has(RegFlags::UNDEF))
                        && def.is_none_or(|y| y == x) =>
                {
                    def = Some(x);
                }
                _ => return None,
            },
            Operand::RegMask(_) => return None,
            _ => {}
        }
    }
    def
}

/// A copy of `def` defining `n` instead of the register it defines (no
/// dead flag, no debug instruction number: there is one value per number).
pub(super) fn remat_copy(def: &InstData, n: VReg) -> InstData {
    let mut c = def.clone();
    c.forget_debug_instr_number();
    for o in &mut c.operands {
        if let Operand::Reg(r) = o
            && matches!(r.reg, RegRef::Virt(_))
        {
            r.reg = RegRef::Virt(n);
            r.flags.set(RegFlags::DEAD, false);
            r.flags.set(RegFlags::KILLED, false);
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::fixtures::bpf;

    /// The registers `overlapping_regs` gives are exactly those
    /// `regs_overlap` says overlap, for every pair of BPF's registers (its
    /// 32-bit registers are sub-registers of the 64-bit ones).
    #[test]
    fn overlapping_regs_are_those_sharing_a_unit() {
        let t = bpf();
        for p in (0..t.regs.len()).map(Reg::new) {
            let listed: Vec<Reg> = overlapping_regs(t, p).collect();
            for m in (0..t.regs.len()).map(Reg::new) {
                assert_eq!(
                    listed.contains(&m),
                    t.regs_overlap(m, p),
                    "{} and {}",
                    t.reg(p).name,
                    t.reg(m).name
                );
            }
        }
    }
}
