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
//! to their new places), the implicit uses are the same and `MemForm`'s
//! implicit definitions are among `RegForm`'s (a fold may drop one, such as
//! the flags x86's `MOV32r0` clobbers: the allocator then folds only an
//! instruction whose operand for it is `dead`), `MemForm` may load and
//! store as the fold needs, and the folded operand is a register with a
//! class.

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
    /// A second operand naming the same register that goes too: the use
    /// tied to a folded definition, or the declared `AlsoOperand`.
    pub also: Option<usize>,
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
/// `(reg_form, operand, also)`.
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
                if let Some(prev) = folds.iter().find(|p| {
                    (p.reg_form, p.operand, p.also) == (fold.reg_form, fold.operand, fold.also)
                }) {
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
    folds.sort_by_key(|x| (x.reg_form, x.operand, x.also));
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
    let declared = f.opt_int(d, "AlsoOperand").filter(|&a| a >= 0);
    let also = if op.is_def {
        let tied = r
            .operands
            .iter()
            .position(|u| !u.is_def && u.tied_to == Some(operand));
        if declared.is_some() {
            return Err(format!(
                "{what}: AlsoOperand is for a second use; a folded definition takes its tied use along by itself"
            ));
        }
        tied
    } else if let Some(a) = declared {
        let Some(a) = usize::try_from(a)
            .ok()
            .filter(|&a| a > operand && a < r.operands.len())
        else {
            return Err(format!(
                "{what}: AlsoOperand {a} must be an operand of '{}' after operand {operand}",
                r.name
            ));
        };
        let ao = &r.operands[a];
        if ao.kind != OperandKind::Register
            || ao.is_def
            || ao.tied_to.is_some()
            || ao.class != op.class
        {
            return Err(format!(
                "{what}: AlsoOperand {a} ('${}') must be an untied register use of the same class as operand {operand}",
                ao.name
            ));
        }
        Some(a)
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
    if slots != 1
        || address.iter().any(|a| {
            matches!(
                a,
                TplOp::Reg | TplOp::Src | TplOp::RegSub(_) | TplOp::SrcSub(_)
            )
        })
    {
        return Err(format!(
            "{what}: the address must use TplSlot once and no TplReg or TplSrc"
        ));
    }
    if (r.flags | m.flags) & flags::VARIADIC != 0 {
        return Err(format!("{what}: variadic instructions cannot be folded"));
    }
    let (loads, stores) = (!op.is_def || also.is_some(), op.is_def);
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
    let removed = 1 + usize::from(also.is_some());
    let want = r.operands.len() - removed + address.len();
    if m.operands.len() != want {
        let replaced = match also {
            Some(u) => format!("operands {operand} and {u}"),
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
        let gone = usize::from(also.is_some_and(|u| k > u));
        if k > operand {
            k + address.len() - 1 - gone
        } else {
            k
        }
    };
    for (k, ro) in r.operands.iter().enumerate() {
        if k == operand || Some(k) == also {
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
    if !m.implicit_defs.iter().all(|d| r.implicit_defs.contains(d)) {
        return Err(format!(
            "{what}: '{}' defines implicit registers (Defs) that '{}' does not",
            m.name, r.name
        ));
    }
    if !same_regs(&r.implicit_uses, &m.implicit_uses) {
        return Err(format!(
            "{what}: the two instructions have different implicit uses (Uses)"
        ));
    }
    Ok(MemoryFold {
        reg_form,
        operand,
        also,
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

#[cfg(test)]
mod tests {
    use crate::target::instrs::TplOp;

    /// A two-address machine with register, memory, store and
    /// read-modify-write forms of ADD, and a compare.
    const HEAD: &str = r#"
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">; def R2 : Register<"r2">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2)>;
def imm : Operand<i32>;
def mem : Operand<i32> { let MIOperandInfo = (ops GPR:$base, imm:$off); }
class I<dag o, dag i> : Instruction { let OutOperandList = o; let InOperandList = i; }
let Constraints = "$d = $a" in {
  def ADDrr : I<(outs GPR:$d), (ins GPR:$a, GPR:$b)>;
  def ADDri : I<(outs GPR:$d), (ins GPR:$a, imm:$i)>;
  let mayLoad = true in def ADDrm : I<(outs GPR:$d), (ins GPR:$a, mem:$m)>;
}
let mayLoad = true, mayStore = true in {
  def ADDmr : I<(outs), (ins mem:$m, GPR:$b)>;
  def ADDmi : I<(outs), (ins mem:$m, imm:$i)>;
}
def MOVri : I<(outs GPR:$d), (ins imm:$i)>;
let mayStore = true in def MOVmi : I<(outs), (ins mem:$m, imm:$i)>;
def TST : I<(outs), (ins GPR:$a, GPR:$b)>;
let mayLoad = true in def CMPmi : I<(outs), (ins mem:$m, imm:$i)>;
let mayLoad = true in def BADrm : I<(outs), (ins GPR:$a, GPR:$x, mem:$m)>;
def ADDR { dag A = (ops TplSlot, 0); }
"#;

    crate::target::test_machine!(HEAD);

    use crate::target::opcode_of as opcode;

    #[test]
    fn loads_stores_read_modify_writes_and_second_uses() {
        let m = model(
            r#"
def : MemoryFold<ADDrr, 2, ADDrm, ADDR.A>;
def : MemoryFold<ADDrr, 0, ADDmr, ADDR.A>;
def : MemoryFold<ADDri, 0, ADDmi, ADDR.A>;
def : MemoryFold<MOVri, 0, MOVmi, ADDR.A>;
def : MemoryFold<TST, 0, CMPmi, (ops TplSlot, 0, 0)> { let AlsoOperand = 1; }
"#,
        )
        .unwrap();
        let f = &m.folds;
        assert_eq!(f.len(), 5);
        // Sorted by register form (name order: ADDri, ADDrr, MOVri, TST), operand.
        let keys: Vec<(usize, usize, Option<usize>)> =
            f.iter().map(|x| (x.reg_form, x.operand, x.also)).collect();
        let (ri, rr, mov, tst) = (
            opcode(&m, "ADDri"),
            opcode(&m, "ADDrr"),
            opcode(&m, "MOVri"),
            opcode(&m, "TST"),
        );
        assert_eq!(
            keys,
            vec![
                (ri, 0, Some(1)),
                (rr, 0, Some(1)),
                (rr, 2, None),
                (mov, 0, None),
                (tst, 0, Some(1)),
            ]
        );
        assert_eq!(f[2].address, vec![TplOp::Slot, TplOp::Imm(0)]);
        assert!(!f[2].little_endian);
    }

    #[test]
    fn mismatched_forms_are_errors_at_the_fold() {
        let e = err("def : MemoryFold<ADDrr, 2, BADrm, ADDR.A>;");
        assert!(
            e.contains("fold of 'ADDrr' into 'BADrm': operand 0 ('$d') of 'ADDrr' does not match operand 0 ('$a')"),
            "{e}"
        );
        assert!(e.contains("t.td:"), "{e}");
        let e = err("def : MemoryFold<ADDrr, 1, ADDrm, ADDR.A>;");
        assert!(
            e.contains("is a use tied to a definition; fold the definition instead"),
            "{e}"
        );
        let e = err("def : MemoryFold<ADDrr, 7, ADDrm, ADDR.A>;");
        assert!(
            e.contains("operand 7 does not exist ('ADDrr' has 3 machine operands)"),
            "{e}"
        );
        let e = err("def : MemoryFold<ADDrr, 2, ADDrm, (ops 0, 0)>;");
        assert!(e.contains("the address must use TplSlot once"), "{e}");
        let e = err("def : MemoryFold<ADDrr, 2, ADDri, ADDR.A>;");
        assert!(
            e.contains("'ADDri' does not load (mayLoad is not set)"),
            "{e}"
        );
        let e = err("def : MemoryFold<MOVri, 0, CMPmi, ADDR.A>;");
        assert!(
            e.contains("'CMPmi' does not store (mayStore is not set)"),
            "{e}"
        );
        let e = err("def : MemoryFold<ADDri, 2, ADDmi, ADDR.A>;");
        assert!(
            e.contains("operand 2 ('$i') is not a register operand with a class"),
            "{e}"
        );
        let e = err("def : MemoryFold<ADDrr, 2, ADDrm, (ops TplSlot, 0, 0)>;");
        assert!(
            e.contains("'ADDrm' has 4 machine operands; 'ADDrr' with operand 2 replaced by the 3-operand address has 5"),
            "{e}"
        );
        let e =
            err("def : MemoryFold<TST, 0, CMPmi, (ops TplSlot, 0, 0)> { let AlsoOperand = 0; }");
        assert!(
            e.contains("AlsoOperand 0 must be an operand of 'TST' after operand 0"),
            "{e}"
        );
        let e = err("def : MemoryFold<ADDrr, 0, ADDmr, ADDR.A> { let AlsoOperand = 2; }");
        assert!(
            e.contains("a folded definition takes its tied use along by itself"),
            "{e}"
        );
    }

    #[test]
    fn a_fold_may_drop_implicit_definitions_but_not_add_them() {
        let defs = r#"
let Defs = [R2] in { def ZEROr : I<(outs GPR:$d), (ins)>; def ONEr : I<(outs GPR:$d), (ins)>; }
let mayStore = true in def STZm : I<(outs), (ins mem:$m)>;
let mayStore = true, Defs = [R2] in def STZFm : I<(outs), (ins mem:$m)>;
def ZEROr2 : I<(outs GPR:$d), (ins)>;
"#;
        let m = model(&format!(
            "{defs}def : MemoryFold<ZEROr, 0, STZm, ADDR.A>;\ndef : MemoryFold<ONEr, 0, STZFm, ADDR.A>;"
        ))
        .unwrap();
        assert_eq!(m.folds.len(), 2);
        let e = err(&format!(
            "{defs}def : MemoryFold<ZEROr2, 0, STZFm, ADDR.A>;"
        ));
        assert!(
            e.contains("fold of 'ZEROr2' into 'STZFm': 'STZFm' defines implicit registers (Defs) that 'ZEROr2' does not"),
            "{e}"
        );
    }

    #[test]
    fn a_pair_folded_twice_is_an_error_naming_both() {
        let e = err(
            "def : MemoryFold<ADDrr, 2, ADDrm, ADDR.A>;\ndef : MemoryFold<ADDrr, 2, ADDrm, ADDR.A>;",
        );
        assert!(e.contains("operand 2 of 'ADDrr' is folded twice"), "{e}");
        assert!(e.contains("first folded here"), "{e}");
    }
}
