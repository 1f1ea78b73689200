//! `AllocError`: why a function could not be allocated, with where.

use std::fmt;

use crate::ir::{Block, Inst, MachineFunction, SourceLocation};

/// What went wrong.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AllocErrorKind {
    /// One instruction asks for more registers of a class, or for fixed
    /// registers in more ways, than the target has.
    OverConstrained,
    /// No register and no spill could satisfy a live range (for example a
    /// class with no allocatable register, or a value live across a point
    /// where every register of its class is fixed).
    OutOfRegisters,
    /// The input uses something this allocator does not handle.
    Unsupported,
    /// The input is not a valid function to allocate (a virtual register
    /// read before any definition of it).
    InvalidInput,
    /// The allocation was made but the checker rejected it (a bug in the
    /// allocator).
    CheckFailed,
}

impl AllocErrorKind {
    /// A short name (`over-constrained`, ...).
    pub fn name(self) -> &'static str {
        match self {
            AllocErrorKind::OverConstrained => "over-constrained",
            AllocErrorKind::OutOfRegisters => "out of registers",
            AllocErrorKind::Unsupported => "unsupported",
            AllocErrorKind::InvalidInput => "invalid input",
            AllocErrorKind::CheckFailed => "check failed",
        }
    }
}

/// Why a function could not be allocated.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AllocError {
    /// What went wrong.
    pub kind: AllocErrorKind,
    /// The function.
    pub function: String,
    /// The block, when the error is at one place.
    pub block: Option<Block>,
    /// The instruction, when the error is at one place.
    pub inst: Option<Inst>,
    /// What happened, for a person (names registers, classes, operands).
    pub message: String,
    /// Where the instruction stands in the `.mir` file the function was
    /// read from, when it is at one that was read.
    pub source: Option<SourceLocation>,
}

impl AllocError {
    /// An error in `function` at no particular place.
    pub fn new(kind: AllocErrorKind, function: &str, message: impl Into<String>) -> AllocError {
        AllocError {
            kind,
            function: function.to_string(),
            block: None,
            inst: None,
            message: message.into(),
            source: None,
        }
    }

    /// The same error, placed at instruction `inst` of block `block`.
    pub fn at(mut self, block: Block, inst: Inst) -> AllocError {
        self.block = Some(block);
        self.inst = Some(inst);
        self
    }

    /// The same error with the source location of its instruction in
    /// `f`, when `f` was read from a file.
    pub fn located_in(mut self, f: &MachineFunction) -> AllocError {
        if self.source.is_none() {
            self.source = self.inst.and_then(|i| f.source.location(i));
        }
        self
    }
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.source {
            write!(f, "{at}: error: ")?;
        }
        write!(f, "{}: {}", self.kind.name(), self.function)?;
        if let Some(b) = self.block {
            write!(f, ", bb.{}", b.index())?;
        }
        if let Some(i) = self.inst {
            write!(f, ", instruction {}", i.index())?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for AllocError {}
