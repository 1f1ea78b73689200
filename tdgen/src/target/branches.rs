//! Branch facts: `UnconditionalBranch` and `ConditionalBranch` defs (our prelude extension) -> the checked branch a new block jumps with and how each conditional branch is reversed.
//!
//! LLVM's targets read and rewrite branches in C++ (`analyzeBranch`,
//! `insertBranch`, `reverseBranchCondition`); the allocator's PHI
//! elimination needs them to split a critical edge. Everything it relies
//! on is checked here: the unconditional branch is a direct branch that
//! ends control flow (`isBranch`, `isBarrier`, not `isIndirectBranch`),
//! each conditional branch and its inverse are direct branches that fall
//! through (`isBranch`, neither `isBarrier` nor `isIndirectBranch`), each
//! is described once, and a condition operand names an operand of both.

use super::access::Fields;
use super::instrs::{Instrs, flags};
use crate::diag::{Diagnostic, Kind};
use crate::records::{Init, RecId};

/// How a conditional branch is reversed.
#[derive(Clone, Debug, PartialEq)]
pub struct Reversal {
    /// The opposite branch (an index into [`Instrs::list`]).
    pub inverse: usize,
    /// The machine operand holding the condition code and the value XORed
    /// into it, when the inverse changes that operand.
    pub condition: Option<(usize, i64)>,
}

/// One conditional branch the branch analysis understands.
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionalBranch {
    /// The branch (an index into [`Instrs::list`]).
    pub branch: usize,
    /// Its reversal; `None` when it cannot be reversed.
    pub reverse: Option<Reversal>,
}

/// The checked branch facts of a target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Branches {
    /// The direct unconditional branch, if the description names one.
    pub unconditional: Option<usize>,
    /// Conditional branches, in opcode order.
    pub conditional: Vec<ConditionalBranch>,
    /// Indirect branches through a jump table whose edges are split by
    /// rewriting the table, in opcode order.
    pub jump_table: Vec<usize>,
}

