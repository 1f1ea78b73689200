//! Memory-operand folds: `MemoryFold` defs (our prelude extension) -> checked pairs of an instruction that reads a register and its form that reads memory instead.
//!
//! A fold says: in `RegForm`, register operand `Operand` may be replaced
//! by the machine operands `Address` (a stack-slot address), which gives
//! `MemForm`. The allocator's spiller uses it to access a spilled
//! register's slot directly instead of reloading or storing it (LLVM's
//! `TargetInstrInfo::foldMemoryOperand`): a use becomes a load, a
//! definition a store, and a definition tied to a use (read-modify-write)
//! both, the use going with it. Everything the allocator relies on when it
//! rewrites an instruction is checked here, so that a wrong pair is a
//! compile error in the `.td` file and not a miscompile: the other operands
//! keep their kind, definition status, class, early-clobber and tie (shifted
//! to their new places), the implicit registers are the same, `MemForm` may
//! load and store as the fold needs, and the folded operand is a register
//! with a class.

use super::access::Fields;
use super::instrs::{Instrs, OperandKind, TplOp, flags, template_operand};
use super::regs::RegBank;
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId};
use rustc_hash::FxHashMap as HashMap;

/// One checked fold.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryFold {
    /// The instruction reading a register (an index into [`Instrs::list`]).
    pub reg_form: usize,
    /// The index of that register among its machine operands.
    pub operand: usize,
    /// For a folded definition tied to a use, that use's index (it goes too).
    pub tied_use: Option<usize>,
    /// The instruction reading memory instead.
    pub mem_form: usize,
    /// The machine operands that replace the register in `mem_form`.
    pub address: Vec<TplOp>,
    /// `LittleEndian`: a use of a sub-register at bit offset 0 folds too.
    pub little_endian: bool,
    /// Where the fold is defined.
    pub loc: Span,
}

