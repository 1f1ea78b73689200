//! `regalloc`: a generic register-allocation core for any target described in a `.td` file.
//!
//! The crate knows nothing of `.td` syntax: it sees a target only through the
//! plain-data tables of [`target`], which `tdgen` generates (through the
//! [`regalloc!`] macro or a build script) or builds at run time.
//!
//! Stages, one module each, dependencies pointing one way:
//! [`ir`] (machine functions) and [`mir`] (LLVM MIR text) in, [`analysis`]
//! (CFG, frequencies, liveness, live intervals), [`passes`] (pre-allocation
//! lowering), [`alloc`] (the allocators and their shared machinery), [`post`]
//! (rewriting and clean-up) and [`check`] (the symbolic checker) out;
//! [`timing`] times each of them when asked. The state an allocation
//! reuses is the caller's: [`context`] (one [`context::TargetContext`] per
//! target, one [`context::AllocContext`] per thread).
#![deny(missing_docs)]

pub mod alloc;
pub mod analysis;
pub mod check;
pub mod context;
pub mod ir;
pub mod mir;
pub mod passes;
pub mod post;
pub mod target;
pub mod timing;

pub use regalloc_macros::regalloc;
