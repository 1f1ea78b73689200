//! What every allocator requires of its input before it starts: tied operands already in two-address form.
//!
//! LLVM's allocators run after the two-address pass, which rewrites
//! `%c = ADD %a, %b` (with `$dst = $a`) into `%c = COPY %a; %c = ADD %c, %b`,
//! so that a tied definition and its use name the same virtual register.
//! MIR stopped before an allocator is in that form; MIR written by hand may
//! not be. The Fast allocator inserts the copy itself; the allocators built
//! on live intervals would have to invent it before computing them, so for
//! them the function is refused up front, with the instruction and the
//! fix, instead of being allocated wrongly.

use super::{AllocError, AllocErrorKind};
use crate::ir::{MachineFunction, Op, Operand, RegRef};
use crate::target::TargetInfo;

/// Checks that every tied use names the register (and sub-register) of the
/// definition it is tied to.
pub fn check_two_address(t: &TargetInfo<'_>, func: &MachineFunction) -> Result<(), AllocError> {
    for b in func.block_ids() {
        for &i in &func.block(b).insts {
            let inst = func.inst(i);
            let Op::Target(opc) = inst.op else { continue };
            let Some(desc) = t.instrs.get(opc.index()) else {
                continue;
            };
            for (k, op) in inst.operands.iter().enumerate() {
                let Operand::Reg(u) = op else { continue };
                if u.is_def() || u.flags.has(crate::ir::RegFlags::UNDEF) {
                    continue;
                }
                let tied = u.tied_to.map(usize::from).or_else(|| desc.tied_to(k));
                let Some(d) = tied else { continue };
                let Some(Operand::Reg(def)) = inst.operands.get(d) else {
                    continue;
                };
                let virt = matches!(def.reg, RegRef::Virt(_)) || matches!(u.reg, RegRef::Virt(_));
                if virt && (def.reg != u.reg || def.sub != u.sub) {
                    let name = |r: &crate::ir::RegOperand| match r.reg {
                        RegRef::Virt(v) => format!("%{}", v.0),
                        RegRef::Phys(p) => format!("${}", t.reg(p).name.to_ascii_lowercase()),
                        RegRef::NoReg => "$noreg".into(),
                    };
                    let (dn, un) = (name(def), name(u));
                    return Err(AllocError::new(
                        AllocErrorKind::Unsupported,
                        &func.name,
                        format!(
                            "{}: operand {k} ({un}) is tied to operand {d} ({dn}) but names another register; \
                             allocators take two-address form, as after LLVM's two-address pass: \
                             copy first (`{dn} = COPY {un}`) and use {dn} in both operands",
                            desc.name
                        ),
                    )
                    .at(b, i));
                }
            }
        }
    }
    Ok(())
}
