//! Syntax: the preprocessor, the pest grammar (`td.pest`) and the typed syntax tree it is turned into.

pub mod ast;
mod descent;
pub mod parse;
pub(crate) mod pool;
pub mod preprocess;
pub(crate) mod remap;
