//! Spill weights as LLVM 19's `VirtRegAuxInfo` computes them, and the copy hints found on the way.
//!
//! For each instruction touching the register (debug uses and identity
//! copies aside, `IMPLICIT_DEF` aside): `(reads + writes) * freq(block) /
//! freq(entry)`, times 3 for a write in a loop-exiting block where the
//! register is live out (an induction-variable update). COPYs to or from
//! a register the interval could take add that weight to a hint. Then:
//! an interval that is only ever live inside single instructions and
//! crosses no call mask is unspillable; a rematerializable one (every value
//! defined by a trivially rematerializable instruction) is halved; one
//! with copy hints is boosted by 1%; finally the total is divided by
//! `size + 25 * 16` so that long intervals weigh their use density.

use super::FlowAnalyses;
use super::intervals::{LiveIntervals, Users};
use super::slots::{INSTR_DIST, LLVM_SCALE};
use crate::ir::{Generic, MachineFunction, Op, Operand, RegFlags, RegRef, VReg};
use crate::target::{InstrFlags, Reg, TargetInfo};

/// A hint from a copy: a virtual or physical register, and its weight.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Hint {
    /// Copy to or from another virtual register.
    Virt(VReg),
    /// Copy to or from a physical register.
    Phys(Reg),
}

/// Computes every interval's weight; returns each register's copy hints,
/// physical ones first, each kind heaviest first (LLVM's order). The
/// instructions accessing each register are `users`, as the intervals
/// found them ([`LiveIntervals::with_users`]), so the function is not
/// walked again.
pub(crate) fn compute_weights_of(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    flow: &FlowAnalyses,
    li: &mut LiveIntervals,
    users: &Users,
) -> Vec<Vec<(Hint, f32)>> {
    let nv = f.vregs.len();
    let mut hints_out = vec![Vec::new(); nv];
    for (v, out) in hints_out.iter_mut().enumerate() {
        let vr = VReg::new(v);
        let Some((weight, hints)) = vreg_weight(t, f, flow, li, vr, users.of(v)) else {
            continue;
        };
        *out = hints;
        if let Some(Some(iv)) = li.vregs.get_mut(v) {
            iv.weight = weight;
        }
    }
    hints_out
}

/// The spill weight of `v` and its copy hints (heaviest first), from the
/// instructions `users` that touch it, each with its block, in any order.
/// `None` when `v` has no interval.
pub fn vreg_weight(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    flow: &FlowAnalyses,
    li: &LiveIntervals,
    vr: VReg,
    users: &[(crate::ir::Inst, crate::ir::Block)],
) -> Option<(f32, Vec<(Hint, f32)>)> {
    let iv = li.vreg(vr)?;
    let mut total = 0f32;
    let mut hints: Vec<(Hint, f32)> = Vec::new();
    for &(i, b) in users {
        let inst = f.inst(i);
        if inst.op == Op::Generic(Generic::ImplicitDef) || is_identity_copy(inst) {
            continue;
        }
        let (reads, writes) = reads_writes(inst, vr);
        let mut w = (reads as u32 + writes as u32) as f32 * flow.freq.relative(b);
        if writes
            && flow.loops.is_exiting(&flow.cfg, b)
            && iv
                .range
                .live_at(super::slots::SlotIndex(li.slots.block_end(b).0 - 1))
        {
            w *= 3.0;
        }
        total += w;
        if inst.op.is_copy()
            && let Some(h) = copy_hint(t, f, inst, vr)
        {
            match hints.iter_mut().find(|x| x.0 == h) {
                Some(x) => x.1 += w,
                None => hints.push((h, w)),
            }
        }
    }
    // LLVM's `isZeroLength`: no segment reaches past the base of the
    // first instruction after its start.
    let zero_length = iv
        .range
        .segments
        .iter()
        .all(|s| s.end.base() <= li.slots.next_inst_after(s.start).base());
    // Whether a call lies inside the range; asked only of zero-length
    // ranges (the only ones it matters for), and by searching the calls
    // (in slot order) per segment rather than the segments per call.
    let at_mask = || {
        iv.range.segments.iter().any(|s| {
            let k = li.regmasks.partition_point(|m| m.at < s.start);
            li.regmasks.get(k).is_some_and(|m| m.at < s.end)
        })
    };
    // Rematerializability and size matter only to a finite weight.
    let weight = if zero_length && !at_mask() {
        f32::INFINITY
    } else {
        let mut w = total;
        if is_rematerializable(t, f, li, vr) {
            w *= 0.5;
        }
        if !hints.is_empty() {
            w *= 1.01;
        }
        normalize(w, iv.range.size())
    };
    // Physical hints first, then heavier first (LLVM's `CopyHint` order).
    hints.sort_by(|a, b| {
        let phys = |h: &Hint| matches!(h, Hint::Phys(_));
        phys(&b.0).cmp(&phys(&a.0)).then(b.1.total_cmp(&a.1))
    });
    Some((weight, hints))
}

