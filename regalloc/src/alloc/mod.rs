//! The allocators (fast, basic, greedy) and their shared machinery: live register matrix, allocation order, virtual register map, spiller, split kit.
//!
//! Every allocator has the same contract: it rewrites a [`MachineFunction`]
//! in place, from virtual to physical registers, and returns an
//! [`AllocRecord`] saying what it inserted and removed, which is what the
//! symbolic checker ([`crate::check`]) needs to read the allocated code, and
//! from which [`Stats`] are counted.
//!
//! The entry point is [`allocate`]; [`allocate_recorded`] also returns the
//! record. Each has a `_with_context` form taking the caller's
//! [`TargetContext`] and [`AllocContext`] ([`crate::context`]), which a
//! caller allocating many functions keeps from one to the next; the plain
//! forms make fresh ones for the one call.

mod error;
pub mod hoist_spills;
pub mod inflate;
pub mod matrix;
pub mod order;
mod record;
pub mod redundant_spills;
mod remat;
pub mod spiller;
pub mod split;
mod stats;
pub mod virtmap;

pub use error::{AllocError, AllocErrorKind};
pub use matrix::{Interference, LiveRegMatrix};
pub use order::{AllocationOrder, ClassOrders};
pub use record::{AllocRecord, Edit, FoldedAccess, Removed};
pub use spiller::{SpillCode, Spiller};
pub use stats::Stats;
pub use virtmap::VirtRegMap;

pub use crate::context::{AllocContext, TargetContext};
use crate::ir::MachineFunction;
use crate::target::TargetInfo;
use crate::timing::Pass;

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
/// that need the original keep a clone.
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
    let target = TargetContext::new(target);
    allocate_recorded_with_context(&target, &mut AllocContext::new(), func, options)
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
    let target = TargetContext::new(target);
    allocate_without_stats_with_context(&target, &mut AllocContext::new(), func, options)
}

/// [`allocate`] with the caller's contexts: the target's derived facts
/// from `target`, scratch space and pass timing from `ctx`.
pub fn allocate_with_context(
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<Stats, AllocError> {
    allocate_recorded_with_context(target, ctx, func, options).map(|(s, _)| s)
}

/// [`allocate_recorded`] with the caller's contexts.
pub fn allocate_recorded_with_context(
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<(Stats, AllocRecord), AllocError> {
    let record = allocate_without_stats_with_context(target, ctx, func, options)?;
    let stats = Stats::count(target.target(), func, &record);
    Ok((stats, record))
}

/// [`allocate_without_stats`] with the caller's contexts.
pub fn allocate_without_stats_with_context(
    target_context: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<AllocRecord, AllocError> {
    let target = target_context.target();
    let entries = func.blocks.iter().map(|b| b.insts.len() + 1).sum::<usize>();
    if entries > crate::analysis::slots::MAX_ENTRIES {
        return Err(AllocError::new(
            AllocErrorKind::Unsupported,
            &func.name,
            format!(
                "{entries} instructions and blocks are more than the {} slot indexes can number",
                crate::analysis::slots::MAX_ENTRIES
            ),
        ));
    }
    // Fast copies a tied use of another register into the definition
    // itself (as LLVM's fast allocator copes with any tie); the others need
    // two-address form.
    input::check_no_phis(func, options.allocator)?;
    input::check_defined_before_use(target, func)?;
    if options.allocator != Allocator::Fast {
        input::check_two_address(target, func)?;
    }
    let original = options.check.then(|| func.clone());
    let record = match options.allocator {
        Allocator::Fast => fast::run_in(target_context, ctx, func)?,
        Allocator::Basic => basic::run_with(target, func, Default::default(), ctx)?,
        Allocator::Greedy => greedy::run_with(target, func, Default::default(), ctx)?,
    };
    if let Some(original) = original
        && let Err(errors) = ctx.timer.time(Pass::Check, || {
            crate::check::check(target, &original, func, &record)
        })
    {
        let mut message = String::new();
        for e in errors.iter().take(10) {
            message.push_str(&format!("\n  {e}"));
        }
        return Err(AllocError::new(
            AllocErrorKind::CheckFailed,
            &func.name,
            format!("the checker rejected the allocation:{message}"),
        ));
    }
    Ok(record)
}

pub mod basic;
pub mod fast;
pub mod greedy;
pub mod input;
