//! `CheckError`: one place where allocated code does not compute what the original did.

use std::fmt;

/// One error the checker found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CheckError {
    /// What was expected and found, naming block, instruction and operand.
    pub message: String,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
