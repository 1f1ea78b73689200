//! Register semantics: evaluated records -> a target model (registers, sub-register indices, units, classes, callee-saved sets).
//!
//! [`TargetModel::build`] reproduces llvm-tblgen's register bank: the same
//! enumeration orders, synthesized indices and classes, register units and
//! relations, so that `tdgen regs --json` equals the facts `facts.py` extracts
//! from `llvm-tblgen -gen-register-info` on the same description.

pub mod access;
pub mod branches;
pub mod classes;
pub mod commute;
pub mod csr;
#[cfg(feature = "json")]
pub mod facts;
pub mod features;
pub mod folds;
pub mod instrs;
pub mod policy;
pub mod pre_alloc;
pub mod regs;
pub mod reserved;
pub mod sets;
pub mod templates;
pub mod three_address;
pub mod weights;

use crate::diag::Diagnostic;
use crate::records::RecordKeeper;
use access::Fields;

/// Everything the allocator needs to know about a target's registers.
pub struct TargetModel {
    /// The `Target` def's name (empty if there is none).
    pub target: String,
    /// The namespace of the registers.
    pub namespace: String,
    /// Registers, sub-register indices and units.
    pub bank: regs::RegBank,
    /// Register classes in enum order.
    pub classes: classes::Classes,
    /// Callee-saved sets.
    pub callee_saved: Vec<csr::CalleeSaved>,
    /// The allocation-order policy (our extension).
    pub policy: policy::OrderPolicy,
    /// Reserved registers (our extension).
    pub reserved: reserved::Reserved,
    /// Instructions.
    pub instrs: instrs::Instrs,
    /// Subtarget features (spill templates and HW modes depend on them).
    pub features: features::Features,
    /// Per-class spill/reload/copy templates (our extension).
    pub templates: templates::Templates,
    /// Memory-operand folds (our extension), by register form and operand.
    pub folds: Vec<folds::MemoryFold>,
    /// Branch facts for splitting edges (our extension).
    pub branches: branches::Branches,
    /// What commuting each instruction does beyond swapping two uses
    /// (our extension), in opcode order.
    pub commute_rules: Vec<commute::CommuteRule>,
    /// What two-address instructions become when their tie would cost a
    /// copy (our extension), by two-address instruction.
    pub three_address_forms: Vec<three_address::ThreeAddressForm>,
    /// The pre-allocation passes' target choices (our extension).
    pub pre_allocation: pre_alloc::PreAllocationPolicy,
}

impl TargetModel {
    /// Builds the model from evaluated records; every inconsistency is a diagnostic.
    pub fn build(rk: &RecordKeeper) -> Result<TargetModel, Vec<Diagnostic>> {
        let f = Fields { rk };
        let mut sets = sets::Sets::new(&f);
        let mut bank = regs::RegBank::build(&f, &mut sets);
        let mut diags = std::mem::take(&mut bank.diags);
        diags.append(&mut sets.diags);
        if !diags.is_empty() {
            return Err(diags);
        }
        let mut classes = classes::Classes::build(&f, &mut sets, &bank);
        diags.extend(classes.diags.iter().cloned());
        diags.append(&mut sets.diags);
        if !diags.is_empty() {
            return Err(diags);
        }
        bank.compute_composites();
        bank.compute_lane_masks();
        diags.append(&mut bank.diags);
        weights::compute_unit_weights(&mut bank, &classes);
        let callee_saved = csr::read(&f, &mut sets, &bank, &classes, &mut diags);
        let policy = policy::read(
            &f,
            &mut sets,
            &bank,
            &mut classes,
            &callee_saved,
            &mut diags,
        );
        let features = features::read(&f, &bank, &mut diags);
        let reserved = reserved::read(&f, &mut sets, &bank, &features, &mut diags);
        let pre_allocation = pre_alloc::read(&f, &mut diags);
        diags.append(&mut sets.diags);
        if !diags.is_empty() {
            return Err(diags);
        }
        let instrs = instrs::Instrs::build(rk, &bank, &classes)?;
        let templates = templates::build(&f, &bank, &classes, &instrs, &features, &reserved)?;
        let folds = folds::read(&f, &bank, &instrs)?;
        let branches = branches::read(&f, &instrs)?;
        let commute_rules = commute::read(&f, &instrs)?;
        let three_address_forms = three_address::read(&f, &bank, &classes, &instrs)?;
        let target = rk
            .derived_defs("Target")
            .first()
            .map(|&t| rk.name_of(t))
            .unwrap_or_default();
        let namespace = bank
            .regs
            .first()
            .and_then(|r| r.def)
            .map(|d| f.string(d, "Namespace"))
            .unwrap_or_default();
        Ok(TargetModel {
            target,
            namespace,
            bank,
            classes,
            callee_saved,
            policy,
            reserved,
            instrs,
            features,
            templates,
            folds,
            branches,
            commute_rules,
            three_address_forms,
            pre_allocation,
        })
    }
}

