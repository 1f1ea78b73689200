//! Reading and writing LLVM's textual machine IR (.mir).
//!
//! A `.mir` file is a YAML stream: an optional first document holding the
//! LLVM IR module (`--- |`), then one document per machine function. The
//! reader keeps the IR module and every function key the IR does not model
//! verbatim, so that [`write()`] produces a file `llc` accepts again. Function
//! bodies are parsed with a pest grammar (`body.pest`). Both the plain and
//! the `-simplify-mir` forms are read; the plain form is written.
//!
//! What the allocators may ask about is typed here and nowhere later:
//! `frameInfo` ([`crate::ir::FrameInfo`], `frame_info.rs`), memory
//! operands ([`crate::ir::MemOperand`], `mem_operand.rs`), the attributes
//! after an instruction's operands ([`crate::ir::InstAttrs`],
//! `inst_attrs.rs`) and stack object types; the writer prints them as
//! LLVM 19 prints them.
//!
//! Each instruction of an opcode the description has is held to its
//! description as LLVM's MIR parser and machine verifier hold it
//! (`verify.rs`): implicit registers present, explicit operands counted
//! and placed, virtual register classes what the operands take.
//!
//! A file's functions are independent: an error in one is reported with its
//! name and location, and the others are still read.
//!
//! [`read_bytes`] first refuses a file as a whole when it is not UTF-8,
//! not MIR, or MIR for another target (`source.rs`). Virtual registers are
//! numbered densely in the order of their written numbers (`vregs.rs`);
//! the writer prints the written numbers back.

mod body;
mod error;
mod frame_info;
mod inst_attrs;
mod inst_text;
mod ir_attrs;
mod jump_tables;
mod mem_operand;
mod read;
mod source;
mod verify;
mod vregs;
pub(crate) mod write;
mod yaml;

#[cfg(test)]
mod tests;

pub use error::MirError;
pub use inst_text::inst_text;
pub use read::read;
pub use source::read_bytes;
pub use write::{write, write_function};

use crate::ir::MachineFunction;

/// A whole `.mir` file.
#[derive(Clone, PartialEq, Debug)]
pub struct MirFile {
    /// Everything before the first function document (the IR module
    /// document, comments), verbatim.
    pub header: String,
    /// The function documents, in file order.
    pub functions: Vec<FunctionDoc>,
}

/// One function document: read, or kept as text because it could not be.
#[derive(Clone, PartialEq, Debug)]
pub enum FunctionDoc {
    /// The function, read.
    Read(MachineFunction),
    /// A function the reader rejected; written back unchanged.
    Failed {
        /// Its name, when it could be found.
        name: Option<String>,
        /// The document's source text.
        text: String,
        /// Why it was rejected.
        error: MirError,
    },
}

impl MirFile {
    /// The functions that were read.
    pub fn read_functions(&self) -> impl Iterator<Item = &MachineFunction> {
        self.functions.iter().filter_map(|f| match f {
            FunctionDoc::Read(m) => Some(m),
            FunctionDoc::Failed { .. } => None,
        })
    }

    /// The errors of the functions that were not read.
    pub fn errors(&self) -> impl Iterator<Item = &MirError> {
        self.functions.iter().filter_map(|f| match f {
            FunctionDoc::Failed { error, .. } => Some(error),
            FunctionDoc::Read(_) => None,
        })
    }
}
