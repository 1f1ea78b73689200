//! `regalloc`: a generic register-allocation core for any target described in a `.td` file.
//!
//! The crate knows nothing of `.td` syntax: it sees a target only through the
//! plain-data tables of [`target`], which `tdgen` generates (through the
//! [`regalloc!`] macro or a build script) or builds at run time.
//!
//! Stages, one module each, dependencies pointing one way:
//! [`ir`] (machine functions) and [`mir`] (LLVM MIR text) in, [`analysis`]
//! (CFG, frequencies, liveness, live intervals), [`alloc`] (the allocators
//! and their shared machinery), [`post`] (rewriting and clean-up), [`check`]
//! (the symbolic checker, which reads only [`ir`], [`target`] and the
//! [`record`]) and [`stats`]; [`pipeline`] runs them in order
//! ([`allocate`]), and [`timing`] times each stage when asked.
//!
//! Allocating the functions of a MIR file:
//!
//! ```no_run
//! # fn demo(target: &regalloc::target::TargetInfo<'_>, text: &str) {
//! let file = regalloc::mir::read(target, "input.mir", text);
//! let options = regalloc::Options {
//!     allocator: regalloc::Allocator::Greedy,
//!     check: true,
//! };
//! for mut func in file.read_functions().cloned() {
//!     match regalloc::allocate(target, &mut func, &options) {
//!         Ok(stats) => println!("{}: {} spills", func.name, stats.spills),
//!         Err(e) => eprintln!("{e}"),
//!     }
//! }
//! # }
//! ```
#![deny(missing_docs)]

pub mod alloc;
pub mod analysis;
pub mod check;
pub mod error;
pub mod ir;
pub mod mir;
pub mod passes;
pub mod pipeline;
pub mod post;
pub mod rdf;
pub mod record;
pub mod stats;
pub mod target;
pub mod timing;

pub use alloc::context::{AllocContext, TargetContext};
pub use error::{AllocError, AllocErrorKind};
pub use pipeline::{
    Allocator, Options, allocate, allocate_recorded, allocate_recorded_with_context,
    allocate_with_context, allocate_without_stats, allocate_without_stats_with_context,
};
pub use record::AllocRecord;
pub use regalloc_macros::regalloc;
pub use stats::Stats;