/// Reads and checks every `MemoryFold` def, in the order of
/// `(reg_form, operand)`.
pub fn read(
    f: &Fields<'_>,
    bank: &RegBank,
    instrs: &Instrs,
) -> Result<Vec<MemoryFold>, Vec<Diagnostic>> {
    let by_def: HashMap<RecId, usize> = instrs
        .list
        .iter()
        .enumerate()
        .map(|(k, i)| (i.def, k))
        .collect();
    let mut diags = Vec::new();
    let mut folds: Vec<MemoryFold> = Vec::new();
    for d in f.rk.derived_defs("MemoryFold") {
        let span = f.loc(d);
        match one(f, bank, instrs, &by_def, d) {
            Ok(fold) => {
                if let Some(prev) = folds
                    .iter()
                    .find(|p| (p.reg_form, p.operand) == (fold.reg_form, fold.operand))
                {
                    diags.push(
                        Diagnostic::error(
                            Kind::Semantic,
                            span,
                            format!(
                                "operand {} of '{}' is folded twice",
                                fold.operand, instrs.list[fold.reg_form].name
                            ),
                        )
                        .with_secondary(prev.loc, "first folded here"),
                    );
                    continue;
                }
                folds.push(fold);
            }
            Err(msg) => diags.push(Diagnostic::error(Kind::Semantic, span, msg)),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    folds.sort_by_key(|x| (x.reg_form, x.operand));
    Ok(folds)
}

/// The instruction a field names.
fn instruction(
    f: &Fields<'_>,
    by_def: &HashMap<RecId, usize>,
    d: RecId,
    field: &str,
) -> Result<usize, String> {
    let name = f.name(d);
    match f.value(d, field) {
        Some(Init::Def(x)) => by_def.get(x).copied().ok_or_else(|| {
            format!(
                "{field} of fold '{name}': '{}' is not an instruction",
                f.name(*x)
            )
        }),
        _ => Err(format!("fold '{name}' needs {field} to be an instruction")),
    }
}

/// Checks one `MemoryFold` def.
fn one(
    f: &Fields<'_>,
    bank: &RegBank,
    instrs: &Instrs,
    by_def: &HashMap<RecId, usize>,
    d: RecId,
) -> Result<MemoryFold, String> {
    let reg_form = instruction(f, by_def, d, "RegForm")?;
    let mem_form = instruction(f, by_def, d, "MemForm")?;
    let (r, m) = (&instrs.list[reg_form], &instrs.list[mem_form]);
    let what = format!("fold of '{}' into '{}'", r.name, m.name);
    let operand = f
        .opt_int(d, "Operand")
        .ok_or_else(|| format!("{what}: Operand must be an integer"))?;
    let Some(operand) = usize::try_from(operand)
        .ok()
        .filter(|&k| k < r.operands.len())
    else {
        return Err(format!(
            "{what}: operand {operand} does not exist ('{}' has {} machine operands)",
            r.name,
            r.operands.len()
        ));
    };
    let op = &r.operands[operand];
    if op.kind != OperandKind::Register || op.class.is_none() {
        return Err(format!(
            "{what}: operand {operand} ('${}') is not a register operand with a class",
            op.name
        ));
    }
    if !op.is_def && op.tied_to.is_some() {
        return Err(format!(
            "{what}: operand {operand} ('${}') is a use tied to a definition; fold the definition instead",
            op.name
        ));
    }
    let tied_use = if op.is_def {
        r.operands
            .iter()
            .position(|u| !u.is_def && u.tied_to == Some(operand))
    } else {
        None
    };
    let address = match f.value(d, "Address") {
        Some(Init::Dag(g)) => g
            .args
            .iter()
            .map(|(a, _)| template_operand(f, bank, a).map_err(|e| format!("{what}: address {e}")))
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(format!("{what}: Address must be a dag")),
    };
    let slots = address.iter().filter(|&&a| a == TplOp::Slot).count();
    if slots != 1 || address.iter().any(|a| matches!(a, TplOp::Reg | TplOp::Src)) {
        return Err(format!(
            "{what}: the address must use TplSlot once and no TplReg or TplSrc"
        ));
    }
    if (r.flags | m.flags) & flags::VARIADIC != 0 {
        return Err(format!("{what}: variadic instructions cannot be folded"));
    }
    let (loads, stores) = (!op.is_def || tied_use.is_some(), op.is_def);
    if loads && m.flags & flags::MAY_LOAD == 0 {
        return Err(format!(
            "{what}: '{}' does not load (mayLoad is not set)",
            m.name
        ));
    }
    if stores && m.flags & flags::MAY_STORE == 0 {
        return Err(format!(
            "{what}: '{}' does not store (mayStore is not set)",
            m.name
        ));
    }
    let removed = 1 + usize::from(tied_use.is_some());
    let want = r.operands.len() - removed + address.len();
    if m.operands.len() != want {
        let replaced = match tied_use {
            Some(u) => format!("operands {operand} and {u} (tied)"),
            None => format!("operand {operand}"),
        };
        return Err(format!(
            "{what}: '{}' has {} machine operands; '{}' with {replaced} replaced by the {}-operand address has {want}",
            m.name,
            m.operands.len(),
            r.name,
            address.len()
        ));
    }
    let shift = |k: usize| {
        let gone = usize::from(tied_use.is_some_and(|u| k > u));
        if k > operand {
            k + address.len() - 1 - gone
        } else {
            k
        }
    };
    for (k, ro) in r.operands.iter().enumerate() {
        if k == operand || Some(k) == tied_use {
            continue;
        }
        let mo = &m.operands[shift(k)];
        let same = ro.kind == mo.kind
            && ro.is_def == mo.is_def
            && ro.class == mo.class
            && ro.early_clobber == mo.early_clobber
            && ro.tied_to.map(shift) == mo.tied_to;
        if !same {
            return Err(format!(
                "{what}: operand {k} ('${}') of '{}' does not match operand {} ('${}') of '{}' (kind, definition, class, tie or early-clobber differ)",
                ro.name,
                r.name,
                shift(k),
                mo.name,
                m.name
            ));
        }
    }
    if !same_regs(&r.implicit_defs, &m.implicit_defs)
        || !same_regs(&r.implicit_uses, &m.implicit_uses)
    {
        return Err(format!(
            "{what}: the two instructions have different implicit registers (Defs/Uses)"
        ));
    }
    Ok(MemoryFold {
        reg_form,
        operand,
        tied_use,
        mem_form,
        address,
        little_endian: f.bit(d, "LittleEndian"),
        loc: f.loc(d),
    })
}

/// Whether two register lists hold the same registers.
fn same_regs(a: &[usize], b: &[usize]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a.dedup();
    b.dedup();
    a == b
}
