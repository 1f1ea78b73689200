//! The allocators (fast, basic, greedy) and their shared machinery: live register matrix, allocation order, virtual register map, spiller, split kit.
//!
//! Every allocator has the same contract: it rewrites a [`MachineFunction`]
//! in place, from virtual to physical registers, and returns an
//! [`AllocRecord`] saying what it inserted and removed, which is what the
//! symbolic checker ([`crate::check`]) needs to read the allocated code, and
//! from which [`Stats`] are counted.
//!
//! The entry point is [`allocate`]; [`allocate_recorded`] also returns the
//! record.

pub mod hoist_spills;
pub mod inflate;
pub mod matrix;
pub mod order;
pub mod redundant_spills;
mod remat;
pub mod spiller;
pub mod split;
pub mod virtmap;

pub use crate::error::{AllocError, AllocErrorKind};
pub use matrix::{Interference, LiveRegMatrix};
pub use order::{AllocationOrder, ClassOrders};
pub use crate::record::{AllocRecord, Edit, FoldedAccess, Removed};
pub use crate::stats::Stats;
pub use spiller::{SpillCode, Spiller};
pub use virtmap::VirtRegMap;

use crate::analysis::{Analyses, LiveRange};
use crate::ir::{Inst, MachineFunction};
use crate::target::TargetInfo;

/// Which allocator to run.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Allocator {
    /// LLVM's RegAllocFast: one pass per block, no live intervals.
    Fast,
    /// LLVM's RegAllocBasic: intervals by weight, evict lighter, else spill.
    Basic,
    /// LLVM's RegAllocGreedy: eviction, splitting, spill placement.
    #[default]
    Greedy,
}

impl Allocator {
    /// The name used on command lines (`fast`, `basic`, `greedy`).
    pub fn name(self) -> &'static str {
        match self {
            Allocator::Fast => "fast",
            Allocator::Basic => "basic",
            Allocator::Greedy => "greedy",
        }
    }
}

/// How to allocate.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The allocator.
    pub allocator: Allocator,
    /// Run the symbolic checker on the result and fail with
    /// [`AllocErrorKind::CheckFailed`] if it finds an error.
    pub check: bool,
}

/// Allocates `func` for `target`: afterwards no virtual register is left in
/// its instructions. On error the function may be partly rewritten; callers
/// that need the original keep a clone. The stages are those of the
/// crate's pipeline (`regalloc/src/pipeline.rs`), the same for every
/// allocator.
pub fn allocate(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<Stats, AllocError> {
    allocate_recorded(target, func, options).map(|(s, _)| s)
}

/// [`allocate`], also returning what the allocator inserted and removed.
pub fn allocate_recorded(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<(Stats, AllocRecord), AllocError> {
    crate::pipeline::run_with_stats(target, func, options)
}

/// [`allocate_recorded`] without counting [`Stats`]: the allocated function
/// and the record only. Counting weighs every instruction by its block's
/// frequency, which needs the CFG analyses of the allocated function; a
/// benchmark that times the allocator alone calls this, then
/// [`Stats::count`] after its clock stops.
pub fn allocate_without_stats(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<AllocRecord, AllocError> {
    crate::pipeline::run(target, func, options)
}

/// What Basic and Greedy decide, for the pipeline's later stages to apply:
/// the allocators themselves change no instruction.
pub(crate) struct Decisions {
    /// The function's instruction count before allocation (the record's
    /// [`AllocRecord::original_insts`]).
    pub original_insts: usize,
    /// The analyses as allocation left them: split and spill products have
    /// intervals too.
    pub analyses: Analyses,
    /// Each virtual register's physical register, and the original each
    /// split or spill product stands for.
    pub assignment: VirtRegMap,
    /// The spill and reload code to place, and the stack slots.
    pub spill_code: SpillCode,
    /// The COPYs the split kit made between the pieces of a split range.
    pub split_copies: Vec<Inst>,
    /// The registers the function may not be given (for the live-ins).
    pub reserved: Vec<bool>,
    /// Whether interference followed sub-register lanes (rewriting then
    /// marks partial definitions as LLVM's rewriter does).
    pub lanes: bool,
}

/// Whether interference and rewriting follow sub-register lanes: LLVM 19
/// tracks sub-register liveness on Hexagon only (`enableSubRegLiveness`),
/// so this does the same, to allocate what LLVM allocates.
pub fn tracks_sub_reg_liveness(t: &TargetInfo<'_>) -> bool {
    t.name.to_ascii_lowercase().starts_with("hexagon")
}

/// Places `e` at the first instruction of `range`.
pub(crate) fn place_error(e: AllocError, an: &Analyses, range: &LiveRange) -> AllocError {
    let slots = &an.intervals.slots;
    let Some(s) = range.segments.first() else {
        return e;
    };
    let at = slots
        .inst_at(s.start)
        .or_else(|| slots.inst_at(slots.next_inst_after(s.start)));
    let block = slots.block_of(s.start);
    match (block, at) {
        (Some(b), Some(i)) => e.at(b, i),
        (Some(b), None) => {
            let mut e = e;
            e.block = Some(b);
            e
        }
        _ => e,
    }
}

pub mod basic;
pub mod fast;
pub mod greedy;
pub mod input;
