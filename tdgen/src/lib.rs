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
//! let x = rk.def("X").unwrap();
//! let v = rk.interner.get("V").unwrap();
//! assert!(matches!(rk.get(x).value(v).unwrap().value, tdgen::records::Init::Int(3)));
//! ```
//!
//! Features: `cli` (the default) builds the `tdgen` command and turns on
//! `json` (`records::to_json`, `target::facts::to_json`) and `mimalloc`
//! (`alloc::Allocator`). A library user (a build script, a proc-macro)
//! wants `default-features = false`: the front end, the target model and
//! the emitter need none of clap, serde_json or mimalloc's C build.
#![deny(missing_docs)]

#[cfg(feature = "mimalloc")]
pub mod alloc;
pub mod diag;
pub mod emit;
pub mod fmt;
mod loader;
pub mod records;
mod suggest;
pub mod syntax;
pub mod target;

pub use diag::{Diagnostic, FileId, Kind, Severity, SourceMap, Span};
pub use emit::Builder;
pub use loader::Loader;
pub use records::RecordKeeper;
