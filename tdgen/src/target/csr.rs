//! Callee-saved register sets: the save list in declared order and the register mask it covers.

use super::access::{Fields, compare_numeric};
use super::regs::RegBank;
use super::sets::{OrderedSet, Sets};
use crate::diag::{Diagnostic, Kind};
use crate::records::{Init, RecId};
use std::collections::BTreeSet;

/// A `CalleeSavedRegs` def.
#[derive(Clone, Debug)]
pub struct CalleeSaved {
    /// Its name (MIR names the mask in lower case).
    pub name: String,
    /// The def.
    pub def: RecId,
    /// Registers saved, in declared order.
    pub save_list: Vec<usize>,
    /// Registers preserved across a call: the save list with sub-registers,
    /// covered super-registers, `OtherPreserved`, and constant registers.
    pub mask: BTreeSet<usize>,
}

/// The registers covered by `regs`: each with its sub-registers, then every
/// super-register with `CoveredBySubRegs` whose sub-registers are all in.
pub fn covered(bank: &RegBank, regs: &[usize]) -> Vec<usize> {
    let mut set = OrderedRegs::default();
    for &r in regs {
        if set.insert(r) {
            for s in bank.subregs_preorder(r) {
                set.insert(s);
            }
        }
    }
    let mut i = 0;
    while i < set.items.len() {
        let r = set.items[i];
        for &sup in &bank.regs[r].super_regs {
            if !bank.regs[sup].covered_by_subregs || set.contains(sup) {
                continue;
            }
            if bank.regs[sup].subregs.values().all(|s| set.contains(*s)) {
                set.insert(sup);
            }
        }
        i += 1;
    }
    set.items
}

#[derive(Default)]
struct OrderedRegs {
    items: Vec<usize>,
    seen: BTreeSet<usize>,
}

impl OrderedRegs {
    fn insert(&mut self, r: usize) -> bool {
        let new = self.seen.insert(r);
        if new {
            self.items.push(r);
        }
        new
    }
    fn contains(&self, r: usize) -> bool {
        self.seen.contains(&r)
    }
}

/// Reads every `CalleeSavedRegs` def (numeric-aware name order).
pub fn read(
    f: &Fields<'_>,
    sets: &mut Sets<'_>,
    bank: &RegBank,
    classes: &super::classes::Classes,
    diags: &mut Vec<Diagnostic>,
) -> Vec<CalleeSaved> {
    let mut defs = f.rk.derived_defs("CalleeSavedRegs");
    defs.sort_by(|&a, &b| compare_numeric(&f.name(a), &f.name(b)));
    let constants: Vec<usize> = (0..bank.regs.len())
        .filter(|&r| bank.regs[r].constant)
        .collect();
    let mut out = Vec::new();
    for d in defs {
        let loc = f.loc(d);
        let mut save_list = Vec::new();
        for e in sets.expand(d).unwrap_or_default() {
            match bank.reg_of(e) {
                Some(r) if !classes.list.iter().any(|c| c.contains(r)) => diags.push(
                    Diagnostic::error(
                        Kind::Semantic,
                        loc,
                        format!("callee-saved set '{}' lists {}, which is in no register class", f.name(d), bank.regs[r].name),
                    )
                    .with_help("a register no class holds is never allocated, so saving it is meaningless; add it to a class or drop it"),
                ),
                Some(r) => save_list.push(r),
                None => diags.push(Diagnostic::error(
                    Kind::Semantic,
                    loc,
                    format!(
                        "callee-saved set '{}' lists '{}', which is not a register",
                        f.name(d),
                        sets.elem_name(e)
                    ),
                )),
            }
        }
        let mut mask: BTreeSet<usize> = covered(bank, &save_list).into_iter().collect();
        if let Some(v @ Init::Dag(_)) = f.value(d, "OtherPreserved") {
            let mut s = OrderedSet::default();
            sets.evaluate(v, &mut s, loc);
            let regs: Vec<usize> = s.items.into_iter().filter_map(|e| bank.reg_of(e)).collect();
            mask.extend(covered(bank, &regs));
        }
        mask.extend(covered(bank, &constants));
        out.push(CalleeSaved {
            name: f.name(d),
            def: d,
            save_list,
            mask,
        });
    }
    out
}
