//! Reserved registers (our extension): the registers no function may allocate, the frame-pointer registers reserved in functions that keep a frame pointer, the base-pointer registers reserved in functions that need one, and the registers only data-flow analyses treat as reserved.
//!
//! LLVM answers this in C++ (`TargetRegisterInfo::getReservedRegs`), out of
//! TableGen's reach; a tdgen target says it in its `.td` file with one
//! `ReservedRegisters` def (see `tdgen/prelude/regalloc.td`), so the tables
//! carry it and every allocator, the checker and the MIR tools agree on it.
//!
//! Reserving a register reserves every register that shares a register unit
//! with it: a register overlapping a reserved one cannot be allocated
//! without clobbering it (LLVM's targets spell these out, e.g. `SP`, `ESP`,
//! `SPL` for x86's stack pointer; here one name is enough).
//!
//! Whether a function keeps a frame pointer or needs a base pointer is
//! decided per function by the allocator (`regalloc`'s
//! `alloc::order::function_info_with`), from the function's frame; the def
//! states only the target's side of those rules: the stack alignment beyond
//! which a frame is realigned, and the local frame size from which
//! variable-sized objects need a base pointer.

use super::access::Fields;
use super::features::{FeatureBits, Features};
use super::regs::RegBank;
use super::sets::{OrderedSet, Sets};
use crate::diag::{Diagnostic, Kind};
use crate::records::{Init, RecId};
use std::collections::BTreeSet;

/// The target's reserved registers, closed under overlap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reserved {
    /// Reserved in every function.
    pub always: BTreeSet<usize>,
    /// Reserved in a function that keeps a frame pointer.
    pub frame_pointer: BTreeSet<usize>,
    /// Every function that makes calls keeps a frame pointer (AArch64's
    /// AAPCS64 frame records, clang's `-mframe-pointer=non-leaf`).
    pub frame_pointer_in_non_leaf: bool,
    /// The stack alignment the target's calling convention guarantees, in
    /// bytes: a function whose frame asks for more realigns its stack and
    /// so keeps a frame pointer. 0: the target never realigns.
    pub stack_alignment: u32,
    /// Reserved in a function that needs a base pointer (a third register
    /// to address locals from, when neither the stack nor the frame
    /// pointer can).
    pub base_pointer: BTreeSet<usize>,
    /// With variable-sized objects, a local frame of at least this many
    /// bytes needs the base pointer too. 0: only stack realignment does.
    pub base_pointer_frame_size: u32,
    /// A spill slot may be aligned beyond `stack_alignment` only in a
    /// function that keeps a frame pointer (and, if its stack pointer
    /// moves, a base pointer) from the start of allocation.
    pub spill_realign_needs_frame_pointer: bool,
    /// `ReservedWithoutFeatures` defs: registers reserved in a function
    /// whose subtarget lacks some of the features (a feature set, closed
    /// under implication), closed under overlap.
    pub without_features: Vec<(FeatureBits, BTreeSet<usize>)>,
    /// Registers data-flow analyses after allocation leave untracked
    /// beyond the reserved ones, without reserving them for allocation:
    /// the named registers and the registers containing them.
    pub untracked: BTreeSet<usize>,
}

