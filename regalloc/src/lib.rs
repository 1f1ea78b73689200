//! `regalloc`: a generic register-allocation core for any target described in a `.td` file.
//!
//! The crate knows nothing of `.td` syntax: it sees a target only through the
//! plain-data tables of [`target`], which `tdgen` generates (through the
//! [`regalloc!`] macro or a build script) or builds at run time.
//!
//! # The public API
//!
//! - a target: [`target::TargetInfo`] and its tables, made by [`regalloc!`]
//!   (the crate `regalloc-targets` bundles x86-64, AArch64, Hexagon and
//!   BPF made that way);
//! - functions: [`mir::read`] turns LLVM 19 MIR text into
//!   [`ir::MachineFunction`]s, [`mir::write`] and [`mir::write_function`]
//!   print them back; [`ir`] holds the types to build (`ir::Builder`) or
//!   inspect a function;
//! - allocation: [`allocate`] (and [`allocate_recorded`], which also
//!   returns the [`AllocRecord`] of what was inserted and removed) with an
//!   [`Allocator`] and [`Options`]; the `_with_context` forms take a
//!   [`TargetContext`] per target and an [`AllocContext`] per thread, for
//!   callers allocating many functions; errors are [`AllocError`]s, counts
//!   [`Stats`], stage times [`timing::PassTimes`];
//! - proof: [`check::check`], the symbolic checker, reads the original
//!   function, the allocated one and the record;
//! - SSA input: [`pipeline::prepare`] runs the pre-allocation [`passes`]
//!   a function still needs;
//! - for tools beside an allocator: [`orders`] (allocation orders and
//!   reserved registers of a function) and [`inspect`] (the analyses).
//!
//! Inside, the stages are one module each ([`pipeline`] names them in
//! order): the analyses (CFG, frequencies, live intervals), the
//! allocators and their shared machinery, the clean-up after allocation,
//! the checker and the statistics. The checker depends on nothing it
//! checks: it reads only [`ir`], [`target`] and [`record`].
//!
//! # Example
//!
//! The toy machine of `docs/new-target.md` (four registers, one of them
//! callee-saved), a function with four values live across a call read from
//! MIR, allocated with Greedy, proven by the checker and written back:
//!
//! ```
//! mod toy {
//!     regalloc::regalloc!("../docs/toy/toy.td");
//! }
//! use regalloc::{Allocator, Options, allocate_recorded, check, mir};
//!
//! let target = &toy::TARGET;
//! let text = r#"---
//! name:            sum
//! tracksRegLiveness: true
//! registers:
//!   - { id: 0, class: gpr }
//!   - { id: 1, class: gpr }
//!   - { id: 2, class: gpr }
//!   - { id: 3, class: gpr }
//!   - { id: 4, class: gpr }
//!   - { id: 5, class: gpr }
//!   - { id: 6, class: gpr }
//! liveins:
//!   - { reg: '$w0', virtual-reg: '%0' }
//!   - { reg: '$w1', virtual-reg: '%1' }
//! body:             |
//!   bb.0:
//!     successors: %bb.1
//!     liveins: $w0, $w1
//!
//!     %0:gpr = COPY $w0
//!     %1:gpr = COPY $w1
//!     %2:gpr = MOVri 100
//!     %3:gpr = MOVri 7
//!     CALL 42, csr_toy, implicit-def $w0
//!     %4:gpr = COPY $w0
//!     %5:gpr = COPY %0
//!     %5:gpr = ADDrr %5, %1
//!     %5:gpr = ADDrr %5, %2
//!     %6:gpr = COPY %3
//!     %6:gpr = ADDrr %6, %4
//!
//!   bb.1:
//!     %5:gpr = ADDrr %5, %6
//!     $w0 = COPY %5
//!     RET implicit $w0
//! ...
//! "#;
//!
//! // Text in: every function read, or an error with its place in the file.
//! let mut file = mir::read(target, "sum.mir", text);
//! assert_eq!(file.errors().count(), 0);
//!
//! let options = Options {
//!     allocator: Allocator::Greedy,
//!     check: false, // the checker is called below, by hand
//! };
//! for doc in &mut file.functions {
//!     let mir::FunctionDoc::Read(func) = doc else {
//!         continue;
//!     };
//!     let original = func.clone();
//!     let (stats, record) = allocate_recorded(target, func, &options).expect("allocated");
//!     // The checker proves that every use reads the value it read before.
//!     check::check(target, &original, func, &record).expect("a correct allocation");
//!     // Greedy spills one value around the call and recomputes the two
//!     // constants where they are used.
//!     assert_eq!((stats.spills, stats.reloads, stats.remats), (1, 1, 2));
//! }
//!
//! // Text out: the allocated MIR, as LLVM prints it.
//! let allocated = mir::write(target, &file);
//! assert!(!allocated.contains("%5"), "no virtual register is left");
//! assert!(allocated.contains("type: spill-slot"), "{allocated}");
//! ```
#![deny(missing_docs)]

pub mod check;
pub mod events;
pub mod ir;
pub mod mir;
pub mod passes;
pub mod pipeline;
pub mod rdf;
pub mod record;
pub mod target;
pub mod timing;

pub(crate) mod alloc;
pub(crate) mod analysis;
pub(crate) mod error;
pub(crate) mod post;
pub(crate) mod stats;

pub use alloc::context::{AllocContext, TargetContext};
/// The search nodes per round `Allocator::PbqpExact` gets by default
/// (`regalloc alloc --allocator pbqp --exact` without `--exact-limit`).
pub use alloc::pbqp::DEFAULT_EXACT_LIMIT as DEFAULT_PBQP_EXACT_LIMIT;
pub use error::{AllocError, AllocErrorKind};
pub use pipeline::{
    Allocator, Options, PostPasses, allocate, allocate_keeping_input, allocate_recorded,
    allocate_recorded_with_context, allocate_recorded_with_post, allocate_with_context,
    allocate_without_stats, allocate_without_stats_with_context,
};
pub use record::AllocRecord;
pub use regalloc_macros::regalloc;
pub use stats::Stats;

/// What the allocators may assign in one function, for code that
/// allocates outside this crate (the regalloc2 adapter in
/// `bench/src/ra2/`) and for tests of the allocators' reading of a
/// function's frame.
pub mod orders {
    use crate::ir::MachineFunction;
    use crate::target::TargetInfo;

    pub use crate::alloc::order::ClassOrders;

    /// The registers the allocators keep out of `func`, by register
    /// number: the target's reserved registers, and the frame-pointer or
    /// base-pointer registers when the function keeps one. The checker
    /// reads the same facts on its own ([`crate::check::reserved_registers`]);
    /// `tests/tests/check_independent.rs` compares the two.
    pub fn reserved_registers(target: &TargetInfo<'_>, func: &MachineFunction) -> Vec<bool> {
        crate::alloc::order::function_reserved(target, func)
    }
}

/// The analyses the allocators run (stages 2-4 of [`pipeline`]), for tools
/// that print or test them: the CLI's `intervals` command, the analysis
/// benchmark, the live-interval tests against a brute-force liveness.
/// Allocating needs none of it.
pub mod inspect {
    pub use crate::analysis::intervals::vreg_lanes;
    pub use crate::analysis::print::{freqs_to_string, intervals_to_string};
    pub use crate::analysis::slots::INSTR_DIST;
    pub use crate::analysis::{Analyses, Cfg, FlowAnalyses, LiveIntervals, LiveRange, SlotIndex};
}
