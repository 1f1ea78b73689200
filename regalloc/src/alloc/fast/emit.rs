//! Spill, reload and copy instructions built from the target's per-class templates, and the spill slots they address.

use crate::alloc::spiller::{SpillLayout, spill_layout};
use crate::ir::{
    FrameObject, FrameRef, Generic, InstData, MachineFunction, MemFlags, MemOperand, Op, Operand,
    RegFlags, RegOperand, RegRef,
};
use crate::target::{FunctionInfo, Reg, RegClass, TargetInfo, TemplateOperand};

/// Which template of a class.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// Register to stack slot.
    Spill,
    /// Stack slot to register.
    Reload,
}

/// The spill layout (slot and templates) for register `reg` of class
/// `class`: the class's own, or else, for a class with neither templates
/// nor a reason it cannot be spilled, the one of the smallest class
/// holding `reg` that has one (tables may give templates only on the main
/// classes).
fn layout<'t, 'a>(
    t: &'t TargetInfo<'a>,
    class: RegClass,
    reg: Reg,
    info: &FunctionInfo,
) -> Result<SpillLayout<'t, 'a>, String> {
    let own = spill_layout(t, class, info);
    if own.is_ok() || t.class(class).cannot_spill.is_some() {
        return own;
    }
    (0..t.classes.len())
        .map(RegClass::new)
        .filter(|&c| t.class_contains(c, reg))
        .filter_map(|c| Some((c, spill_layout(t, c, info).ok()?)))
        .min_by_key(|(c, _)| t.class(*c).members.len())
        .map(|(_, l)| l)
        .ok_or_else(|| own.err().unwrap_or_default())
}

/// A new spill slot for a register of class `class` in a function with
/// facts `info`: the next `%stack.N` id, sized, aligned and on the stack
/// the class's spill layout says (the class's sizes, if it has none: the
/// first access then reports why).
pub(super) fn new_slot(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    class: RegClass,
    id: u32,
    info: &FunctionInfo,
) -> u32 {
    let (size, align, stack_id) = match spill_layout(t, class, info) {
        Ok(l) => (l.size, l.align, l.stack_id),
        Err(_) => {
            let d = t.class(class);
            let size = if d.spill_size > 0 {
                d.spill_size
            } else {
                (d.reg_size / 8).max(1)
            };
            (u64::from(size), d.spill_align.max(1), "default")
        }
    };
    let mut object = FrameObject::spill_slot(id, size, align);
    object.stack_id = stack_id.into();
    func.stack.push(object);
    id
}

/// A store of `reg` to slot `slot` (`Kind::Spill`) or a load of it from
/// there (`Kind::Reload`), from the templates of `class` for a function
/// with facts `info`. The slot's size goes into a memory operand the way
/// LLVM prints spill code. `slot` must have been made by [`new_slot`] for
/// `class`, so its size is the class's (no search through the stack
/// objects, which grow with every slot).
pub(super) fn slot_access(
    t: &TargetInfo<'_>,
    class: RegClass,
    reg: Reg,
    slot: u32,
    kind: Kind,
    info: &FunctionInfo,
) -> Result<InstData, String> {
    let l = layout(t, class, reg, info)?;
    let tpl = match kind {
        Kind::Spill => l.store,
        Kind::Reload => l.load,
    };
    let desc = t.instr(tpl.opcode);
    let mut data = InstData::new(Op::Target(tpl.opcode));
    // Sized once: the template's operands and the description's implicit ones.
    data.operands = Vec::with_capacity(
        tpl.operands.len() + desc.implicit_defs.len() + desc.implicit_uses.len(),
    );
    for (k, o) in tpl.operands.iter().enumerate() {
        let def = k < usize::from(desc.num_defs);
        let reg_op = |r: Reg| {
            Operand::Reg(if def {
                RegOperand::def_of(r)
            } else {
                RegOperand::use_of(r)
            })
        };
        data.operands.push(match *o {
            TemplateOperand::Reg | TemplateOperand::Src => reg_op(reg),
            // A piece of the register: its sub-register.
            TemplateOperand::RegSub(i) | TemplateOperand::SrcSub(i) => {
                reg_op(t.sub_reg(reg, i).unwrap_or(reg))
            }
            TemplateOperand::Fixed(r) => reg_op(r),
            TemplateOperand::Slot => Operand::Frame(
                FrameRef {
                    fixed: false,
                    id: slot,
                },
                0,
            ),
            TemplateOperand::Imm(v) => Operand::Imm(v),
            TemplateOperand::NoReg => Operand::Reg(RegOperand::use_of(RegRef::NoReg)),
        });
    }
    add_implicit(t, &mut data);
    let bits = u32::try_from(l.size * 8).map_err(|_| {
        format!(
            "a {}-byte spill slot is wider than a memory operand",
            l.size
        )
    })?;
    let access = match kind {
        Kind::Spill => MemFlags::STORE,
        Kind::Reload => MemFlags::LOAD,
    };
    let slot = FrameRef {
        fixed: false,
        id: slot,
    };
    data.mem = vec![MemOperand::frame_access(access, bits, slot)];
    Ok(data)
}

/// The implicit operands the instruction's description lists (LLVM's MIR
/// parser insists on them): definitions first, then uses.
fn add_implicit(t: &TargetInfo<'_>, data: &mut InstData) {
    let Op::Target(op) = data.op else { return };
    let desc = t.instr(op);
    for &r in desc.implicit_defs.iter() {
        data.operands.push(Operand::Reg(RegOperand {
            flags: RegFlags::DEF | RegFlags::IMPLICIT,
            ..RegOperand::use_of(r)
        }));
    }
    for &r in desc.implicit_uses.iter() {
        data.operands.push(Operand::Reg(RegOperand {
            flags: RegFlags::IMPLICIT,
            ..RegOperand::use_of(r)
        }));
    }
}

/// `to = COPY from`.
pub(super) fn copy(to: Reg, from: Reg) -> InstData {
    let mut data = InstData::new(Op::Generic(Generic::Copy));
    data.operands.push(Operand::Reg(RegOperand::def_of(to)));
    data.operands.push(Operand::Reg(RegOperand::use_of(from)));
    data
}
