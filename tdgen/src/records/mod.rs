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

/// Limits that turn runaway input into errors instead of hangs, stack
/// overflows or exhausted memory.
///
/// Each is an error at the place that exceeds it (the range, the statement,
/// the def being resolved), naming the limit; evaluation stops there. Every
/// limit is far above what real descriptions need: all of LLVM 19's
/// `include/llvm/**/*.td` and the four descriptions in `targets/` (24,000 to
/// 26,000 records each, with Target.td and the intrinsics) evaluate with the
/// largest list at 14,730 elements, the longest string at 416 bytes, values
/// nested 15 deep, under 1/40 of each budget below. llvm-tblgen has none of
/// these: it aborts when memory runs out, or crashes on the stack.
pub mod limits {
    /// Deepest expression nesting evaluated.
    pub const MAX_DEPTH: usize = 512;
    /// Longest list a range, loop or operator may produce (1,048,576).
    pub const MAX_LIST: usize = 1 << 20;
    /// Deepest include nesting.
    pub const MAX_INCLUDE_DEPTH: usize = 64;
    /// Deepest value an accumulation or a chain of `defvar`s may build
    /// (a list of lists of lists ...): printing and dropping such a value
    /// recurses once per level.
    pub const MAX_VALUE_DEPTH: usize = 1000;
    /// Longest string an operator may build (64 MiB).
    pub const MAX_STRING: usize = 64 << 20;
    /// Deepest chain of anonymous class instantiations (a recursive class).
    pub const MAX_INSTANTIATION_DEPTH: usize = 1000;
    /// Records made in one run (4,194,304): defs, anonymous records, and the
    /// copies loops and multiclasses make of their bodies.
    pub const MAX_RECORDS: usize = 1 << 22;
    /// Loop iterations in one run, all loops together (16,777,216): bounds
    /// the time nested loops take even when their bodies make nothing.
    pub const MAX_ITERATIONS: usize = 1 << 24;
    /// Bytes of strings and elements of lists built by operators in one run,
    /// together (1 GiB of string bytes, each list element counted as 16):
    /// bounds the memory of many large values where each alone is allowed.
    pub const MAX_BUILT_BYTES: usize = 1 << 30;
    /// Elements a list built by `!listsplat`, `!listconcat` or `!foreach`
    /// may hold when expanded, each element of an inner list or dag counted
    /// every time it is referred to (16,777,216): a million references to
    /// one list of a million elements is small in memory, and 2^40 elements
    /// to print or walk.
    pub const MAX_EXPANDED_VALUE: usize = 1 << 24;
    /// Superclasses of one record (1,024): each record holds all of its
    /// superclasses, so a chain of classes costs its length squared.
    pub const MAX_SUPERCLASSES: usize = 1 << 10;
    /// Errors returned (the first ones in file order); the rest are counted
    /// ([`crate::Loader::errors_beyond_limit`]).
    pub const MAX_ERRORS: usize = 100;
    /// Diagnostics collected before evaluation stops (a runaway file).
    pub const MAX_DIAGNOSTICS: usize = 100_000;
}
