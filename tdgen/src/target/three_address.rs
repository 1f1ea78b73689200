//! Three-address conversion facts: `ThreeAddressForm` defs (our prelude extension) -> checked rewritings of a two-address instruction into one whose result is not tied to a source.
//!
//! LLVM's two-address pass asks the target's `convertToThreeAddress` (C++)
//! for such an instruction when a tie would cost a copy: x86 turns `ADD`,
//! `INC`, `SHL` ... into `LEA`. Here the description states each rewriting
//! as a dag of the new instruction's operands, each one taken from the old
//! instruction's operands, a new register, or a constant. What the pass
//! relies on is checked: the old instruction is
//! `isConvertibleToThreeAddress` and has a tie, the dag has one argument
//! per operand of the new one, its definition is the old one's (or a new
//! register whose sub-register is copied to it) and every other argument a
//! use of a matching kind.

use super::access::Fields;
use super::classes::Classes;
use super::instrs::{Instrs, OperandKind, flags};
use super::regs::RegBank;
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId};

/// One operand of the three-address form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// `TplDef`: the two-address form's definition.
    Def,
    /// `(TplOperand k)`: operand `k` as it is.
    Operand(usize),
    /// `(TplOperand k, RC)`: register operand `k`, narrowed to class `RC`.
    Constrained(usize, usize),
    /// `(TplNegated k, bits)`: immediate operand `k` negated, fitting in
    /// `bits` signed bits.
    Negated(usize, u8),
    /// `(TplWiden k, RC, idx)`: operand `k` copied into sub-register `idx`
    /// of a new register of class `RC`.
    Widen(usize, usize, usize),
    /// `(TplInsert k, RC, idx)`: the same, the new register first defined
    /// by an `IMPLICIT_DEF`.
    Insert(usize, usize, usize),
    /// `(TplResult RC, idx)`: a new register of class `RC` whose
    /// sub-register `idx` is copied to the definition after.
    Result(usize, usize),
    /// An integer.
    Imm(i64),
    /// `TplNoReg`.
    NoReg,
    /// A fixed register.
    Fixed(usize),
}

impl Piece {
    /// Whether the operand makes a new register.
    pub fn is_new_register(self) -> bool {
        matches!(
            self,
            Piece::Widen(..) | Piece::Insert(..) | Piece::Result(..)
        )
    }
}

/// One checked rewriting.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreeAddressForm {
    /// The two-address instruction (an index into [`Instrs::list`]).
    pub two_address: usize,
    /// The instruction emitted in its place.
    pub three_address: usize,
    /// Its operands.
    pub operands: Vec<Piece>,
    /// The immediate operand of the two-address form and the value it
    /// must hold for this form to apply.
    pub immediate: Option<(usize, i64)>,
    /// Positions in [`ThreeAddressForm::operands`] of the new registers, in
    /// the order they are made.
    pub new_register_order: Vec<usize>,
    /// Where the def is.
    pub loc: Span,
}