/// Reads and checks the `UnconditionalBranch` and `ConditionalBranch` defs.
pub fn read(f: &Fields<'_>, instrs: &Instrs) -> Result<Branches, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut out = Branches::default();
    let mut first_unconditional: Option<RecId> = None;
    for d in f.rk.derived_defs("UnconditionalBranch") {
        let err = |msg: String| Diagnostic::error(Kind::Semantic, f.loc(d), msg);
        if let Some(prev) = first_unconditional {
            diags.push(
                err("a target names one unconditional branch".into())
                    .with_secondary(f.loc(prev), "first named here"),
            );
            continue;
        }
        first_unconditional = Some(d);
        match branch(f, instrs, d, "Branch", true) {
            Ok(b) => out.unconditional = Some(b),
            Err(msg) => diags.push(err(msg)),
        }
    }
    let mut seen: Vec<(usize, RecId)> = Vec::new();
    for d in f.rk.derived_defs("ConditionalBranch") {
        let err = |msg: String| Diagnostic::error(Kind::Semantic, f.loc(d), msg);
        match conditional(f, instrs, d) {
            Ok(c) => {
                if let Some(&(_, prev)) = seen.iter().find(|(b, _)| *b == c.branch) {
                    diags.push(
                        err(format!(
                            "conditional branch '{}' is described twice",
                            instrs.list[c.branch].name
                        ))
                        .with_secondary(f.loc(prev), "first described here"),
                    );
                    continue;
                }
                seen.push((c.branch, d));
                out.conditional.push(c);
            }
            Err(msg) => diags.push(err(msg)),
        }
    }
    for d in f.rk.derived_defs("JumpTableBranch") {
        let err = |msg: String| Diagnostic::error(Kind::Semantic, f.loc(d), msg);
        match jump_table_branch(f, instrs, d) {
            Ok(b) if out.jump_table.contains(&b) => diags.push(err(format!(
                "jump-table branch '{}' is described twice",
                instrs.list[b].name
            ))),
            Ok(b) => out.jump_table.push(b),
            Err(msg) => diags.push(err(msg)),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    out.conditional.sort_by_key(|c| c.branch);
    out.jump_table.sort_unstable();
    Ok(out)
}

/// The instruction a `JumpTableBranch` def names, checked to be an
/// indirect branch.
fn jump_table_branch(f: &Fields<'_>, instrs: &Instrs, d: RecId) -> Result<usize, String> {
    let Some(Init::Def(x)) = f.value(d, "Branch") else {
        return Err(format!("'{}' needs Branch to be an instruction", f.name(d)));
    };
    let Some(k) = instrs.opcode_of(*x) else {
        return Err(format!("Branch: '{}' is not an instruction", f.name(*x)));
    };
    let i = &instrs.list[k];
    if i.flags & flags::BRANCH == 0 || i.flags & flags::INDIRECT_BRANCH == 0 {
        return Err(format!(
            "Branch: '{}' is not an indirect branch (isBranch and isIndirectBranch)",
            i.name
        ));
    }
    Ok(k)
}

/// The instruction `field` of `d` names, checked to be a direct branch
/// that is (`barrier`) or is not a barrier.
fn branch(
    f: &Fields<'_>,
    instrs: &Instrs,
    d: RecId,
    field: &str,
    barrier: bool,
) -> Result<usize, String> {
    let Some(Init::Def(x)) = f.value(d, field) else {
        return Err(format!(
            "'{}' needs {field} to be an instruction",
            f.name(d)
        ));
    };
    let Some(k) = instrs.opcode_of(*x) else {
        return Err(format!("{field}: '{}' is not an instruction", f.name(*x)));
    };
    let i = &instrs.list[k];
    let has = |bit: u32| i.flags & bit != 0;
    let kind = if barrier {
        "an unconditional branch (isBranch and isBarrier, not isIndirectBranch)"
    } else {
        "a conditional branch (isBranch, neither isBarrier nor isIndirectBranch)"
    };
    if !has(flags::BRANCH) || has(flags::INDIRECT_BRANCH) || has(flags::BARRIER) != barrier {
        return Err(format!("{field}: '{}' is not {kind}", i.name));
    }
    Ok(k)
}

/// Checks one `ConditionalBranch` def.
fn conditional(f: &Fields<'_>, instrs: &Instrs, d: RecId) -> Result<ConditionalBranch, String> {
    let b = branch(f, instrs, d, "Branch", false)?;
    if matches!(f.value(d, "Inverse"), None | Some(Init::Unset)) {
        return Ok(ConditionalBranch {
            branch: b,
            reverse: None,
        });
    }
    let inverse = branch(f, instrs, d, "Inverse", false)?;
    let operand = f.string(d, "ConditionOperand");
    let condition = if operand.is_empty() {
        if inverse == b {
            return Err(format!(
                "'{}' is its own inverse: name the ConditionOperand that changes",
                instrs.list[b].name
            ));
        }
        None
    } else {
        let position = |k: usize| {
            instrs.list[k]
                .operands
                .iter()
                .position(|o| o.name == operand)
        };
        let (Some(here), Some(there)) = (position(b), position(inverse)) else {
            return Err(format!(
                "ConditionOperand: '{}' and '{}' must both have an operand '${operand}'",
                instrs.list[b].name, instrs.list[inverse].name
            ));
        };
        if here != there {
            return Err(format!(
                "ConditionOperand: '${operand}' is operand {here} of '{}' but {there} of '{}'",
                instrs.list[b].name, instrs.list[inverse].name
            ));
        }
        Some((here, f.opt_int(d, "ConditionXor").unwrap_or(0)))
    };
    Ok(ConditionalBranch {
        branch: b,
        reverse: Some(Reversal { inverse, condition }),
    })
}

#[cfg(test)]
mod tests {

    /// A machine with a jump, a compare-and-branch pair, a branch on a
    /// condition code, a loop end and an indirect jump.
    const HEAD: &str = r#"
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def target : Operand<OtherVT>;
class I<dag o, dag i> : Instruction { let OutOperandList = o; let InOperandList = i; }
let isBranch = true, isTerminator = true in {
  let isBarrier = true in def JMP : I<(outs), (ins target:$dest)>;
  let isBarrier = true, isIndirectBranch = true in def JMPR : I<(outs), (ins GPR:$r)>;
  def BZ : I<(outs), (ins GPR:$r, target:$dest)>;
  def BNZ : I<(outs), (ins GPR:$r, target:$dest)>;
  def BCC : I<(outs), (ins imm:$cc, target:$dest)>;
  def CCB : I<(outs), (ins target:$dest, imm:$cc)>;
  def LOOPEND : I<(outs), (ins target:$dest)>;
}
def ADD : I<(outs GPR:$d), (ins GPR:$a, GPR:$b)>;
"#;

    crate::target::test_machine!(HEAD);

    use crate::target::opcode_of as opcode;

    #[test]
    fn jumps_pairs_condition_codes_and_irreversible_branches() {
        let m = model(
            r#"
def : UnconditionalBranch<JMP>;
def : ConditionalBranch<BZ> { let Inverse = BNZ; }
def : ConditionalBranch<BNZ> { let Inverse = BZ; }
def : ConditionalBranch<BCC> { let Inverse = BCC; let ConditionOperand = "cc"; let ConditionXor = 1; }
def : ConditionalBranch<LOOPEND>;
def : JumpTableBranch<JMPR>;
"#,
        )
        .unwrap();
        let b = &m.branches;
        assert_eq!(b.unconditional, Some(opcode(&m, "JMP")));
        assert_eq!(b.jump_table, vec![opcode(&m, "JMPR")]);
        // Per conditional branch: its opcode, and its inverse's opcode
        // with the condition operand and the value it is xor-ed with.
        type Row = (usize, Option<(usize, Option<(usize, i64)>)>);
        let rows: Vec<Row> = b
            .conditional
            .iter()
            .map(|c| {
                (
                    c.branch,
                    c.reverse.as_ref().map(|r| (r.inverse, r.condition)),
                )
            })
            .collect();
        let (bz, bnz, bcc, end) = (
            opcode(&m, "BZ"),
            opcode(&m, "BNZ"),
            opcode(&m, "BCC"),
            opcode(&m, "LOOPEND"),
        );
        let mut want = vec![
            (bz, Some((bnz, None))),
            (bnz, Some((bz, None))),
            (bcc, Some((bcc, Some((0, 1))))),
            (end, None),
        ];
        want.sort_by_key(|w| w.0);
        assert_eq!(rows, want);
    }

    #[test]
    fn a_description_without_branch_facts_has_none() {
        let m = model("").unwrap();
        assert_eq!(m.branches, super::Branches::default());
    }

    #[test]
    fn wrong_branch_facts_are_errors_at_the_def() {
        let cases = [
            (
                "def : UnconditionalBranch<BZ>;",
                "Branch: 'BZ' is not an unconditional branch (isBranch and isBarrier, not isIndirectBranch)",
            ),
            (
                "def : UnconditionalBranch<JMPR>;",
                "Branch: 'JMPR' is not an unconditional branch (isBranch and isBarrier, not isIndirectBranch)",
            ),
            (
                "def : UnconditionalBranch<JMP>; def : UnconditionalBranch<JMP>;",
                "a target names one unconditional branch",
            ),
            (
                "def : ConditionalBranch<ADD>;",
                "Branch: 'ADD' is not a conditional branch (isBranch, neither isBarrier nor isIndirectBranch)",
            ),
            (
                "def : ConditionalBranch<BZ> { let Inverse = JMP; }",
                "Inverse: 'JMP' is not a conditional branch (isBranch, neither isBarrier nor isIndirectBranch)",
            ),
            (
                "def : ConditionalBranch<BCC> { let Inverse = BCC; }",
                "'BCC' is its own inverse: name the ConditionOperand that changes",
            ),
            (
                "def : ConditionalBranch<BZ> { let Inverse = BNZ; let ConditionOperand = \"cc\"; }",
                "ConditionOperand: 'BZ' and 'BNZ' must both have an operand '$cc'",
            ),
            (
                "def : ConditionalBranch<BCC> { let Inverse = CCB; let ConditionOperand = \"cc\"; }",
                "ConditionOperand: '$cc' is operand 0 of 'BCC' but 1 of 'CCB'",
            ),
            (
                "def : ConditionalBranch<BZ>; def : ConditionalBranch<BZ>;",
                "conditional branch 'BZ' is described twice",
            ),
            (
                "def : JumpTableBranch<JMP>;",
                "Branch: 'JMP' is not an indirect branch (isBranch and isIndirectBranch)",
            ),
            (
                "def : JumpTableBranch<JMPR>; def : JumpTableBranch<JMPR>;",
                "jump-table branch 'JMPR' is described twice",
            ),
        ];
        for (body, want) in cases {
            let e = err(body);
            assert!(e.contains(&format!("error: {want}")), "{body}:\n{e}");
            assert!(e.contains("t.td:"), "{e}");
        }
    }
}