/// Reads the `ReservedRegisters` def (at most one).
pub fn read(
    f: &Fields<'_>,
    sets: &mut Sets<'_>,
    bank: &RegBank,
    features: &Features,
    diags: &mut Vec<Diagnostic>,
) -> Reserved {
    let mut out = Reserved::default();
    for d in f.rk.derived_defs("ReservedWithoutFeatures") {
        let mut bits = Vec::new();
        for i in f.list(d, "Features").iter() {
            match i {
                Init::Def(x) if features.bit_of_def(*x).is_some() => {
                    bits.extend(features.bit_of_def(*x))
                }
                _ => diags.push(Diagnostic::error(
                    Kind::Semantic,
                    f.loc(d),
                    format!(
                        "Features of '{}' must list SubtargetFeature defs",
                        f.name(d)
                    ),
                )),
            }
        }
        if bits.is_empty() {
            diags.push(Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "'{}' names no feature: its registers would be reserved always (say so in ReservedRegisters.Always)",
                    f.name(d)
                ),
            ));
            continue;
        }
        let regs = overlap_closure(bank, &set(f, sets, bank, d, "Registers", diags));
        out.without_features.push((features.closure(bits), regs));
    }
    let defs = f.rk.derived_defs("ReservedRegisters");
    if defs.len() > 1 {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(defs[1]),
                "a target may declare only one ReservedRegisters",
            )
            .with_secondary(f.loc(defs[0]), "the first one is here")
            .with_help("merge the two into one def"),
        );
    }
    let Some(&d) = defs.first() else {
        return out;
    };
    out.always = overlap_closure(bank, &set(f, sets, bank, d, "Always", diags));
    out.frame_pointer = overlap_closure(bank, &set(f, sets, bank, d, "FramePointer", diags));
    out.frame_pointer_in_non_leaf =
        matches!(f.value(d, "FramePointerInNonLeaf"), Some(Init::Bit(true)))
            || matches!(f.value(d, "FramePointerInNonLeaf"), Some(Init::Int(i)) if *i != 0);
    if out.frame_pointer_in_non_leaf && out.frame_pointer.is_empty() {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "ReservedRegisters '{}' sets FramePointerInNonLeaf but names no FramePointer register",
                    f.name(d)
                ),
            )
            .with_help("name the frame-pointer register, e.g. `let FramePointer = (add FP);`"),
        );
    }
    out.base_pointer = overlap_closure(bank, &set(f, sets, bank, d, "BasePointer", diags));
    out.untracked = super_closure(bank, &set(f, sets, bank, d, "Untracked", diags));
    out.stack_alignment = size(f, d, "StackAlignment", diags);
    out.base_pointer_frame_size = size(f, d, "BasePointerFrameSize", diags);
    out.spill_realign_needs_frame_pointer = f.bit(d, "SpillRealignNeedsFramePointer");
    if out.spill_realign_needs_frame_pointer && out.stack_alignment == 0 {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "ReservedRegisters '{}' sets SpillRealignNeedsFramePointer, but its StackAlignment is 0, so no slot is ever aligned beyond the stack",
                    f.name(d)
                ),
            )
            .with_help("set the stack alignment, e.g. `let StackAlignment = 16;`"),
        );
    }
    // Alignments are powers of two (LLVM's `Align` cannot hold anything
    // else); comparing a frame's alignment against another number would
    // realign at the wrong threshold without saying so.
    if out.stack_alignment != 0 && !out.stack_alignment.is_power_of_two() {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "StackAlignment of ReservedRegisters '{}' is {}, which is not a power of two",
                    f.name(d),
                    out.stack_alignment
                ),
            )
            .with_help("give the stack alignment in bytes, e.g. `let StackAlignment = 16;`, or 0 when the target never realigns"),
        );
    }
    // Each rule below would reserve nothing, or could never fire: the
    // description says something it does not mean.
    if out.base_pointer_frame_size > 0 && out.base_pointer.is_empty() {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "ReservedRegisters '{}' sets BasePointerFrameSize but names no BasePointer register",
                    f.name(d)
                ),
            )
            .with_help("name the base-pointer register, e.g. `let BasePointer = (add X19);`"),
        );
    }
    if !out.base_pointer.is_empty() && out.stack_alignment == 0 && out.base_pointer_frame_size == 0
    {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "ReservedRegisters '{}' names BasePointer registers, but no function can need them: StackAlignment and BasePointerFrameSize are both 0",
                    f.name(d)
                ),
            )
            .with_help("set the stack alignment the target realigns beyond, e.g. `let StackAlignment = 16;`, or the local frame size that needs a base pointer"),
        );
    }
    out
}

/// Byte count `field` of `d`: an `int` from 0 to `u32::MAX` (a negative or
/// larger value is an error, read as 0).
fn size(f: &Fields<'_>, d: RecId, field: &str, diags: &mut Vec<Diagnostic>) -> u32 {
    let v = match f.int(d, field) {
        Ok(v) => v,
        // Absent: a def not derived from the prelude's class; the rule is off.
        Err(_) if f.value(d, field).is_none() => return 0,
        Err(e) => {
            diags.push(e);
            return 0;
        }
    };
    u32::try_from(v).unwrap_or_else(|_| {
        let what = if v < 0 { "negative" } else { "too large" };
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "{field} of ReservedRegisters '{}' is {v}, which is {what}",
                    f.name(d)
                ),
            )
            .with_help(format!(
                "{field} is a number of bytes, from 0 (the rule is off) to {}",
                u32::MAX
            )),
        );
        0
    })
}

/// The registers of set expression `field` of `d`; a non-register element is an error.
fn set(
    f: &Fields<'_>,
    sets: &mut Sets<'_>,
    bank: &RegBank,
    d: RecId,
    field: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<usize> {
    let Some(v @ Init::Dag(_)) = f.value(d, field) else {
        return Vec::new();
    };
    let mut s = OrderedSet::default();
    sets.evaluate(v, &mut s, f.loc(d));
    let mut regs = Vec::new();
    for e in s.items {
        match bank.reg_of(e) {
            Some(r) => regs.push(r),
            None => diags.push(Diagnostic::error(
                Kind::Semantic,
                f.loc(d),
                format!(
                    "{field} of ReservedRegisters '{}' lists '{}', which is not a register",
                    f.name(d),
                    sets.elem_name(e)
                ),
            )),
        }
    }
    regs
}

/// `regs` and every register sharing a native register unit with one of them.
fn overlap_closure(bank: &RegBank, regs: &[usize]) -> BTreeSet<usize> {
    let units: BTreeSet<u32> = regs
        .iter()
        .flat_map(|&r| bank.regs[r].native_units.iter().copied())
        .collect();
    let mut out: BTreeSet<usize> = regs.iter().copied().collect();
    for (k, r) in bank.regs.iter().enumerate() {
        if r.native_units.iter().any(|u| units.contains(u)) {
            out.insert(k);
        }
    }
    out
}

/// `regs` and every register containing one of them (LLVM's
/// `markSuperRegs`): unlike [`overlap_closure`], a register sharing only
/// some units with one of `regs` is left out.
fn super_closure(bank: &RegBank, regs: &[usize]) -> BTreeSet<usize> {
    let mut out: BTreeSet<usize> = regs.iter().copied().collect();
    for &r in regs {
        out.extend(bank.regs[r].super_regs.iter().copied());
    }
    out
}
