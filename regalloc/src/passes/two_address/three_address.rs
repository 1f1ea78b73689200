//! Three-address conversion for `twoaddressinstruction`: an instruction whose tie would cost a copy replaced by the description's untied form of it (LLVM's `TargetInstrInfo::convertToThreeAddress`, given as data by `ThreeAddressForm` defs).
//!
//! The form names each operand of the new instruction: an operand of the
//! old one (a register narrowed to a class where the form says), a
//! negated immediate, a constant, or a new register, which is either a
//! wider register whose sub-register is a copy of a source (placed
//! before: x86's 32-bit `ADD` read as the low half of a 64-bit register by
//! `LEA64_32r`), the same from an `IMPLICIT_DEF` (8- and 16-bit), or the
//! result, whose sub-register is copied to the old definition after.
//! Which form applies, and when none does, is decided before anything
//! changes: the first form of the instruction whose immediate condition
//! holds and whose negated immediates fit, and never when a register read
//! is `undef`, when an implicit definition the new instruction lacks is
//! live (x86's `EFLAGS`), or when a source to be copied into a new
//! register is physical (LLVM would name its super-register; the tied
//! source is virtual here, and no other such source occurs in SSA code).
//! Kills move with the reads: a source killed by the old instruction is
//! killed by the copy that now reads it, or by the new instruction.

use crate::alloc::inflate::common_sub_class;
use crate::ir::{
    Generic, Inst, InstAttrs, InstData, MachineFunction, Op, Operand, RegFlags, RegOperand, RegRef,
    VReg,
};
use crate::target::{RegClass, TargetInfo, ThreeAddressDesc, ThreeAddressOperand};

use super::{COPY, TwoAddress, kills, reg_of};

/// Replaces `mi` by its three-address form when one applies; the
/// instructions placed instead, in block order (the last one is the new
/// instruction, or the copy of its result). `None`, with nothing changed,
/// when no form applies.
pub(super) fn convert(
    p: &mut TwoAddress<'_, '_, '_>,
    func: &mut MachineFunction,
    mi: Inst,
) -> Option<Vec<Inst>> {
    let t = p.t;
    let Op::Target(op) = func.inst(mi).op else {
        return None;
    };
    let old = func.inst(mi).clone();
    let form = t
        .three_address_forms(op)
        .iter()
        .find(|f| applies(f, &old))?
        .clone();
    if !convertible(t, &form, &old) {
        return None;
    }
    let narrowed = narrowed_classes(t, func, &form, &old)?;
    for &(v, c) in &narrowed {
        func.vregs[v.index()].class = Some(c);
    }
    let (new_regs, inputs) = make_registers(func, &form, &old);
    let location = old.attrs.as_ref().and_then(|a| a.debug_location.clone());
    let with_location = |mut d: InstData| {
        if let Some(l) = &location {
            d.attrs = Some(Box::new(InstAttrs {
                debug_location: Some(l.clone()),
                ..Default::default()
            }));
        }
        d
    };
    let mut placed = Vec::new();
    for &pos in &inputs {
        for d in input_copies(&form, &old, pos, new_regs[pos].expect("a new register")) {
            let at = p.position(func, mi);
            placed.push(p.insert(func, at, with_location(d)));
        }
    }
    let new = new_instruction(t, &form, &old, &new_regs);
    let at = p.position(func, mi);
    let new_inst = p.insert(func, at, with_location(new));
    placed.push(new_inst);
    let result = form
        .operands
        .iter()
        .position(|o| matches!(o, ThreeAddressOperand::Result(..)));
    if let Some(pos) = result
        && let ThreeAddressOperand::Result(_, idx) = form.operands[pos]
    {
        let mut def = old.operands[0].as_reg().cloned().expect("a definition");
        def.tied_to = None;
        let mut from = RegOperand::use_of(new_regs[pos].expect("the result's register"));
        from.sub = Some(idx);
        from.flags.set(RegFlags::KILLED, true);
        let mut copy = InstData::new(COPY);
        copy.operands.push(Operand::Reg(def));
        copy.operands.push(Operand::Reg(from));
        let at = p.position(func, mi);
        placed.push(p.insert(func, at + 1, with_location(copy)));
    }
    let at = p.position(func, mi);
    func.blocks[p.block.index()].insts.remove(at);
    p.block_of[mi.index()] = None;
    if let Some(lv) = p.lv.as_deref_mut() {
        lv.placed(mi, None);
        move_kills(lv, func, mi, &placed);
        for (pos, v) in new_regs.iter().enumerate() {
            let Some(v) = *v else { continue };
            let killer = if result == Some(pos) {
                *placed.last().expect("the result's copy")
            } else {
                new_inst
            };
            if !lv.var(v).kills.contains(&killer) {
                lv.var(v).kills.push(killer);
            }
        }
        for &i in &placed {
            for r in func.inst(i).operands.iter().filter_map(Operand::as_reg) {
                if let (true, RegRef::Virt(v)) = (r.is_def(), r.reg) {
                    if lv.def_of.len() <= v.index() {
                        lv.def_of.resize(v.index() + 1, None);
                    }
                    lv.def_of[v.index()] = Some(i);
                }
            }
        }
    }
    Some(placed)
}

