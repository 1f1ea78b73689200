//! TableGen semantics: evaluating the syntax tree into classes and defs exactly as llvm-tblgen does.

pub mod eval;
pub mod expr;
pub mod fold;
pub mod inherit;
#[cfg(feature = "json")]
pub mod json;
pub mod print;
pub mod record;
pub mod resolve;
pub mod types;
pub mod value;

#[cfg(feature = "json")]
pub use json::to_json;
pub use record::{Record, RecordKeeper, RecordKind, RecordVal};
pub use value::Init;

/// Index of a record (class or def) in a [`RecordKeeper`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecId(pub u32);

impl RecId {
    /// A record being built that has no id yet.
    pub const PENDING: RecId = RecId(u32::MAX);
}

/// Limits that turn runaway input into errors instead of hangs or stack overflows.
pub mod limits {
    /// Deepest expression nesting evaluated.
    pub const MAX_DEPTH: usize = 512;
    /// Longest list a range or loop may produce.
    pub const MAX_LIST: usize = 1 << 20;
    /// Deepest include nesting.
    pub const MAX_INCLUDE_DEPTH: usize = 64;
    /// Deepest value an accumulation may build.
    pub const MAX_VALUE_DEPTH: usize = 1000;
    /// Longest string an operator may build.
    pub const MAX_STRING: usize = 64 << 20;
    /// Deepest chain of anonymous class instantiations (a recursive class).
    pub const MAX_INSTANTIATION_DEPTH: usize = 1000;
    /// Errors collected before giving up.
    pub const MAX_ERRORS: usize = 100;
}
