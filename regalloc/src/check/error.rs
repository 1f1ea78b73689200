//! `CheckError`: one place where allocated code does not compute what the original did, with where and what was expected.

use std::fmt;

use crate::ir::{Block, Inst, SourceLocation};

/// What kind of mistake the checker found.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum CheckErrorKind {
    /// A use reads a register unit or stack slot that does not hold the
    /// value the original instruction read there.
    WrongValue,
    /// A definition tied to a use did not get the use's register.
    TiedMismatch,
    /// An early-clobber definition shares a register unit with a use of the
    /// same instruction.
    EarlyClobberOverlap,
    /// A physical register of the original (argument, return, flags...) was
    /// replaced by another one.
    FixedRegisterChanged,
    /// The assigned register is one the instruction does not accept for
    /// the virtual register (its class, or a larger class of the same size
    /// narrowed by the instruction's operand, since split pieces may be
    /// inflated), or is reserved.
    WrongClass,
    /// A virtual register is left in the allocated code.
    VirtualRegisterLeft,
    /// An original instruction's opcode or a non-register operand changed.
    InstructionChanged,
    /// Blocks, edges or the order of original instructions differ, an
    /// original instruction is missing, or an inserted one has no edit.
    Structure,
    /// An inserted instruction does not do what its edit says, or uses a
    /// stack slot that is not a new spill slot.
    BadEdit,
    /// A rematerialization copies an instruction that is not
    /// rematerializable, or whose value is not the one that reaches.
    BadRemat,
    /// An instruction with an effect was removed.
    BadRemoval,
}

impl CheckErrorKind {
    /// A short name for messages (`wrong value`, `tied mismatch`...).
    pub fn name(self) -> &'static str {
        match self {
            CheckErrorKind::WrongValue => "wrong value",
            CheckErrorKind::TiedMismatch => "tied mismatch",
            CheckErrorKind::EarlyClobberOverlap => "early-clobber overlap",
            CheckErrorKind::FixedRegisterChanged => "fixed register changed",
            CheckErrorKind::WrongClass => "wrong class",
            CheckErrorKind::VirtualRegisterLeft => "virtual register left",
            CheckErrorKind::InstructionChanged => "instruction changed",
            CheckErrorKind::Structure => "structure",
            CheckErrorKind::BadEdit => "bad edit",
            CheckErrorKind::BadRemat => "bad rematerialization",
            CheckErrorKind::BadRemoval => "bad removal",
        }
    }
}

/// One error the checker found: where (block, instruction and its position
/// in the allocated block, operand) and what was expected against what was
/// found, both as text naming registers and values.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CheckError {
    /// What kind of mistake.
    pub kind: CheckErrorKind,
    /// The function.
    pub function: String,
    /// The block, when the error is in one.
    pub block: Option<Block>,
    /// The instruction (its id), when the error is at one.
    pub inst: Option<Inst>,
    /// The instruction's position in the allocated block (for a removed
    /// instruction, the position of the instruction it stood before).
    pub position: Option<usize>,
    /// The operand index, when the error is about one operand.
    pub operand: Option<usize>,
    /// The operand as printed (`$r2`), when there is one.
    pub operand_text: Option<String>,
    /// The instruction as MIR text in the allocated function, when it can
    /// be printed.
    pub inst_text: Option<String>,
    /// What the original program requires here.
    pub expected: String,
    /// What the allocated program has.
    pub found: String,
    /// Where the instruction stands in the `.mir` file the function was
    /// read from (for an inserted instruction, the read one it stands
    /// before), when it was read from one.
    pub source: Option<SourceLocation>,
}

impl CheckError {
    /// An error of `kind` in `function` at no particular place yet.
    pub fn new(
        kind: CheckErrorKind,
        function: &str,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> CheckError {
        CheckError {
            kind,
            function: function.to_string(),
            block: None,
            inst: None,
            position: None,
            operand: None,
            operand_text: None,
            inst_text: None,
            expected: expected.into(),
            found: found.into(),
            source: None,
        }
    }

    /// The sort key: block, position, then operand (errors at no place
    /// first).
    pub(crate) fn sort_key(&self) -> (Option<Block>, Option<usize>, Option<Inst>, Option<usize>) {
        (self.block, self.position, self.inst, self.operand)
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.source {
            write!(f, "{at}: error: ")?;
        }
        write!(f, "{} in {}", self.kind.name(), self.function)?;
        if let Some(b) = self.block {
            write!(f, ", bb.{}", b.index())?;
        }
        if let Some(i) = self.inst {
            write!(f, ", instruction {}", i.index())?;
            if let Some(p) = self.position {
                write!(f, " (position {p})")?;
            }
        }
        if let Some(t) = &self.inst_text {
            write!(f, " `{t}`")?;
        }
        if let Some(k) = self.operand {
            write!(f, ", operand {k}")?;
            if let Some(t) = &self.operand_text {
                write!(f, " ({t})")?;
            }
        }
        write!(f, ": expected {}, found {}", self.expected, self.found)
    }
}

impl std::error::Error for CheckError {}
