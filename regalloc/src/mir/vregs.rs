//! Dense numbering of the virtual registers a function's MIR names.
//!
//! A file may name `%7` and `%20000000` only; the reader gives them
//! indices 0 and 1 so that every table sized by registers follows the
//! registers used. Indices are first given in order of first appearance
//! (the reader meets `registers:`, `liveins:` and the body in turn) and
//! put in increasing order of the written numbers when the function has
//! been read ([`VRegTable::finish`]), so that every order by register is
//! the written one. Named registers (`%foo`) come after the numbered ones,
//! in order of appearance.

use std::collections::HashMap;

use crate::ir::{MachineFunction, VReg, VRegData, VRegNumbers};

/// The largest virtual register number read: LLVM 19's MIR parser reads
/// numbers up to 32 bits and crashes on 4294967295 (its register map's
/// empty key), so the largest it reads is one less.
pub(crate) const MAX_NUMBER: u32 = u32::MAX - 1;

/// The virtual registers of the function being read, by how they are
/// written.
#[derive(Default)]
pub(crate) struct VRegTable {
    /// Register by written number.
    by_number: HashMap<u32, VReg>,
    /// Register by name.
    by_name: HashMap<String, VReg>,
    /// Written number by index, `None` for a named register.
    numbers: Vec<Option<u32>>,
}

/// Reads the digits of a written register number (`20000000` of
/// `%20000000`), or says why it is out of range.
pub(crate) fn parse_number(digits: &str) -> Result<u32, String> {
    match digits.parse::<u32>() {
        Ok(n) if n <= MAX_NUMBER => Ok(n),
        _ => Err(format!(
            "virtual register number '%{digits}' is too large (the largest is {MAX_NUMBER})"
        )),
    }
}

impl VRegTable {
    /// The register written `%n`, added to `f` at its first appearance.
    pub fn numbered(&mut self, f: &mut MachineFunction, n: u32) -> VReg {
        if let Some(&v) = self.by_number.get(&n) {
            return v;
        }
        let v = self.push(f, Some(n));
        self.by_number.insert(n, v);
        v
    }

    /// The register written `%name`, added to `f` at its first appearance.
    pub fn named(&mut self, f: &mut MachineFunction, name: &str) -> VReg {
        if let Some(&v) = self.by_name.get(name) {
            return v;
        }
        let v = self.push(f, None);
        f.vregs[v.index()].name = Some(name.into());
        self.by_name.insert(name.to_string(), v);
        v
    }

    fn push(&mut self, f: &mut MachineFunction, number: Option<u32>) -> VReg {
        debug_assert_eq!(f.vregs.len(), self.numbers.len());
        f.vregs.push(VRegData::default());
        self.numbers.push(number);
        VReg::new(self.numbers.len() - 1)
    }

    /// How `v` is written, for messages while the function is read.
    pub fn text(&self, f: &MachineFunction, v: VReg) -> String {
        match self.numbers.get(v.index()).copied().flatten() {
            Some(n) => format!("%{n}"),
            None => f.vreg_text(v),
        }
    }

    /// Puts `f`'s registers in increasing order of their written numbers
    /// (named ones last) and records the numbers in `f.vreg_numbers`.
    pub fn finish(self, f: &mut MachineFunction) {
        let numbers = self.numbers;
        let mut order: Vec<usize> = (0..numbers.len()).collect();
        order.sort_by_key(|&i| (numbers[i].is_none(), numbers[i], i));
        let written: Vec<u32> = order.iter().map_while(|&i| numbers[i]).collect();
        if order.iter().enumerate().any(|(new, &old)| new != old) {
            renumber(f, &order);
        }
        f.vreg_numbers = VRegNumbers::new(written);
    }
}

/// Gives register `order[k]` of `f` index `k`, everywhere `f` names it.
fn renumber(f: &mut MachineFunction, order: &[usize]) {
    let mut new_of_old = vec![VReg(0); order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of_old[old] = VReg::new(new);
    }
    let mut old = std::mem::take(&mut f.vregs);
    f.vregs = order.iter().map(|&i| std::mem::take(&mut old[i])).collect();
    for inst in &mut f.insts {
        for o in &mut inst.operands {
            if let Some(r) = o.as_reg_mut()
                && let crate::ir::RegRef::Virt(v) = &mut r.reg
            {
                *v = new_of_old[v.index()];
            }
        }
    }
    for l in &mut f.live_ins {
        if let Some(v) = &mut l.vreg {
            *v = new_of_old[v.index()];
        }
    }
}
