//! The checker's reports: error values with the block, instruction and operand, and the names of registers, values and classes in them.

use crate::ir::{Operand, RegRef};
use crate::target::Reg;

use super::super::error::{CheckError, CheckErrorKind};
use super::super::state::{Value, ValueSet};
use super::{Checker, Here};

impl<'c, 't> Checker<'c, 't> {
    pub(super) fn err(
        &mut self,
        kind: CheckErrorKind,
        here: Here,
        operand: Option<usize>,
        expected: impl FnOnce(&Self) -> String,
        found: impl FnOnce(&Self) -> String,
    ) {
        if !self.report {
            return;
        }
        // One error per operand; per instruction, one per kind for errors
        // about no operand in particular.
        let key = (here.inst, operand, operand.is_none().then_some(kind));
        if !self.reported.insert(key) {
            return;
        }
        let mut e = CheckError::new(kind, &self.orig.name, expected(self), found(self));
        e.block = Some(here.block);
        e.inst = Some(here.inst);
        e.position = Some(here.pos);
        e.operand = operand;
        e.inst_text = crate::mir::inst_text(self.t, self.alloc, here.inst);
        e.operand_text = operand.and_then(|k| {
            let o = self.alloc.insts.get(here.inst.index())?.operands.get(k)?;
            Some(self.operand_text(o))
        });
        self.errors.push(e);
    }

    pub(super) fn operand_text(&self, o: &Operand) -> String {
        match o {
            Operand::Reg(r) => {
                let mut s = match r.reg {
                    RegRef::Phys(p) => self.reg_name(p),
                    RegRef::Virt(v) => self.orig.vreg_text(v),
                    RegRef::NoReg => "$noreg".into(),
                };
                if let Some(i) = r.sub.and_then(|i| self.t.sub_reg_indices.get(i.index())) {
                    s.push('.');
                    s.push_str(&i.name);
                }
                s
            }
            other => crate::mir::write::operand_text(self.t, self.alloc, other),
        }
    }

    pub(super) fn reg_name(&self, r: Reg) -> String {
        match self.t.regs.get(r.index()) {
            Some(d) => format!("${}", d.name.to_ascii_lowercase()),
            None => format!("$<register {}>", r.0),
        }
    }

    pub(super) fn value_name(&self, x: Value) -> String {
        if let Some(v) = self.values.as_vreg(x) {
            return self.orig.vreg_text(v);
        }
        match self
            .values
            .as_unit(x)
            .and_then(|u| self.t.units.get(u.index()))
        {
            Some(d) => format!("the original value of {}", self.reg_name(d.root)),
            None => format!("<value {x}>"),
        }
    }

    pub(super) fn set_text(&self, s: &ValueSet) -> String {
        if s.is_empty() {
            return "nothing known".into();
        }
        let names: Vec<String> = s.iter().map(|x| self.value_name(x)).collect();
        format!("{{{}}}", names.join(", "))
    }

    pub(super) fn class_name(&self, c: crate::target::RegClass) -> String {
        self.t.classes.get(c.index()).map_or_else(
            || format!("<class {}>", c.0),
            |d| d.name.to_ascii_lowercase(),
        )
    }
}
