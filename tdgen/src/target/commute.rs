//! Commuting facts: `CommuteRule` defs (our prelude extension) -> for a commutable instruction, whether swapping its two uses is all commuting does, and which condition code the swap reverses.
//!
//! LLVM's two-address pass commutes an instruction (`isCommutable`) to
//! save a copy. Which operands swap and what else changes is target code
//! (`findCommutedOpIndices`, `commuteInstructionImpl`): most instructions
//! swap their first two uses; x86's conditional moves also reverse their
//! condition, and some instructions become others (`MOVSD` a `SHUFPD`,
//! `SHLD` an `SHRD`). The description says so here, checked: the
//! instruction is commutable, described once, and a condition operand is
//! one of its operands.

use super::access::Fields;
use super::instrs::{Instrs, flags};
use crate::diag::{Diagnostic, Kind};
use crate::records::{Init, RecId};

/// What commuting one instruction does besides swapping its two uses.
#[derive(Clone, Debug, PartialEq)]
pub struct CommuteRule {
    /// The instruction (an index into [`Instrs::list`]).
    pub instr: usize,
    /// False when swapping alone is not commuting it: it is not commuted.
    pub commutes: bool,
    /// The operand holding a condition code and the value XORed into it
    /// by the swap.
    pub condition: Option<(usize, i64)>,
}

/// Reads and checks the `CommuteRule` defs, in opcode order.
pub fn read(f: &Fields<'_>, instrs: &Instrs) -> Result<Vec<CommuteRule>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut out: Vec<CommuteRule> = Vec::new();
    let mut seen: Vec<(usize, RecId)> = Vec::new();
    for d in f.rk.derived_defs("CommuteRule") {
        let err = |msg: String| Diagnostic::error(Kind::Semantic, f.loc(d), msg);
        match rule(f, instrs, d) {
            Ok(r) => {
                if let Some(&(_, prev)) = seen.iter().find(|(i, _)| *i == r.instr) {
                    diags.push(
                        err(format!(
                            "commuting '{}' is described twice",
                            instrs.list[r.instr].name
                        ))
                        .with_secondary(f.loc(prev), "first described here"),
                    );
                    continue;
                }
                seen.push((r.instr, d));
                out.push(r);
            }
            Err(msg) => diags.push(err(msg)),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    out.sort_by_key(|r| r.instr);
    Ok(out)
}

/// Checks one `CommuteRule` def.
fn rule(f: &Fields<'_>, instrs: &Instrs, d: RecId) -> Result<CommuteRule, String> {
    let Some(Init::Def(x)) = f.value(d, "Instr") else {
        return Err(format!("'{}' needs Instr to be an instruction", f.name(d)));
    };
    let Some(k) = instrs.opcode_of(*x) else {
        return Err(format!("Instr: '{}' is not an instruction", f.name(*x)));
    };
    let i = &instrs.list[k];
    if i.flags & flags::COMMUTABLE == 0 {
        return Err(format!("Instr: '{}' is not isCommutable", i.name));
    }
    let operand = f.string(d, "ConditionOperand");
    let condition = if operand.is_empty() {
        None
    } else {
        let Some(at) = i.operands.iter().position(|o| o.name == operand) else {
            return Err(format!(
                "ConditionOperand: '{}' has no operand '${operand}'",
                i.name
            ));
        };
        Some((at, f.opt_int(d, "ConditionXor").unwrap_or(0)))
    };
    Ok(CommuteRule {
        instr: k,
        commutes: f.bit(d, "Commutes"),
        condition,
    })
}

#[cfg(test)]
mod tests {

    const HEAD: &str = r#"
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
class I<dag o, dag i> : Instruction { let OutOperandList = o; let InOperandList = i; }
let Constraints = "$d = $a" in {
  let isCommutable = true in {
    def ADD : I<(outs GPR:$d), (ins GPR:$a, GPR:$b)>;
    def SEL : I<(outs GPR:$d), (ins GPR:$a, GPR:$b, imm:$cc)>;
    def MOVLO : I<(outs GPR:$d), (ins GPR:$a, GPR:$b)>;
  }
  def SUB : I<(outs GPR:$d), (ins GPR:$a, GPR:$b)>;
}
"#;

    crate::target::test_machine!(HEAD);

    use crate::target::opcode_of as opcode;

    #[test]
    fn conditions_and_instructions_that_do_not_commute_by_swapping() {
        let m = model(
            r#"
def : CommuteRule<SEL> { let ConditionOperand = "cc"; let ConditionXor = 1; }
def : CommuteRule<MOVLO> { let Commutes = false; }
"#,
        )
        .unwrap();
        // Per rule: its instruction, whether it commutes, and its
        // condition operand with the value it is xor-ed with.
        type Row = (usize, bool, Option<(usize, i64)>);
        let rows: Vec<Row> = m
            .commute_rules
            .iter()
            .map(|r| (r.instr, r.commutes, r.condition))
            .collect();
        let mut want = vec![
            (opcode(&m, "SEL"), true, Some((3, 1))),
            (opcode(&m, "MOVLO"), false, None),
        ];
        want.sort_by_key(|w| w.0);
        assert_eq!(rows, want);
        assert!(model("").unwrap().commute_rules.is_empty());
    }

    #[test]
    fn wrong_commuting_facts_are_errors_at_the_def() {
        let cases = [
            (
                "def : CommuteRule<SUB>;",
                "Instr: 'SUB' is not isCommutable",
            ),
            (
                "def : CommuteRule<ADD> { let ConditionOperand = \"cc\"; }",
                "ConditionOperand: 'ADD' has no operand '$cc'",
            ),
            (
                "def : CommuteRule<ADD>; def : CommuteRule<ADD>;",
                "commuting 'ADD' is described twice",
            ),
        ];
        for (body, want) in cases {
            let e = err(body);
            assert!(e.contains(&format!("error: {want}")), "{body}:\n{e}");
            assert!(e.contains("t.td:"), "{e}");
        }
    }
}