/// A readable summary: registers with their units and sub-registers, classes with their orders.
pub fn summary(m: &TargetModel) -> String {
    use std::fmt::Write as _;
    let b = &m.bank;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} registers, {} register units, {} sub-register indices, {} register classes, {} callee-saved sets",
        b.regs.len(),
        b.num_native_units,
        b.indices.len(),
        m.classes.list.len(),
        m.callee_saved.len()
    );
    s.push_str("\nregisters (enum: name units [sub-registers]):\n");
    for (r, reg) in b.regs.iter().enumerate() {
        let units: Vec<String> = reg.native_units.iter().map(|u| u.to_string()).collect();
        let subs: Vec<String> = b
            .subregs_preorder(r)
            .iter()
            .map(|&x| {
                format!(
                    "{}:{}",
                    b.indices[reg.subreg_index[&x]].name, b.regs[x].name
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "  {:>4}: {} units {{{}}}{}",
            r + 1,
            reg.name,
            units.join(","),
            if subs.is_empty() {
                String::new()
            } else {
                format!(" [{}]", subs.join(" "))
            }
        );
    }
    s.push_str("\nclasses (id: name size/spill/align, order):\n");
    for (id, c) in m.classes.list.iter().enumerate() {
        let (rs, ss, sa) = c.sizes[0];
        let order: Vec<&str> = c
            .orders
            .first()
            .map(|o| o.iter().map(|&r| b.regs[r].name.as_str()).collect())
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "  {id:>4}: {}{} {rs}/{ss}/{sa}{} = {}",
            c.name,
            if c.def.is_none() { " (inferred)" } else { "" },
            if c.allocatable {
                ""
            } else {
                " not allocatable"
            },
            order.join(" ")
        );
    }
    for c in &m.callee_saved {
        let save: Vec<&str> = c
            .save_list
            .iter()
            .map(|&r| b.regs[r].name.as_str())
            .collect();
        let _ = writeln!(
            s,
            "\ncallee-saved {}: {} (mask: {} registers)",
            c.name,
            save.join(" "),
            c.mask.len()
        );
    }
    s
}

/// Builds the model of `.td` text that includes our prelude, rendering any
/// diagnostics (unit tests of the semantic layer).
#[cfg(test)]
pub(crate) fn model_of(text: &str) -> Result<TargetModel, String> {
    let mut l = crate::loader::Loader::new();
    l.include_dir(crate::emit::prelude_dir());
    let rk = l.records_from_str("t.td", text).map_err(|d| l.render(&d))?;
    TargetModel::build(&rk).map_err(|d| l.render(&d))
}

/// Defines, in a fact module's unit tests, `model(body)` and `err(body)`:
/// the model of (or the rendered errors for) the test machine `$head`
/// followed by `body`, so that each test writes only the records it is
/// about.
#[cfg(test)]
macro_rules! test_machine {
    ($head:expr) => {
        #[allow(dead_code)]
        fn model(body: &str) -> Result<crate::target::TargetModel, String> {
            crate::target::model_of(&format!("{}{body}", $head))
        }

        #[allow(dead_code)]
        fn err(body: &str) -> String {
            crate::target::model_error_of(&format!("{}{body}", $head))
        }
    };
}
#[cfg(test)]
pub(crate) use test_machine;

/// The opcode number of the instruction `name` in `m` (unit tests);
/// panics when there is none.
#[cfg(test)]
pub(crate) fn opcode_of(m: &TargetModel, name: &str) -> usize {
    m.instrs
        .list
        .iter()
        .position(|i| i.name == name)
        .unwrap_or_else(|| panic!("no instruction {name}"))
}

/// The rendered diagnostics of `.td` text that must not build (unit tests
/// of the semantic layer); panics when it builds.
#[cfg(test)]
pub(crate) fn model_error_of(text: &str) -> String {
    match model_of(text) {
        Ok(_) => panic!("expected an error for {text}"),
        Err(e) => e,
    }
}