/// A weight from the frequency-weighted count of accesses and the length
/// in LLVM's slot units (LLVM's `normalizeSpillWeight`): the length plus
/// 25 instructions, so that long ranges weigh their use density and short
/// ones do not blow up.
pub fn normalize(use_def_freq: f32, size: u32) -> f32 {
    use_def_freq / (size as f32 + 25.0 * (INSTR_DIST / LLVM_SCALE) as f32)
}

/// Whether `inst` reads and whether it writes `v` (LLVM's
/// `readsWritesVirtualRegister`: a sub-register def without `undef` reads).
pub fn reads_writes(inst: &crate::ir::InstData, v: VReg) -> (bool, bool) {
    let (mut r, mut w) = (false, false);
    for o in &inst.operands {
        if let Operand::Reg(op) = o
            && op.reg == RegRef::Virt(v)
        {
            if op.is_def() {
                w = true;
                r |= op.sub.is_some() && !op.flags.has(RegFlags::UNDEF);
            } else if !op.flags.has(RegFlags::UNDEF) {
                r = true;
            }
        }
    }
    (r, w)
}

fn is_identity_copy(inst: &crate::ir::InstData) -> bool {
    if !inst.op.is_copy() {
        return false;
    }
    match (inst.operands.first(), inst.operands.get(1)) {
        (Some(Operand::Reg(a)), Some(Operand::Reg(b))) => a.reg == b.reg && a.sub == b.sub,
        _ => false,
    }
}

/// The register a COPY suggests for `v` (LLVM's `copyHint`).
fn copy_hint(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    inst: &crate::ir::InstData,
    v: VReg,
) -> Option<Hint> {
    let (Some(Operand::Reg(d)), Some(Operand::Reg(s))) =
        (inst.operands.first(), inst.operands.get(1))
    else {
        return None;
    };
    let (sub, other, osub) = if d.reg == RegRef::Virt(v) {
        (d.sub, s.reg, s.sub)
    } else {
        (s.sub, d.reg, d.sub)
    };
    match other {
        RegRef::Virt(o) => (sub == osub).then_some(Hint::Virt(o)),
        RegRef::Phys(p) => {
            let class = f.vregs.get(v.index())?.class?;
            let copied = osub.map_or(Some(p), |s| t.sub_reg(p, s))?;
            let hint = if t.class_contains(class, copied) {
                Some(copied)
            } else if let Some(s) = sub {
                t.super_regs(copied)
                    .iter()
                    .copied()
                    .find(|&sr| t.sub_reg(sr, s) == Some(copied) && t.class_contains(class, sr))
            } else {
                None
            }?;
            (!t.is_reserved(hint)).then_some(Hint::Phys(hint))
        }
        RegRef::NoReg => None,
    }
}

/// Whether every value of `v` is defined by a trivially rematerializable
/// instruction: marked rematerializable, no side effects, no store, no
/// load other than of memory that does not change (a constant pool),
/// reads no virtual register and defines nothing else live.
fn is_rematerializable(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    li: &LiveIntervals,
    v: VReg,
) -> bool {
    let Some(iv) = li.vreg(v) else { return false };
    iv.range.valnos.iter().all(|vn| {
        if vn.is_phi() {
            return false;
        }
        let Some(i) = li.slots.inst_at(vn.def) else {
            return false;
        };
        let inst = f.inst(i);
        let Op::Target(op) = inst.op else {
            return false;
        };
        let Some(d) = t.instrs.get(op.index()) else {
            return false;
        };
        d.is(InstrFlags::REMAT)
            && !d.is(InstrFlags::SIDE_EFFECTS)
            && (!d.is(InstrFlags::MAY_LOAD) || inst.is_invariant_load())
            && !d.is(InstrFlags::MAY_STORE)
            && inst.operands.iter().all(|o| match o {
                Operand::Reg(r) => match r.reg {
                    RegRef::Virt(x) => {
                        r.is_def() && x == v || !r.is_def() && r.flags.has(RegFlags::UNDEF)
                    }
                    RegRef::Phys(_) => r.is_def() && r.flags.has(RegFlags::DEAD),
                    RegRef::NoReg => true,
                },
                _ => true,
            })
    })
}

#[cfg(test)]
mod tests {
    use super::Hint;
    use crate::ir::VReg;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    /// `%0` is copied from `$r1` once at entry and to `%1` in a loop (a
    /// heavier hint): the physical hint still comes first, as LLVM's
    /// `CopyHint` ordering puts it, and the virtual one follows.
    #[test]
    fn physical_hints_come_before_heavier_virtual_ones() {
        let f = read(
            "---
name: hints
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    successors: %bb.1
    liveins: $r1
    %0:gpr = COPY $r1
  bb.1:
    successors: %bb.1, %bb.2
    %1:gpr = COPY %0
    STD %1, %0, 0
    JNE_ri %1, 0, %bb.1
  bb.2:
    RET
...
",
        );
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let hints = &an.hints[0];
        assert_eq!(hints.len(), 2, "{hints:?}");
        assert!(matches!(hints[0].0, Hint::Phys(_)), "{hints:?}");
        assert_eq!(hints[1].0, Hint::Virt(VReg(1)), "{hints:?}");
        assert!(
            hints[1].1 > hints[0].1,
            "the virtual hint is heavier: {hints:?}"
        );
    }
}
