//! Syntax: the preprocessor, the grammar (`td.pest`, read by a hand-written recursive-descent parser, with pest as the reference and error reporter) and the typed syntax tree.
//!
//! # Two parsers for one grammar, and why
//!
//! `td.pest` is the grammar. [`parse::parse_file`] reads a preprocessed file
//! with `descent`, a recursive-descent transcription of that grammar which
//! builds the typed tree directly and reports no errors: on anything it does
//! not accept it gives up (its interning undone) and the pest parser reads the
//! file instead. So pest decides every file that has an error and words every
//! syntax error, and `descent` decides every file that has none.
//!
//! Issue 27 asked for one parser with full diagnostics, or a fast path that
//! cannot drift from the pest grammar. We keep both, for three reasons.
//!
//! - **Speed.** Parsing the four targets' trees
//!   (`cargo test --release -p tdgen --test descent -- --ignored --nocapture
//!   parse_times`; each tree's files preprocessed, then parsed by each parser,
//!   median of 5, a shared two-core machine at load 5):
//!
//!   | tree | files | KB | descent ms | pest ms | whole front end ms |
//!   |---|---|---|---|---|---|
//!   | `targets/oracle/bpf-top.td` (LLVM's `Target.td` and intrinsics) | 39 | 2,290 | 23 | 224 | 554 |
//!   | the same for aarch64, x86, hexagon | 39 | 2,306-2,310 | 19-28 | 232-255 | 449-487 |
//!   | `targets/{bpf,aarch64,x86,hexagon}/*.td` (what the allocator compiles) | 4-5 | 56-111 | 0.4-1.3 | 7-14 | 8-28 |
//!
//!   Under callgrind (the same test, one run, collecting inside the two entry
//!   points only) all eight trees, 9.6 MB, cost pest 7.01 G instructions and
//!   `descent` 0.76 G: 9.3 times fewer. Without `descent`, pest alone would
//!   take about half of the front end's time on `Target.td`; the loader parses
//!   on a second thread beside evaluation, which pest's share would then
//!   outlast.
//! - **Diagnostics.** pest's error is the furthest position any rule reached
//!   and the set of rules it tried there, rendered as "expected a value, found
//!   `"`" at file:line:col; twelve error snapshots (`tests/tablegen/err/`,
//!   `tests/ui/fail/`) hold that wording byte for byte.
//!   Giving `descent` the same diagnostics means recording, at every failed
//!   alternative, what pest records (which rules count, how lookaheads and
//!   implicit blanks move the furthest position), which is the drift problem
//!   again, in the error path. pest costs nothing there: it runs only on files
//!   that fail. `descent` reports only what happens before either parser: too
//!   deep nesting and an unterminated `[{` (`parse.rs`'s `check_nesting`).
//! - **pest stays anyway**: the MIR reader (`regalloc/src/mir/`) is a pest
//!   grammar too, so removing it here would not remove the dependency.
//!
//! Drift cannot go unseen: `tdgen/tests/descent.rs` requires, for every text
//! it tries, that either both parsers reject it, or both accept it with the
//! same tree (spans included) and the same symbols in the same order. It
//! tries every `.td` file in the repository and of every installed LLVM (500
//! accepted, 18 rejected error cases), damaged copies of each, random token
//! sequences, programs generated from the grammar, those programs and the
//! small real files with tokens deleted, doubled, swapped, replaced or
//! inserted, and every single-token deletion and doubling of generated
//! programs; and it pins the grammar: a rule added to or removed from
//! `td.pest`, or any other edit to it, fails until the change has been
//! mirrored here. Only one direction of drift could change output (`descent`
//! accepting a text pest rejects, or building another tree); the other
//! (`descent` giving up on valid text) costs time only, as pest then parses
//! the file. Hand-made drifts of both kinds were each caught (see that
//! file's history), and the properties found one real drift of the second
//! kind, now fixed: the fast path gave up on an `include` name with an
//! unknown escape, which pest's grammar accepts.
//!
//! This would be worth revisiting if pest's error wording were given up for
//! diagnostics of our own (then `descent` could report them and pest go), or
//! if the grammar started to change often.

pub mod ast;
mod descent;
pub mod parse;
pub(crate) mod pool;
pub mod preprocess;
pub(crate) mod remap;
