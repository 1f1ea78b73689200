//! `NameIndex`: hash look-ups from names to table indices, built once per target for readers that resolve many names.
//!
//! The tables themselves only offer linear look-ups (generated `static`s
//! cannot hold hash maps); the MIR reader resolves every operand by name and
//! needs O(1).

use std::collections::HashMap;

use super::ids::{CalleeSavedSet, Opcode, Reg, RegClass, SubRegIndex};
use super::info::TargetInfo;

/// Name-to-index maps over one [`TargetInfo`]. Registers, classes and
/// callee-saved sets are keyed lower-case (MIR's spelling); opcodes and
/// sub-register indices are case-sensitive, as in MIR.
#[derive(Clone, Debug, Default)]
pub struct NameIndex {
    regs: HashMap<String, Reg>,
    classes: HashMap<String, RegClass>,
    opcodes: HashMap<String, Opcode>,
    sub_regs: HashMap<String, SubRegIndex>,
    callee_saved: HashMap<String, CalleeSavedSet>,
}

impl NameIndex {
    /// Builds the maps; the first of two names differing only in case wins.
    pub fn new(t: &TargetInfo<'_>) -> NameIndex {
        fn fill<T: Copy>(m: &mut HashMap<String, T>, names: impl Iterator<Item = (String, T)>) {
            for (n, v) in names {
                m.entry(n).or_insert(v);
            }
        }
        let mut ix = NameIndex::default();
        fill(
            &mut ix.regs,
            t.regs
                .iter()
                .enumerate()
                .map(|(i, r)| (r.name.to_ascii_lowercase(), Reg::new(i))),
        );
        fill(
            &mut ix.classes,
            t.classes
                .iter()
                .enumerate()
                .map(|(i, c)| (c.name.to_ascii_lowercase(), RegClass::new(i))),
        );
        fill(
            &mut ix.opcodes,
            t.instrs
                .iter()
                .enumerate()
                .map(|(i, d)| (d.name.to_string(), Opcode::new(i))),
        );
        fill(
            &mut ix.sub_regs,
            t.sub_reg_indices
                .iter()
                .enumerate()
                .map(|(i, d)| (d.name.to_string(), SubRegIndex::new(i))),
        );
        fill(
            &mut ix.callee_saved,
            t.callee_saved
                .iter()
                .enumerate()
                .map(|(i, c)| (c.name.to_ascii_lowercase(), CalleeSavedSet::new(i))),
        );
        ix
    }

    /// The register named `name`, ignoring ASCII case.
    pub fn reg(&self, name: &str) -> Option<Reg> {
        lookup_lower(&self.regs, name)
    }

    /// The class named `name`, ignoring ASCII case.
    pub fn class(&self, name: &str) -> Option<RegClass> {
        lookup_lower(&self.classes, name)
    }

    /// The instruction named exactly `name`.
    pub fn opcode(&self, name: &str) -> Option<Opcode> {
        self.opcodes.get(name).copied()
    }

    /// The sub-register index named exactly `name`.
    pub fn sub_reg_index(&self, name: &str) -> Option<SubRegIndex> {
        self.sub_regs.get(name).copied()
    }

    /// The callee-saved set named `name`, ignoring ASCII case.
    pub fn callee_saved(&self, name: &str) -> Option<CalleeSavedSet> {
        lookup_lower(&self.callee_saved, name)
    }
}

/// Looks `name` up in a lower-case-keyed map without allocating when it is
/// already lower-case (the common case in MIR).
fn lookup_lower<T: Copy>(m: &HashMap<String, T>, name: &str) -> Option<T> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        m.get(&name.to_ascii_lowercase()).copied()
    } else {
        m.get(name).copied()
    }
}
