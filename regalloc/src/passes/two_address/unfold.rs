//! Load unfolding for `twoaddressinstruction`: an instruction reading memory whose tie would cost a copy is split into a load and its register form when that lets the copy be coalesced (LLVM's `unfoldMemoryOperand` step of `tryInstructionTransform`), with the description's memory folds read backwards.
//!
//! `%a = ADD64rm %b(tied), <address>` with `%b` living on becomes
//! `%n = MOV64rm <address>; %a = ADD64rr %b, killed %n`, which commutes to
//! tie the dying `%n`: a load is cheaper to schedule than a copy. The
//! register form, the operand the load feeds and the address shape come
//! from the description's `MemoryFold` whose memory form the instruction
//! is (a load fold: the folded operand is a use, the form has one
//! definition); the load is the class's reload (`ReloadTemplates`), its
//! stack slot replaced by the instruction's address, in its aligned form
//! when the access is aligned to the class's spill size (at least 16
//! bytes, as x86's `loadRegFromAddr` decides). When commuting the split
//! form does not make its tied source die there, both new instructions
//! are removed and the original kept; the register made for the load
//! stays, unused, as LLVM's does (it numbers later registers).

use crate::ir::{
    Inst, InstData, LowLevelType, MachineFunction, Op, Operand, RegFlags, RegOperand, RegRef, VReg,
};
use crate::target::{InstrFlags, MemoryFoldDesc, TargetInfo, TemplateOperand};

use super::{TwoAddress, reg_at};

/// Splits `mi`, tied from `src` to `dst`, into a load and its register
/// form when that saves the copy; the register form, which replaces
/// `mi`, when it did.
pub(super) fn unfold(
    p: &mut TwoAddress<'_, '_, '_>,
    func: &mut MachineFunction,
    mi: Inst,
    src: usize,
    dst: usize,
    dist: &mut u32,
) -> Option<Inst> {
    let t = p.t;
    let old = func.inst(mi).clone();
    let Op::Target(op) = old.op else { return None };
    if !t.instr(op).is(InstrFlags::MAY_LOAD) {
        return None;
    }
    let fold = load_fold(t, op)?;
    let at = usize::from(fold.operand);
    let n = fold.address.len();
    // The tie must sit before the address for the register form to keep it.
    if src >= at || dst >= at || old.operands.len() < at + n {
        return None;
    }
    let class = t
        .instr(fold.reg_form)
        .operands
        .get(at)
        .and_then(|o| o.class);
    let loaded = func.new_vreg(class);
    let class = class?;
    let load = load_of(t, func, &old, fold, class, loaded)?;
    let data = register_form(&old, fold, loaded);
    let pos = p.position(func, mi);
    let load = p.insert(func, pos, load);
    let data = p.insert(func, pos + 1, data);
    p.distance.insert(load, *dist);
    *dist += 1;
    p.distance.insert(data, *dist);
    let reg_b = reg_at(func, data, src);
    let killed = p.is_killed(func, data, reg_b, true);
    p.try_commute(func, data, dst, src, killed, *dist);
    let dies = func.inst(data).operands[src]
        .as_reg()
        .is_some_and(|r| r.flags.has(RegFlags::KILLED));
    if !dies {
        for i in [load, data] {
            let k = p.position(func, i);
            func.blocks[p.block.index()].insts.remove(k);
            p.block_of[i.index()] = None;
            p.distance.remove(&i);
            if let Some(lv) = p.lv.as_deref_mut() {
                lv.placed(i, None);
            }
        }
        *dist -= 1;
        return None;
    }
    move_liveness(p, func, &old, mi, load, data, loaded);
    let k = p.position(func, mi);
    func.blocks[p.block.index()].insts.remove(k);
    p.block_of[mi.index()] = None;
    p.distance.remove(&mi);
    if let Some(lv) = p.lv.as_deref_mut() {
        lv.placed(mi, None);
    }
    Some(data)
}

/// The description's load fold whose memory form is `op`: its folded
/// operand a use of a register form with one definition.
fn load_fold<'t>(
    t: &'t TargetInfo<'_>,
    op: crate::target::Opcode,
) -> Option<&'t MemoryFoldDesc<'t>> {
    t.memory_folds.iter().find(|f| {
        f.mem_form == op && f.also.is_none() && {
            let desc = t.instr(f.reg_form);
            desc.num_defs == 1
                && usize::from(f.operand) >= usize::from(desc.num_defs)
                && desc
                    .operands
                    .get(usize::from(f.operand))
                    .is_some_and(|o| !o.is_def && o.tied_to.is_none())
        }
    })
}