/// Reads and checks the `ThreeAddressForm` defs, sorted by two-address
/// instruction (in the order written for one instruction).
pub fn read(
    f: &Fields<'_>,
    bank: &RegBank,
    classes: &Classes,
    instrs: &Instrs,
) -> Result<Vec<ThreeAddressForm>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut out: Vec<ThreeAddressForm> = Vec::new();
    for d in f.rk.derived_defs("ThreeAddressForm") {
        match one(f, bank, classes, instrs, d) {
            Ok(form) => out.push(form),
            Err(msg) => diags.push(Diagnostic::error(Kind::Semantic, f.loc(d), msg)),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    out.sort_by_key(|x| x.two_address);
    Ok(out)
}

/// Checks one def.
fn one(
    f: &Fields<'_>,
    bank: &RegBank,
    classes: &Classes,
    instrs: &Instrs,
    d: RecId,
) -> Result<ThreeAddressForm, String> {
    let Some(Init::Def(x)) = f.value(d, "TwoAddress") else {
        return Err(format!(
            "'{}' needs TwoAddress to be an instruction",
            f.name(d)
        ));
    };
    let Some(two_address) = instrs.opcode_of(*x) else {
        return Err(format!(
            "TwoAddress: '{}' is not an instruction",
            f.name(*x)
        ));
    };
    let two = &instrs.list[two_address];
    if two.flags & flags::CONVERTIBLE_TO_3ADDR == 0 {
        return Err(format!(
            "TwoAddress: '{}' is not isConvertibleToThreeAddress",
            two.name
        ));
    }
    if two.num_defs != 1 || !two.operands.iter().any(|o| o.tied_to == Some(0)) {
        return Err(format!(
            "TwoAddress: '{}' must have one definition, tied to a use",
            two.name
        ));
    }
    let Some(Init::Dag(g)) = f.value(d, "ThreeAddress") else {
        return Err(format!("'{}' needs ThreeAddress to be a dag", two.name));
    };
    let three_address = match &g.op {
        Init::Def(x) => instrs.opcode_of(*x),
        _ => None,
    }
    .ok_or_else(|| {
        format!(
            "ThreeAddress of '{}': the operator must be an instruction",
            two.name
        )
    })?;
    let three = &instrs.list[three_address];
    let what = format!("three-address form of '{}' as '{}'", two.name, three.name);
    if g.args.len() != three.operands.len() {
        return Err(format!(
            "{what}: '{}' has {} machine operands, the dag gives {}",
            three.name,
            three.operands.len(),
            g.args.len()
        ));
    }
    if three.num_defs != 1 {
        return Err(format!("{what}: '{}' must have one definition", three.name));
    }
    let mut operands = Vec::new();
    for (k, (a, _)) in g.args.iter().enumerate() {
        let p = piece(f, bank, classes, a).map_err(|e| format!("{what}: operand {k}: {e}"))?;
        check(two, three, k, p).map_err(|e| format!("{what}: operand {k}: {e}"))?;
        operands.push(p);
    }
    let immediate = match f.opt_int(d, "ImmediateOperand") {
        Some(k) if k >= 0 => {
            let k = usize::try_from(k).unwrap_or(usize::MAX);
            if two.operands.get(k).map(|o| o.kind) != Some(OperandKind::Immediate) {
                return Err(format!(
                    "{what}: ImmediateOperand {k} is not an immediate operand of '{}'",
                    two.name
                ));
            }
            Some((k, f.opt_int(d, "ImmediateValue").unwrap_or(0)))
        }
        _ => None,
    };
    let written = f
        .list_ints(d, "NewRegisterOrder")
        .map_err(|e| format!("{what}: {}", e.message))?;
    let new_register_order = if written.is_empty() {
        let mut order: Vec<usize> = (0..operands.len())
            .filter(|&k| operands[k].is_new_register() && !matches!(operands[k], Piece::Result(..)))
            .collect();
        order.extend((0..operands.len()).filter(|&k| matches!(operands[k], Piece::Result(..))));
        order
    } else {
        let order: Vec<usize> = written
            .iter()
            .map(|&k| usize::try_from(k).unwrap_or(usize::MAX))
            .collect();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        let want: Vec<usize> = (0..operands.len())
            .filter(|&k| operands[k].is_new_register())
            .collect();
        if sorted != want {
            return Err(format!(
                "{what}: NewRegisterOrder must list the positions of the new registers ({want:?}) once each"
            ));
        }
        order
    };
    Ok(ThreeAddressForm {
        two_address,
        three_address,
        operands,
        immediate,
        new_register_order,
        loc: f.loc(d),
    })
}

/// One dag argument as a [`Piece`].
fn piece(f: &Fields<'_>, bank: &RegBank, classes: &Classes, a: &Init) -> Result<Piece, String> {
    let class_of = |i: &Init| match i {
        Init::Def(x) => classes.list.iter().position(|c| c.def == Some(*x)),
        _ => None,
    };
    let index_of = |i: &Init| match i {
        Init::Def(x) => bank.index_of(*x),
        _ => None,
    };
    let int = |i: &Init| match i {
        Init::Int(v) => usize::try_from(*v).ok(),
        _ => None,
    };
    match a {
        Init::Int(v) => Ok(Piece::Imm(*v)),
        Init::Bit(b) => Ok(Piece::Imm(i64::from(*b))),
        Init::Def(x) => match f.name(*x).as_str() {
            "TplDef" => Ok(Piece::Def),
            "TplNoReg" => Ok(Piece::NoReg),
            n => bank
                .reg_of_def
                .get(x)
                .map(|&r| Piece::Fixed(r))
                .ok_or_else(|| format!("'{n}' is not TplDef, TplNoReg, an integer or a register")),
        },
        Init::Dag(g) => {
            let op = match &g.op {
                Init::Def(x) => f.name(*x),
                _ => String::new(),
            };
            let args: Vec<&Init> = g.args.iter().map(|(a, _)| a).collect();
            let bad = || {
                format!(
                    "'({op} ...)' must be (TplOperand k), (TplOperand k, RC), (TplNegated k, bits), \
                     (TplWiden k, RC, idx), (TplInsert k, RC, idx) or (TplResult RC, idx)"
                )
            };
            match (op.as_str(), args.as_slice()) {
                ("TplOperand", [k]) => int(k).map(Piece::Operand).ok_or_else(bad),
                ("TplOperand", [k, c]) => match (int(k), class_of(c)) {
                    (Some(k), Some(c)) => Ok(Piece::Constrained(k, c)),
                    _ => Err(bad()),
                },
                ("TplNegated", [k, b]) => match (int(k), int(b).and_then(|b| u8::try_from(b).ok()))
                {
                    (Some(k), Some(b)) if (1..=64).contains(&b) => Ok(Piece::Negated(k, b)),
                    _ => Err(bad()),
                },
                ("TplWiden" | "TplInsert", [k, c, i]) => match (int(k), class_of(c), index_of(i)) {
                    (Some(k), Some(c), Some(i)) if op == "TplWiden" => Ok(Piece::Widen(k, c, i)),
                    (Some(k), Some(c), Some(i)) => Ok(Piece::Insert(k, c, i)),
                    _ => Err(bad()),
                },
                ("TplResult", [c, i]) => match (class_of(c), index_of(i)) {
                    (Some(c), Some(i)) => Ok(Piece::Result(c, i)),
                    _ => Err(bad()),
                },
                _ => Err(bad()),
            }
        }
        _ => Err("operands must be placeholders, integers or registers".to_string()),
    }
}

/// Checks that `p` fits operand `k` of `three`, and that the operand of
/// `two` it names is of a kind that can go there.
fn check(
    two: &super::instrs::Instr,
    three: &super::instrs::Instr,
    k: usize,
    p: Piece,
) -> Result<(), String> {
    let slot = &three.operands[k];
    let is_def_piece = matches!(p, Piece::Def | Piece::Result(..));
    if slot.is_def != is_def_piece {
        return Err(if slot.is_def {
            "the definition must be TplDef or (TplResult RC, idx)".to_string()
        } else {
            "TplDef and TplResult go only in the definition".to_string()
        });
    }
    let named = match p {
        Piece::Operand(j)
        | Piece::Constrained(j, _)
        | Piece::Negated(j, _)
        | Piece::Widen(j, ..)
        | Piece::Insert(j, ..) => Some(j),
        _ => None,
    };
    if let Some(j) = named {
        let Some(o) = two.operands.get(j) else {
            return Err(format!("'{}' has no operand {j}", two.name));
        };
        if o.is_def {
            return Err(format!(
                "operand {j} of '{}' is its definition (use TplDef)",
                two.name
            ));
        }
        let want = match p {
            Piece::Operand(_) => slot.kind,
            Piece::Negated(..) => OperandKind::Immediate,
            _ => OperandKind::Register,
        };
        if o.kind != want {
            return Err(format!(
                "operand {j} of '{}' is not of the kind this operand takes",
                two.name
            ));
        }
    }
    let register_slot = slot.kind == OperandKind::Register;
    let fits = match p {
        Piece::Imm(_) | Piece::Negated(..) => slot.kind == OperandKind::Immediate,
        Piece::NoReg
        | Piece::Fixed(_)
        | Piece::Constrained(..)
        | Piece::Widen(..)
        | Piece::Insert(..) => register_slot,
        Piece::Def | Piece::Result(..) | Piece::Operand(_) => true,
    };
    if !fits {
        return Err(format!(
            "'{}' takes {} here",
            three.name,
            if register_slot {
                "a register"
            } else {
                "no register"
            }
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Piece;

    const HEAD: &str = r#"
include "regalloc.td"
def lo : SubRegIndex<16>;
def R0 : Register<"r0">; def R1 : Register<"r1">;
let SubRegIndices = [lo] in {
  def W0 : Register<"w0"> { let SubRegs = [R0]; }
}
def GPR : RegisterClass<"T", [i16], 16, (add R0, R1)>;
def WIDE : RegisterClass<"T", [i32], 32, (add W0)>;
def imm : Operand<i32>;
def addr : Operand<i32> { let MIOperandInfo = (ops WIDE, imm); }
class I<dag o, dag i> : Instruction { let OutOperandList = o; let InOperandList = i; }
let Constraints = "$d = $a", isConvertibleToThreeAddress = true in {
  def ADDI : I<(outs GPR:$d), (ins GPR:$a, imm:$i)>;
  def SHLI : I<(outs GPR:$d), (ins GPR:$a, imm:$i)>;
}
let Constraints = "$d = $a" in def SUBI : I<(outs GPR:$d), (ins GPR:$a, imm:$i)>;
def LEA : I<(outs GPR:$d), (ins addr:$m)>;
def LEAW : I<(outs WIDE:$d), (ins addr:$m)>;
"#;

    crate::target::test_machine!(HEAD);

    use crate::target::opcode_of as opcode;

    #[test]
    fn forms_are_read_with_their_pieces_conditions_and_order() {
        let m = model(
            r#"
def : ThreeAddressForm<ADDI, (LEA TplDef, (TplWiden 1, WIDE, lo), (TplOperand 2))>;
def : ThreeAddressForm<SHLI, (LEAW (TplResult WIDE, lo), (TplInsert 1, WIDE, lo), 4)> {
  let ImmediateOperand = 2; let ImmediateValue = 2;
}
"#,
        )
        .unwrap();
        let wide = m
            .classes
            .list
            .iter()
            .position(|c| c.name == "WIDE")
            .unwrap();
        let add = &m.three_address_forms[0];
        assert_eq!(add.two_address, opcode(&m, "ADDI"));
        assert_eq!(add.three_address, opcode(&m, "LEA"));
        assert_eq!(
            add.operands,
            vec![Piece::Def, Piece::Widen(1, wide, 0), Piece::Operand(2)]
        );
        assert_eq!(add.immediate, None);
        assert_eq!(add.new_register_order, vec![1]);
        let shl = &m.three_address_forms[1];
        assert_eq!(shl.immediate, Some((2, 2)));
        // The result's register is made after the inputs'.
        assert_eq!(shl.new_register_order, vec![1, 0]);
    }

    #[test]
    fn wrong_forms_are_errors_at_the_def() {
        let cases = [
            (
                "def : ThreeAddressForm<SUBI, (LEA TplDef, TplNoReg, 0)>;",
                "TwoAddress: 'SUBI' is not isConvertibleToThreeAddress",
            ),
            (
                "def : ThreeAddressForm<ADDI, (LEA TplDef, TplNoReg)>;",
                "three-address form of 'ADDI' as 'LEA': 'LEA' has 3 machine operands, the dag gives 2",
            ),
            (
                "def : ThreeAddressForm<ADDI, (LEA (TplOperand 1), TplNoReg, 0)>;",
                "three-address form of 'ADDI' as 'LEA': operand 0: the definition must be TplDef or (TplResult RC, idx)",
            ),
            (
                "def : ThreeAddressForm<ADDI, (LEA TplDef, (TplOperand 2), 0)>;",
                "three-address form of 'ADDI' as 'LEA': operand 1: operand 2 of 'ADDI' is not of the kind this operand takes",
            ),
            (
                "def : ThreeAddressForm<ADDI, (LEA TplDef, (TplOperand 1), (TplOperand 7))>;",
                "three-address form of 'ADDI' as 'LEA': operand 2: 'ADDI' has no operand 7",
            ),
            (
                "def : ThreeAddressForm<ADDI, (LEA TplDef, (TplOperand 1), 0)> { let NewRegisterOrder = [1]; }",
                "three-address form of 'ADDI' as 'LEA': NewRegisterOrder must list the positions of the new registers ([]) once each",
            ),
        ];
        for (body, want) in cases {
            let e = err(body);
            assert!(e.contains(&format!("error: {want}")), "{body}:\n{e}");
            assert!(e.contains("t.td:"), "{e}");
        }
    }
}
