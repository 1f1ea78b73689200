//! Reserved registers (our extension): the registers no function may allocate, and the frame-pointer registers reserved in functions that keep a frame pointer.
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

use super::access::Fields;
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
}

/// Reads the `ReservedRegisters` def (at most one).
pub fn read(
    f: &Fields<'_>,
    sets: &mut Sets<'_>,
    bank: &RegBank,
    diags: &mut Vec<Diagnostic>,
) -> Reserved {
    let mut out = Reserved::default();
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
    out
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
