//! The allocation-order policy (our extension): which callee-saved registers are cheap enough to keep their place in allocation orders.
//!
//! LLVM's RegisterClassInfo moves every register overlapping a callee-saved
//! register to the end of the order. A target's `AllocationOrderPolicy` def
//! names cheap callee-saved registers that keep their place, and a class's
//! `KeepCalleeSavedOrder` bit overrides the policy (1: keep every register in
//! place; 0: LLVM's behaviour). See `tdgen/prelude/regalloc.td`.

use super::access::Fields;
use super::classes::Classes;
use super::csr::CalleeSaved;
use super::regs::RegBank;
use super::sets::{OrderedSet, Sets};
use crate::diag::{Diagnostic, Kind};
use crate::records::Init;
use std::collections::BTreeSet;

/// The target-wide policy.
#[derive(Clone, Debug, Default)]
pub struct OrderPolicy {
    /// Callee-saved registers that cost nothing extra to use.
    pub cheap_callee_saved: BTreeSet<usize>,
}

/// Reads the policy def (at most one) and each class's override.
pub fn read(
    f: &Fields<'_>,
    sets: &mut Sets<'_>,
    bank: &RegBank,
    classes: &mut Classes,
    csrs: &[CalleeSaved],
    diags: &mut Vec<Diagnostic>,
) -> OrderPolicy {
    let mut policy = OrderPolicy::default();
    let defs = f.rk.derived_defs("AllocationOrderPolicy");
    if defs.len() > 1 {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(defs[1]),
                "a target may declare only one AllocationOrderPolicy",
            )
            .with_secondary(f.loc(defs[0]), "the first one is here"),
        );
    }
    if let Some(&d) = defs.first()
        && let Some(v @ Init::Dag(_)) = f.value(d, "CheapCalleeSaved")
    {
        let mut s = OrderedSet::default();
        sets.evaluate(v, &mut s, f.loc(d));
        for e in s.items {
            match bank.reg_of(e) {
                    Some(r) if csrs.iter().any(|c| c.save_list.contains(&r)) => {
                        policy.cheap_callee_saved.insert(r);
                    }
                    Some(r) => diags.push(
                        Diagnostic::error(
                            Kind::Semantic,
                            f.loc(d),
                            format!("CheapCalleeSaved lists {}, which is in no callee-saved set", bank.regs[r].name),
                        )
                        .with_help("only callee-saved registers can be cheap; list it in a CalleeSavedRegs save list or drop it"),
                    ),
                    None => diags.push(Diagnostic::error(
                        Kind::Semantic,
                        f.loc(d),
                        format!("CheapCalleeSaved lists '{}', which is not a register", sets.elem_name(e)),
                    )),
                }
        }
    }
    // Per-class overrides: user classes read the bit; inferred classes take the
    // value of the super-class they inherit their orders from (the last one).
    for k in 0..classes.list.len() {
        let keep = match classes.list[k].def {
            Some(d) => match f.value(d, "KeepCalleeSavedOrder") {
                Some(Init::Bit(b)) => Some(*b),
                Some(Init::Int(i)) => Some(*i != 0),
                _ => None,
            },
            None => classes.list[k]
                .super_classes
                .last()
                .and_then(|&s| classes.list[s].keep_callee_saved_order),
        };
        classes.list[k].keep_callee_saved_order = keep;
    }
    policy
}

/// The allocation order of `order` (a class's raw order) for a function whose
/// callee-saved registers are `csr`: reserved registers dropped, registers
/// overlapping a callee-saved register moved to the end unless the policy or
/// the class keeps them in place. Relative order is kept in both parts.
pub fn effective_order(
    bank: &RegBank,
    policy: &OrderPolicy,
    keep: Option<bool>,
    order: &[usize],
    csr: &[usize],
    reserved: &BTreeSet<usize>,
) -> Vec<usize> {
    let overlaps = |a: usize, b: usize| {
        bank.regs[a]
            .units
            .iter()
            .any(|u| bank.regs[b].units.contains(u))
    };
    let mut front = Vec::new();
    let mut back = Vec::new();
    for &r in order {
        if reserved.contains(&r) {
            continue;
        }
        let hit: Vec<usize> = csr.iter().copied().filter(|&c| overlaps(r, c)).collect();
        let stays = hit.is_empty()
            || match keep {
                Some(k) => k,
                None => hit.iter().all(|c| policy.cheap_callee_saved.contains(c)),
            };
        if stays { front.push(r) } else { back.push(r) }
    }
    front.extend(back);
    front
}