/// The load of `loaded` from `old`'s address: the class's reload with its
/// slot's address replaced.
fn load_of(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    old: &InstData,
    fold: &MemoryFoldDesc<'_>,
    class: crate::target::RegClass,
    loaded: VReg,
) -> Option<InstData> {
    let at = usize::from(fold.operand);
    let n = fold.address.len();
    let spill = t.class(class).spill_size.max(16);
    let aligned = old
        .mem
        .first()
        .and_then(|m| m.align.or_else(|| m.ty.as_ref().and_then(access_bytes)))
        .is_some_and(|a| a >= u64::from(spill));
    let template = t.reload_template(class, func.features, aligned)?;
    // The reload names the register, then the address the fold names.
    let [TemplateOperand::Reg, address @ ..] = &template.operands[..] else {
        return None;
    };
    if address != &fold.address[..] {
        return None;
    }
    let mut load = InstData::new(Op::Target(template.opcode));
    load.operands.push(Operand::Reg(RegOperand::def_of(loaded)));
    load.operands
        .extend(old.operands[at..at + n].iter().cloned());
    load.mem = old.mem.clone();
    load.attrs = location_only(old);
    Some(load)
}

/// `old` in its register form, reading `loaded` (killed) where it read
/// memory; its implicit operands kept.
fn register_form(old: &InstData, fold: &MemoryFoldDesc<'_>, loaded: VReg) -> InstData {
    let at = usize::from(fold.operand);
    let n = fold.address.len();
    let mut data = InstData::new(Op::Target(fold.reg_form));
    data.flags = old.flags;
    data.operands.extend(old.operands[..at].iter().cloned());
    let mut read = RegOperand::use_of(loaded);
    read.flags.set(RegFlags::KILLED, true);
    data.operands.push(Operand::Reg(read));
    data.operands.extend(old.operands[at + n..].iter().cloned());
    // Ties past the address move with their operands.
    let shift = |k: u16| {
        if usize::from(k) >= at + n {
            k - (n as u16 - 1)
        } else {
            k
        }
    };
    for o in &mut data.operands {
        if let Operand::Reg(r) = o {
            r.tied_to = r.tied_to.map(shift);
        }
    }
    data.attrs = location_only(old);
    data
}

/// The debug location of `old`, alone.
fn location_only(old: &InstData) -> Option<Box<crate::ir::InstAttrs>> {
    let l = old.attrs.as_ref().and_then(|a| a.debug_location.clone())?;
    Some(Box::new(crate::ir::InstAttrs {
        debug_location: Some(l),
        ..Default::default()
    }))
}

/// Bytes accessed by a memory operand of type `ty`, when plain.
fn access_bytes(ty: &LowLevelType) -> Option<u64> {
    match ty {
        LowLevelType::Scalar(bits) => Some(u64::from(*bits) / 8),
        _ => None,
    }
}

/// Moves the kills and dead definitions `mi` had in [`super::LiveVariables`]
/// to the load or the register form, whichever now holds the flag, and
/// records the load's register killed by the register form.
fn move_liveness(
    p: &mut TwoAddress<'_, '_, '_>,
    func: &mut MachineFunction,
    old: &InstData,
    mi: Inst,
    load: Inst,
    data: Inst,
    loaded: VReg,
) {
    let Some(lv) = p.lv.as_deref_mut() else {
        return;
    };
    for o in &old.operands {
        let Some(r) = o.as_reg() else { continue };
        let RegRef::Virt(v) = r.reg else { continue };
        if !r.is_def() {
            if r.flags.has(RegFlags::KILLED) && lv.var(v).remove_kill(mi) {
                let by = if kills_in(func.inst(load), v) {
                    load
                } else {
                    data
                };
                lv.var(v).kills.push(by);
            }
        } else if lv.var(v).remove_kill(mi) {
            let by = if dead_in(func.inst(data), v) {
                data
            } else {
                load
            };
            lv.var(v).kills.push(by);
        }
    }
    lv.var(loaded).kills.push(data);
}

/// Whether `inst` reads `v` killed.
fn kills_in(inst: &InstData, v: VReg) -> bool {
    inst.operands
        .iter()
        .filter_map(Operand::as_reg)
        .any(|r| r.reg == RegRef::Virt(v) && !r.is_def() && r.flags.has(RegFlags::KILLED))
}

/// Whether `inst` defines `v` dead.
fn dead_in(inst: &InstData, v: VReg) -> bool {
    inst.operands
        .iter()
        .filter_map(Operand::as_reg)
        .any(|r| r.reg == RegRef::Virt(v) && r.is_def() && r.flags.has(RegFlags::DEAD))
}