/// Whether `form` may replace `old`: no register `old` reads is `undef`
/// (LLVM bails out on those), and every implicit definition of `old`
/// that the three-address instruction lacks is `dead`.
fn convertible(t: &TargetInfo<'_>, form: &ThreeAddressDesc<'_>, old: &InstData) -> bool {
    let kept = &t.instr(form.three_address).implicit_defs;
    old.operands.iter().filter_map(Operand::as_reg).all(|r| {
        if !r.is_def() {
            return !r.flags.has(RegFlags::UNDEF);
        }
        match r.reg {
            RegRef::Phys(p) if r.is_implicit() => r.flags.has(RegFlags::DEAD) || kept.contains(&p),
            _ => true,
        }
    })
}

/// Whether `form`'s conditions hold for `old`: its immediate operand has
/// the value asked, and each negated immediate fits.
fn applies(form: &ThreeAddressDesc<'_>, old: &InstData) -> bool {
    let imm = |k: u8| match old.operands.get(usize::from(k)) {
        Some(Operand::Imm(v)) => Some(*v),
        _ => None,
    };
    if let Some((k, want)) = form.immediate
        && imm(k) != Some(want)
    {
        return false;
    }
    form.operands.iter().all(|o| match *o {
        ThreeAddressOperand::Negated(k, bits) => imm(k)
            .and_then(i64::checked_neg)
            .is_some_and(|n| fits_signed(n, bits)),
        _ => true,
    })
}

fn fits_signed(v: i64, bits: u8) -> bool {
    if bits >= 64 {
        return true;
    }
    let half = 1i64 << (bits - 1);
    (-half..half).contains(&v)
}

/// The classes the form narrows virtual registers to, in order (one
/// register may be narrowed twice), or `None` when some register and its
/// class have no class in common, or a source to copy is not virtual.
fn narrowed_classes(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    form: &ThreeAddressDesc<'_>,
    old: &InstData,
) -> Option<Vec<(VReg, RegClass)>> {
    let mut out: Vec<(VReg, RegClass)> = Vec::new();
    for o in form.operands.iter() {
        match *o {
            ThreeAddressOperand::Constrained(k, c) => {
                let RegRef::Virt(v) = reg_of(old, usize::from(k)) else {
                    continue;
                };
                let cur = out
                    .iter()
                    .rev()
                    .find(|(w, _)| *w == v)
                    .map(|&(_, c)| c)
                    .or(func.vreg_class(v))?;
                out.push((v, common_sub_class(t, cur, c)?));
            }
            ThreeAddressOperand::Widened(k, ..) | ThreeAddressOperand::Inserted(k, ..)
                if !matches!(reg_of(old, usize::from(k)), RegRef::Virt(_)) =>
            {
                return None;
            }
            _ => {}
        }
    }
    Some(out)
}

/// Makes the form's new registers in its order (operands copying the same
/// source share one); the register of each position, and the positions
/// whose copies are placed, in order.
fn make_registers(
    func: &mut MachineFunction,
    form: &ThreeAddressDesc<'_>,
    old: &InstData,
) -> (Vec<Option<VReg>>, Vec<usize>) {
    let mut regs = vec![None; form.operands.len()];
    let mut inputs = Vec::new();
    let mut by_source: Vec<(RegOperand, VReg)> = Vec::new();
    for &pos in form.new_register_order.iter() {
        let pos = usize::from(pos);
        match form.operands[pos] {
            ThreeAddressOperand::Widened(k, c, _) | ThreeAddressOperand::Inserted(k, c, _) => {
                let src = source(old, k);
                if let Some(&(_, v)) = by_source
                    .iter()
                    .find(|(s, _)| s.reg == src.reg && s.sub == src.sub)
                {
                    regs[pos] = Some(v);
                    continue;
                }
                let v = func.new_vreg(Some(c));
                by_source.push((src, v));
                regs[pos] = Some(v);
                inputs.push(pos);
            }
            ThreeAddressOperand::Result(c, _) => regs[pos] = Some(func.new_vreg(Some(c))),
            _ => {}
        }
    }
    (regs, inputs)
}

/// Register operand `k` of `old` as a plain use, killed when `old` kills
/// its register.
fn source(old: &InstData, k: u8) -> RegOperand {
    let r = old.operands[usize::from(k)]
        .as_reg()
        .expect("a register operand");
    let mut u = RegOperand::use_of(r.reg);
    u.sub = r.sub;
    u.flags.set(RegFlags::KILLED, kills(old, r.reg));
    u
}

