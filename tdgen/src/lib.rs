//! `tdgen`: a TableGen-compatible target-description compiler.
//!
//! The pipeline, one module per stage: [`syntax`] (preprocessor, pest grammar,
//! typed syntax tree), [`records`] (TableGen evaluation into classes and defs,
//! exactly as llvm-tblgen evaluates them), [`target`] (register semantics) and
//! [`emit`] (Rust tables). [`Loader`] runs the front end on a file:
//!
//! ```
//! let mut loader = tdgen::Loader::new();
//! let rk = loader.records_from_str("x.td", "class A<int v> { int V = v; } def X : A<3>;").unwrap();
//! let json = tdgen::records::to_json(&rk);
//! assert_eq!(json["X"]["V"], 3);
//! ```
#![deny(missing_docs)]

pub mod alloc;
pub mod diag;
pub mod emit;
mod loader;
pub mod records;
pub mod syntax;
pub mod target;

pub use diag::{Diagnostic, FileId, Kind, Severity, SourceMap, Span};
pub use emit::Builder;
pub use loader::Loader;
pub use records::RecordKeeper;
