//! `MirError`: a reader error with file, line, column and the function it occurred in.

use std::fmt;

/// An error found while reading a `.mir` file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MirError {
    /// The file name given to the reader.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// The function being read, when the error is inside one.
    pub function: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for MirError {
    /// `file:line:col: error: in function 'f': message`, the form
    /// compilers use, so editors can jump to it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: ", self.file, self.line, self.col)?;
        if let Some(func) = &self.function {
            write!(f, "in function '{func}': ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for MirError {}

/// An error at a position inside a piece of text (a body, a YAML
/// document), before it is placed in the file.
#[derive(Clone, Debug)]
pub(crate) struct Located {
    /// 1-based line in the piece.
    pub line: usize,
    /// 1-based column in the piece.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}
