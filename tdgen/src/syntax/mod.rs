//! Syntax: the preprocessor, the grammar (`td.pest`, read by a hand-written recursive-descent parser, with pest as the reference and error reporter) and the typed syntax tree.

pub mod ast;
mod descent;
pub mod parse;
pub(crate) mod pool;
pub mod preprocess;
pub(crate) mod remap;
