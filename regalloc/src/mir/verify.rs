//! Each instruction held to its opcode's description, as LLVM's MIR parser and machine verifier hold it: explicit operand count, the description's implicit registers present, register classes of virtual register operands.
//!
//! The description is the law: an instruction that omits an implicit
//! definition its description has (`implicit-def $eflags` on x86's
//! `ADD32rr`) clobbers that register all the same, and an allocator that
//! reads only the operands would keep a value there. LLVM's parser refuses
//! such an instruction; so does this reader. What is checked, and the rules
//! LLVM 19 applies (`MIParser::verifyImplicitOperands`,
//! `MachineVerifier::visitMachineInstrBefore` and `visitMachineOperand`):
//!
//! - Implicit registers (parser): every implicit definition and use of the
//!   description must appear as a register operand naming that register,
//!   with the same def/use sense and no sub-register (flags such as `dead`
//!   do not matter, and the operand may even be explicit). Calls and
//!   variadic instructions are exempt: they may carry any implicit
//!   operands, and LLVM adds none to them either.
//! - Explicit operands (verifier): at least the described number (a
//!   variadic instruction may leave its last described operand to an
//!   implicit one); the first `num_defs` are register definitions, the
//!   other described ones are not definitions; an operand the description
//!   does not have is allowed only on a variadic instruction, or when it is
//!   a register mask (a call's); a register operand must be a register or
//!   a stack object, an immediate one must not be a register. None of the four
//!   targets has optional definitions (ARM's `cc_out`), so none are
//!   modelled.
//! - Virtual register classes (verifier): a sub-register index must exist
//!   in every register of the class (LLVM's `getSubClassWithSubReg(RC, idx)
//!   == RC`); a described operand with a class `C` takes a register whose
//!   class is a sub-class of `C`, or, read through sub-register `idx`, a
//!   register every member `R` of whose class has `R:idx` in `C`. LLVM
//!   judges the latter through its class lattice
//!   (`getMatchingSuperRegClass` of the largest legal super-class); the
//!   member-by-member rule here accepts everything that does, so no input
//!   LLVM takes is refused (x86's `%5.sub_32bit` of a `gr64`, which holds
//!   `$rip`, is refused where a `gr32` is expected by both).
//!
//! Opcodes the description lacks are not checked: the reader keeps them by
//! name. Generic opcodes (`COPY`, `INLINEASM`...) have only the
//! sub-register rule.

use crate::ir::{InstData, Op, Operand, RegRef, VReg};
use crate::target::{InstrDesc, InstrFlags, OperandKind, Reg, RegClass, SubRegIndex, TargetInfo};

/// Where a problem is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Place {
    /// At operand `k` of the instruction (in written order).
    Operand(usize),
    /// After the last operand, where a missing one would be written (LLVM
    /// points there too).
    AfterOperands,
}

/// Why an instruction does not fit its description.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Problem {
    /// Where.
    pub place: Place,
    /// What, for a person.
    pub message: String,
}

impl Problem {
    fn at(place: Place, message: String) -> Problem {
        Problem { place, message }
    }
}

/// Checks what needs only the instruction and its description: the
/// implicit registers (first, as LLVM's parser finds them before its
/// verifier runs), then the explicit operands. Classes are checked by
/// [`operand_classes`] and [`operand_class`], once they are known.
pub(crate) fn instruction(t: &TargetInfo<'_>, data: &InstData) -> Result<(), Problem> {
    let Op::Target(op) = data.op else {
        return Ok(());
    };
    let Some(desc) = t.instrs.get(op.index()) else {
        return Ok(());
    };
    implicit_operands(t, desc, data)?;
    explicit_operands(desc, data)
}

/// Whether operand `o` is explicit (LLVM moves explicit operands before
/// the implicit ones, so explicit operand `k` is the `k`-th of these).
fn is_explicit(o: &Operand) -> bool {
    o.as_reg().is_none_or(|r| !r.is_implicit())
}