/// The instructions that fill new register `v` at position `pos` before
/// the new instruction: `undef %v.idx = COPY %src`, or `%v =
/// IMPLICIT_DEF; %v.idx = COPY %src`.
fn input_copies(form: &ThreeAddressDesc<'_>, old: &InstData, pos: usize, v: VReg) -> Vec<InstData> {
    let (k, idx, implicit_def) = match form.operands[pos] {
        ThreeAddressOperand::Widened(k, _, idx) => (k, idx, false),
        ThreeAddressOperand::Inserted(k, _, idx) => (k, idx, true),
        _ => unreachable!("only sources are copied"),
    };
    let mut out = Vec::new();
    if implicit_def {
        let mut d = InstData::new(Op::Generic(Generic::ImplicitDef));
        d.operands.push(Operand::Reg(RegOperand::def_of(v)));
        out.push(d);
    }
    let mut def = RegOperand::def_of(v);
    def.sub = Some(idx);
    def.flags.set(RegFlags::UNDEF, !implicit_def);
    let mut copy = InstData::new(COPY);
    copy.operands.push(Operand::Reg(def));
    copy.operands.push(Operand::Reg(source(old, k)));
    out.push(copy);
    out
}

/// The three-address instruction, its implicit operands as its
/// description lists them.
fn new_instruction(
    t: &TargetInfo<'_>,
    form: &ThreeAddressDesc<'_>,
    old: &InstData,
    new_regs: &[Option<VReg>],
) -> InstData {
    let mut new = InstData::new(Op::Target(form.three_address));
    for (pos, o) in form.operands.iter().enumerate() {
        let operand = match *o {
            ThreeAddressOperand::Def => {
                let mut d = old.operands[0].as_reg().cloned().expect("a definition");
                d.tied_to = None;
                Operand::Reg(d)
            }
            ThreeAddressOperand::Result(..) => {
                Operand::Reg(RegOperand::def_of(new_regs[pos].expect("a new register")))
            }
            ThreeAddressOperand::Operand(k) | ThreeAddressOperand::Constrained(k, _) => {
                match &old.operands[usize::from(k)] {
                    Operand::Reg(r) => {
                        let mut r = r.clone();
                        r.tied_to = None;
                        r.flags.set(RegFlags::KILLED, kills(old, r.reg));
                        Operand::Reg(r)
                    }
                    other => other.clone(),
                }
            }
            ThreeAddressOperand::Negated(k, _) => match old.operands[usize::from(k)] {
                Operand::Imm(v) => Operand::Imm(-v),
                _ => unreachable!("checked by applies"),
            },
            ThreeAddressOperand::Widened(..) | ThreeAddressOperand::Inserted(..) => {
                let mut u = RegOperand::use_of(new_regs[pos].expect("a new register"));
                u.flags.set(RegFlags::KILLED, true);
                Operand::Reg(u)
            }
            ThreeAddressOperand::Imm(v) => Operand::Imm(v),
            ThreeAddressOperand::NoReg => Operand::Reg(RegOperand::use_of(RegRef::NoReg)),
            ThreeAddressOperand::Fixed(r) => Operand::Reg(RegOperand::use_of(r)),
        };
        new.operands.push(operand);
    }
    let desc = t.instr(form.three_address);
    for &r in desc.implicit_defs.iter() {
        new.operands.push(Operand::Reg(RegOperand {
            flags: RegFlags::DEF | RegFlags::IMPLICIT,
            ..RegOperand::use_of(r)
        }));
    }
    for &r in desc.implicit_uses.iter() {
        new.operands.push(Operand::Reg(RegOperand {
            flags: RegFlags::IMPLICIT,
            ..RegOperand::use_of(r)
        }));
    }
    new
}

/// LLVM's `replaceKillInstruction` for every register `mi` killed or
/// defined dead: the kill moves to the placed instruction that now reads
/// it killed or defines it dead.
fn move_kills(
    lv: &mut crate::passes::LiveVariables,
    func: &MachineFunction,
    mi: Inst,
    placed: &[Inst],
) {
    for (v, var) in lv.vars.iter_mut().enumerate() {
        let Some(k) = var.kills.iter().position(|&i| i == mi) else {
            continue;
        };
        let reg = RegRef::Virt(VReg::new(v));
        let now = placed.iter().copied().find(|&i| {
            func.inst(i)
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|r| {
                    r.reg == reg
                        && ((!r.is_def() && r.flags.has(RegFlags::KILLED))
                            || (r.is_def() && r.flags.has(RegFlags::DEAD)))
                })
        });
        match now {
            Some(i) => var.kills[k] = i,
            None => {
                var.kills.remove(k);
            }
        }
    }
}