/// The explicit operand count and the operands' kinds and senses.
fn explicit_operands(desc: &InstrDesc<'_>, data: &InstData) -> Result<(), Problem> {
    let name = &desc.name;
    let described = desc.operands.len();
    let variadic = desc.is(InstrFlags::VARIADIC);
    let explicit = data.operands.iter().filter(|o| is_explicit(o)).count();
    // LLVM counts every operand against the description, then complains of
    // an implicit one standing where a described operand should be, except
    // in the last place of a variadic instruction.
    let short = data.operands.len() < described
        || (explicit < described && !(variadic && explicit + 1 == described));
    if short {
        return Err(Problem::at(
            Place::AfterOperands,
            format!(
                "too few operands: {name} takes {described} explicit operand{}, {explicit} given",
                plural(described)
            ),
        ));
    }
    let explicit = (0..data.operands.len()).filter(|&k| is_explicit(&data.operands[k]));
    for (e, k) in explicit.enumerate() {
        let o = &data.operands[k];
        let Some(d) = desc.operands.get(e) else {
            if !variadic && !matches!(o, Operand::RegMask(_)) {
                return Err(Problem::at(
                    Place::Operand(k),
                    format!(
                        "extra explicit operand: {name} takes {described} explicit operand{}",
                        plural(described)
                    ),
                ));
            }
            continue;
        };
        let reg = o.as_reg();
        if e < usize::from(desc.num_defs) {
            if !reg.is_some_and(|r| r.is_def()) {
                return Err(Problem::at(
                    Place::Operand(k),
                    format!("operand {e} of {name} must be a register definition"),
                ));
            }
            continue;
        }
        // The last described operand of a variadic instruction is not held
        // to its description (LLVM's ARM `LDM_RET` and the like).
        if variadic && e + 1 == described {
            continue;
        }
        if reg.is_some_and(|r| r.is_def()) {
            return Err(Problem::at(
                Place::Operand(k),
                format!("operand {e} of {name} is a use, not a definition"),
            ));
        }
        let kind_ok = match d.kind {
            OperandKind::Register => matches!(o, Operand::Reg(_) | Operand::Frame(..)),
            OperandKind::Immediate => reg.is_none(),
            OperandKind::Block | OperandKind::Other => true,
        };
        if !kind_ok {
            let want = if d.kind == OperandKind::Register {
                "must be a register or a stack object"
            } else {
                "may not be a register"
            };
            return Err(Problem::at(
                Place::Operand(k),
                format!("operand {e} of {name} {want}"),
            ));
        }
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Every implicit register of the description present as an operand.
fn implicit_operands(
    t: &TargetInfo<'_>,
    desc: &InstrDesc<'_>,
    data: &InstData,
) -> Result<(), Problem> {
    if desc.is(InstrFlags::CALL) || desc.is(InstrFlags::VARIADIC) {
        return Ok(());
    }
    let present = |r: Reg, def: bool| {
        data.operands
            .iter()
            .filter_map(Operand::as_reg)
            .any(|o| o.reg == RegRef::Phys(r) && o.is_def() == def && o.sub.is_none())
    };
    let wanted = desc
        .implicit_defs
        .iter()
        .map(|&r| (r, true))
        .chain(desc.implicit_uses.iter().map(|&r| (r, false)));
    for (r, def) in wanted {
        if !present(r, def) {
            let flag = if def { "implicit-def" } else { "implicit" };
            return Err(Problem::at(
                Place::AfterOperands,
                format!(
                    "missing implicit register operand '{flag} ${}'",
                    reg_name(t, r)
                ),
            ));
        }
    }
    Ok(())
}

/// Checks every virtual register operand of `data` whose class
/// `class_of` knows against the sub-register rule and the described
/// operand's class; reports the others to `unknown` (their class is given
/// further down), to be checked by [`operand_class`] later.
pub(crate) fn operand_classes(
    t: &TargetInfo<'_>,
    data: &InstData,
    class_of: impl Fn(VReg) -> Option<RegClass>,
    text: &dyn Fn(VReg) -> String,
    mut unknown: impl FnMut(usize),
) -> Result<(), Problem> {
    let desc = match data.op {
        Op::Target(op) => t.instrs.get(op.index()),
        Op::Generic(_) | Op::Unknown(_) => None,
    };
    let mut explicit = 0;
    for (k, o) in data.operands.iter().enumerate() {
        let e = is_explicit(o).then(|| {
            explicit += 1;
            explicit - 1
        });
        let Some(RegRef::Virt(v)) = o.as_reg().map(|r| r.reg) else {
            continue;
        };
        match class_of(v) {
            Some(class) => check_operand(t, data, desc, k, e, class, text)?,
            None => unknown(k),
        }
    }
    Ok(())
}

/// Checks operand `k` of `data`, a virtual register of class `class`,
/// against the sub-register rule and the described operand's class.
pub(crate) fn operand_class(
    t: &TargetInfo<'_>,
    data: &InstData,
    k: usize,
    class: RegClass,
    text: &dyn Fn(VReg) -> String,
) -> Result<(), Problem> {
    let desc = match data.op {
        Op::Target(op) => t.instrs.get(op.index()),
        Op::Generic(_) | Op::Unknown(_) => None,
    };
    let e = data
        .operands
        .get(k)
        .filter(|o| is_explicit(o))
        .map(|_| data.operands[..k].iter().filter(|o| is_explicit(o)).count());
    check_operand(t, data, desc, k, e, class, text)
}

/// [`operand_class`] for operand `k`, explicit operand `e` (if explicit)
/// of an instruction described by `desc` (if described).
fn check_operand(
    t: &TargetInfo<'_>,
    data: &InstData,
    desc: Option<&InstrDesc<'_>>,
    k: usize,
    e: Option<usize>,
    class: RegClass,
    text: &dyn Fn(VReg) -> String,
) -> Result<(), Problem> {
    let Some(Operand::Reg(r)) = data.operands.get(k) else {
        return Ok(());
    };
    let RegRef::Virt(v) = r.reg else {
        return Ok(());
    };
    if class.index() >= t.classes.len() {
        return Ok(());
    }
    let cname = || class_name(t, class);
    let v = text(v);
    if let Some(idx) = r.sub {
        let iname = &t.sub_reg_index(idx).name;
        match t.sub_class_with_sub_reg(class, idx) {
            Some(c) if c == class => {}
            Some(c) => {
                return Err(Problem::at(
                    Place::Operand(k),
                    format!(
                        "invalid register class for sub-register index: {v}.{iname}, but only the {} registers of class {} have {iname}",
                        class_name(t, c),
                        cname()
                    ),
                ));
            }
            None => {
                return Err(Problem::at(
                    Place::Operand(k),
                    format!(
                        "invalid sub-register index for virtual register: {v}.{iname}, but no register of class {} has {iname}",
                        cname()
                    ),
                ));
            }
        }
    }
    let (Some(desc), Some(e)) = (desc, e) else {
        return Ok(());
    };
    let Some(want) = desc.operands.get(e).and_then(|d| d.class) else {
        return Ok(());
    };
    if want.index() >= t.classes.len() {
        return Ok(());
    }
    let wname = class_name(t, want);
    match r.sub {
        None if t.is_sub_class(class, want) => Ok(()),
        None => Err(Problem::at(
            Place::Operand(k),
            format!(
                "illegal virtual register for instruction: operand {e} of {} takes a {wname} register, {v} is {}",
                desc.name,
                cname()
            ),
        )),
        Some(idx) => match outside_through(t, class, idx, want) {
            None => Ok(()),
            Some(member) => Err(Problem::at(
                Place::Operand(k),
                format!(
                    "illegal virtual register for instruction: operand {e} of {} takes a {wname} register, {v}.{} is not one when {v} ({}) is ${}",
                    desc.name,
                    t.sub_reg_index(idx).name,
                    cname(),
                    reg_name(t, member)
                ),
            )),
        },
    }
}

/// A member `R` of `class` whose sub-register `idx` is not in `want`, if
/// there is one.
fn outside_through(
    t: &TargetInfo<'_>,
    class: RegClass,
    idx: SubRegIndex,
    want: RegClass,
) -> Option<Reg> {
    t.class(class)
        .members
        .iter()
        .copied()
        .find(|&m| t.sub_reg(m, idx).is_none_or(|s| !t.class_contains(want, s)))
}

fn class_name(t: &TargetInfo<'_>, c: RegClass) -> String {
    t.class(c).name.to_ascii_lowercase()
}

fn reg_name(t: &TargetInfo<'_>, r: Reg) -> String {
    t.reg(r).name.to_ascii_lowercase()
}
