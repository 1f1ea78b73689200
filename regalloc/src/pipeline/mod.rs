//! The allocation pipeline: every stage from a read machine function to allocated, checked code, in order, the same for every allocator.
//!
//! [`allocate`] is the whole of it, one named call per stage:
//!
//! 0. **lowering** ([`lower`]), on SSA input only: see below;
//! 1. **input checks** (`pipeline/input.rs`): no PHIs, every read defined before,
//!    tied operands in two-address form (not for Fast, which makes that
//!    form itself), a function small enough to number;
//! 2. **flow analyses**: predecessors, CFG, dominators, loops, block
//!    frequencies ([`FlowAnalyses`]);
//! 3. **slot indexes and live intervals** ([`LiveIntervals`]);
//! 4. **spill weights and copy hints** (`analysis/weights.rs`);
//! 5. **the allocator**: Basic, Greedy, PBQP or linear scan, which return their
//!    `Decisions` (each virtual register's register or stack slot, the
//!    spill and reload code, the split copies) and change no instruction;
//!    Greedy's last step is its hint recoloring, as in LLVM's
//!    `RAGreedy`, because it moves assignments within the allocator's
//!    interference matrix;
//! 6. **spill hoisting** (`alloc/hoist_spills.rs`) and 7. **redundant
//!    spill removal** (`alloc/redundant_spills.rs`), which improve the spill code
//!    before it is placed;
//! 8. **rewrite** (`post/rewrite.rs`): virtual to physical registers, spill
//!    code and stack slots placed, identity copies dropped, the
//!    [`AllocRecord`] written;
//! 9. **reload reuse** (`post/reload_reuse.rs`): reloads served by a register
//!    that still holds the slot;
//! 10. **live-ins**: each block's live-in list, once the code no longer
//!     changes (with copy propagation asked for, computed once for it and
//!     again after it: it reads the successors' live-ins, as LLVM's does);
//!     then **copy propagation** ([`PostPasses::copy_propagation`], off
//!     unless asked for, "stage 10b" below): LLVM's `machine-cp` on the
//!     allocated code (`post/copy_prop/`), the record following;
//! 11. **check** ([`crate::check`]), when asked: the symbolic checker
//!     reads the original, the allocated code and the record;
//! 12. **statistics** ([`Stats`]), counted from the allocated code and the
//!     record.
//!
//! Fast is LLVM's RegAllocFast: it needs none of stages 2-4 and rewrites
//! each instruction as it allocates it (there is no assignment to return:
//! a virtual register's home changes along the block), so stages 5-10 are
//! one call for it, which also writes its live-ins; it meets the same
//! input checks, checker and statistics.
//!
//! Not every allocator's decisions go through every clean-up stage:
//! `Cleanup::of` says which, and why.
//!
//! Before stage 1, stage 0, **lowering** ([`lower`]): SSA input (MIR
//! stopped anywhere from `-stop-before=detect-dead-lanes` on) goes
//! through the pre-allocation passes ([`crate::passes`]) it still needs,
//! decided from its code ([`crate::passes::first_needed`]; an SSA
//! function without PHIs and without two-address work is taken as it is,
//! since MIR stopped before an allocator can look the same, see
//! `needs_lowering`): for Fast
//! LLVM's -O0 path (PHI elimination and two-address lowering), for the
//! others its optimized path through the register coalescer (the choice
//! is [`crate::passes::Path`]'s, and why). Input already past them (MIR
//! stopped before an allocator) runs none. Everything after, the
//! statistics, the record and the checker included, is of the function
//! as lowered: the checker's original is the lowered function, not the
//! SSA input. [`prepare`] runs the passes alone, up to a named one
//! (`regalloc passes`).

pub(crate) mod input;

use crate::alloc::context::{AllocContext, TargetContext};
use crate::alloc::{Decisions, basic, fast, greedy, linear_scan, pbqp};
use crate::analysis::{Analyses, FlowAnalyses, LiveIntervals, weights};
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::MachineFunction;
use crate::post::{reload_reuse, rewrite};
use crate::record::{AllocRecord, LoweringRecord};
use crate::stats::Stats;
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
    /// LLVM's RegAllocPBQP: the whole function as one partitioned boolean
    /// quadratic problem, spill and solve again until nothing spills.
    Pbqp,
    /// Poletto and Sarkar's linear scan: intervals by start, spill the
    /// one whose end is furthest (the baseline LLVM replaced).
    LinearScan,
    /// [`Allocator::Pbqp`] with each round's problem solved to its
    /// optimum by branch and bound over what the reductions leave
    /// (`alloc::pbqp::solver::exact`), exploring at most `node_limit`
    /// search nodes per round; a round that reaches the limit keeps the
    /// heuristic's solution, and
    /// [`AllocContext::take_pbqp_exact_rounds`] says which did.
    PbqpExact {
        /// Search nodes per round.
        node_limit: u64,
    },
}

impl Allocator {
    /// The name used on command lines (`fast`, `basic`, `greedy`, `pbqp`,
    /// `linearscan`; `pbqp-exact` for `--allocator pbqp --exact`).
    pub fn name(self) -> &'static str {
        match self {
            Allocator::Fast => "fast",
            Allocator::Basic => "basic",
            Allocator::Greedy => "greedy",
            Allocator::Pbqp => "pbqp",
            Allocator::LinearScan => "linearscan",
            Allocator::PbqpExact { .. } => "pbqp-exact",
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

/// Passes after allocation that change the allocated code beyond what
/// every allocation does: each is off unless asked for (none is part of
/// [`Options`], whose literals callers write out in full).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PostPasses {
    /// Machine copy propagation, as LLVM's `machine-cp` runs it after its
    /// allocator (`regalloc alloc --post-ra-copy-prop`): uses read copies'
    /// sources, definitions write copies' destinations, and redundant and
    /// dead copies go. The checker follows it through the record.
    pub copy_propagation: bool,
}

/// Allocates `func` for `target` with `options.allocator`: afterwards no
/// virtual register is left in its instructions. Checks the result when
/// `options.check`, and returns the statistics. On error the function may
/// be partly rewritten; callers that need the original keep a clone.
///
/// This makes fresh contexts for the one call; a caller allocating many
/// functions keeps a [`TargetContext`] per target and an [`AllocContext`]
/// per thread and calls [`allocate_with_context`].
pub fn allocate(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<Stats, AllocError> {
    allocate_recorded(target, func, options).map(|(stats, _)| stats)
}

/// [`allocate`], also returning what was inserted and removed.
pub fn allocate_recorded(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<(Stats, AllocRecord), AllocError> {
    let target = TargetContext::new(target);
    allocate_recorded_with_context(&target, &mut AllocContext::new(), func, options)
}

/// [`allocate_recorded`] without stage 12: the allocated function and the
/// record only. Counting weighs every instruction by its block's
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
    allocate_recorded_with_context(target, ctx, func, options).map(|(stats, _)| stats)
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

/// [`allocate_without_stats`] with the caller's contexts: stages 0-11.
/// An error at an instruction read from a file carries its place in it.
pub fn allocate_without_stats_with_context(
    target_context: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    options: &Options,
) -> Result<AllocRecord, AllocError> {
    stages(
        target_context,
        ctx,
        func,
        options,
        PostPasses::default(),
        false,
    )
    .map(|(record, _)| record)
    .map_err(|e| e.located_in(func))
}

/// [`allocate_recorded_with_context`], with the passes after allocation
/// `post` asks for run before the checker and the statistics.
pub fn allocate_recorded_with_post(
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    options: &Options,
    post: PostPasses,
) -> Result<(Stats, AllocRecord), AllocError> {
    let (record, _) =
        stages(target, ctx, func, options, post, false).map_err(|e| e.located_in(func))?;
    let stats = Stats::count(target.target(), func, &record);
    Ok((stats, record))
}

/// [`allocate_recorded_with_post`], also returning the function the
/// allocator started from: the input after stage 0's pre-allocation
/// passes (the input itself when it needed none). A caller that runs
/// the checker itself gives it this as the original (the CLI's
/// `--check`).
pub fn allocate_keeping_input(
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    options: &Options,
    post: PostPasses,
) -> Result<(Stats, AllocRecord, MachineFunction), AllocError> {
    let (record, input) =
        stages(target, ctx, func, options, post, true).map_err(|e| e.located_in(func))?;
    let stats = Stats::count(target.target(), func, &record);
    let input = input.expect("stages keep the input when asked");
    Ok((stats, record, input))
}

/// Stages 0-11 (see [`allocate_without_stats_with_context`]), with the
/// passes after allocation `post` asks for; with the function as the
/// allocator got it when `keep_input` (or when checking).
fn stages(
    target_context: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    options: &Options,
    post: PostPasses,
    keep_input: bool,
) -> Result<(AllocRecord, Option<MachineFunction>), AllocError> {
    let target = target_context.target();
    // Checking (or a caller that checks itself, `keep_input`) proves the
    // lowering too: the SSA input against the lowered function, by the
    // pass checker (`check::check_lowering`), before the allocation is
    // checked against the lowered function.
    let checking = options.check || keep_input;
    let ssa = (checking && needs_lowering(target, func)).then(|| func.clone());
    let (_, lowering) = lower_recorded(target, ctx, func, options.allocator, ssa.is_some())?;
    if let (Some(ssa), Some(lowering)) = (&ssa, &lowering) {
        check_lowering(target, ssa, func, lowering, ctx)?;
    }
    check_input(target, func, options.allocator)?;
    let input = (options.check || keep_input).then(|| func.clone());
    let sub_uses = if post.copy_propagation {
        crate::post::copy_prop::SubRegisterUses::of(func)
    } else {
        Default::default()
    };
    let record = match options.allocator {
        Allocator::Fast => {
            let mut record = {
                let _allocating = ctx.timer.scope(Pass::Allocate);
                let orders = target_context.orders();
                let tables = target_context.fast_tables();
                fast::run_in(target, orders, tables, &mut ctx.fast, func)?
            };
            if post.copy_propagation {
                // Fast's live-ins stay as it wrote them: taking copies out
                // only leaves some registers listed that are no longer
                // read, as LLVM's pass leaves them.
                let reserved = crate::alloc::order::function_reserved(target, func);
                copy_propagation(target, func, &mut record, &reserved, &sub_uses, ctx);
            }
            record
        }
        allocator => {
            ctx.timer.time(Pass::FlowAnalyses, || func.compute_preds());
            let analyses = analyse(target, func, sub_ranges(target, allocator), ctx);
            let decisions = match allocator {
                Allocator::Basic => {
                    basic::allocate(target_context, func, analyses, Default::default(), ctx)?
                }
                Allocator::Pbqp => {
                    pbqp::allocate(target_context, func, analyses, Default::default(), ctx)?
                }
                Allocator::LinearScan => {
                    linear_scan::allocate(target_context, func, analyses, ctx)?
                }
                Allocator::PbqpExact { node_limit } => {
                    let opts = pbqp::PbqpOptions {
                        exact: Some(node_limit),
                        ..Default::default()
                    };
                    pbqp::allocate(target_context, func, analyses, opts, ctx)?
                }
                _ => greedy::allocate(target_context, func, analyses, Default::default(), ctx)?,
            };
            note_final_ranges(&decisions, &mut ctx.events);
            apply(
                target,
                func,
                decisions,
                Cleanup::of(allocator),
                post,
                &sub_uses,
                ctx,
            )?
        }
    };
    if options.check
        && let Some(original) = &input
    {
        check(target, original, func, &record, ctx)?;
    }
    Ok((record, input))
}

/// The pre-allocation passes `func` still needs, decided from its code
/// ([`crate::passes::first_needed`]), run up to and including
/// `stop_after`; returns the passes run (none for a function already past
/// them, such as MIR stopped before an allocator).
pub fn prepare(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    stop_after: crate::passes::Pass,
) -> Result<Vec<crate::passes::Pass>, AllocError> {
    crate::passes::run_until(target, func, stop_after)
}

/// Stage 0: the pre-allocation passes `func` still needs before
/// `allocator` ([`crate::passes::needed`] on the path
/// [`lowering_path`] chooses), each timed on its own line; returns the
/// passes run (none for input already past them).
pub fn lower(
    target: &TargetInfo<'_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    allocator: Allocator,
) -> Result<Vec<crate::passes::Pass>, AllocError> {
    lower_recorded(target, ctx, func, allocator, false).map(|(passes, _)| passes)
}

/// [`lower`], also returning, when `record` and passes ran, where each
/// lowered block came from (for the pass checker).
fn lower_recorded(
    target: &TargetInfo<'_>,
    ctx: &mut AllocContext,
    func: &mut MachineFunction,
    allocator: Allocator,
    record: bool,
) -> Result<(Vec<crate::passes::Pass>, Option<LoweringRecord>), AllocError> {
    if !needs_lowering(target, func) {
        return Ok((Vec::new(), None));
    }
    let passes = crate::passes::needed(func, lowering_path(allocator));
    let mut state = crate::passes::PassState {
        block_origins: record.then(|| LoweringRecord::identity(func.blocks.len()).block_origins),
        ..Default::default()
    };
    for &pass in &passes {
        ctx.timer.time(timed(pass), || {
            crate::passes::run(target, func, pass, &mut state)
        })?;
    }
    let lowering = state
        .block_origins
        .map(|block_origins| LoweringRecord { block_origins });
    Ok((passes, lowering))
}

/// The pass checker on stage 0's work: the lowered function computes what
/// the SSA input computes; its first ten errors make the error.
fn check_lowering(
    target: &TargetInfo<'_>,
    ssa: &MachineFunction,
    lowered: &MachineFunction,
    record: &LoweringRecord,
    ctx: &mut AllocContext,
) -> Result<(), AllocError> {
    ctx.timer
        .time(Pass::Check, || {
            crate::check::check_lowering(target, ssa, lowered, record)
        })
        .map_err(|errors| rejected(&lowered.name, "the pre-allocation passes", &errors))
}

/// The error of a function whose `work` the checker rejected, with the
/// first ten of its errors.
fn rejected(function: &str, work: &str, errors: &[crate::check::CheckError]) -> AllocError {
    let mut message = String::new();
    for e in errors.iter().take(10) {
        message.push_str(&format!("\n  {e}"));
    }
    AllocError::new(
        AllocErrorKind::CheckFailed,
        function,
        format!("the checker rejected {work}:{message}"),
    )
}

/// Whether stage 0 lowers `func`: it has PHIs, or it is SSA
/// ([`crate::passes::first_needed`]) with two-address work left (a tie
/// between two registers, a `REG_SEQUENCE`, an `INSERT_SUBREG`), which no
/// allocator can take as it is. The passes' output has none of these,
/// so stage 0 on a function it lowered does nothing (`regalloc view`
/// lowers first, to show the function the allocator gets).
///
/// An SSA function with none of these is allocated as it is read: MIR
/// stopped before an allocator looks the same for a function whose values
/// never merge and whose instructions have no ties (straight-line
/// three-address code, common on AArch64 and Hexagon), and such input,
/// already through LLVM's passes, allocates exactly as it did before
/// stage 0 existed (running `livevars` on it again would rewrite its
/// physical registers' kill flags). What that leaves out on true SSA
/// input is the coalescer's joins of such a function's copies, which the
/// allocators' copy hints mostly make identity copies anyway.
fn needs_lowering(target: &TargetInfo<'_>, func: &MachineFunction) -> bool {
    use crate::ir::{Generic, Op};
    if crate::passes::has_phis(func) {
        return true;
    }
    crate::passes::first_needed(func).is_some()
        && (input::check_two_address(target, func).is_err()
            || func.inst_ids().any(|i| {
                matches!(
                    func.inst(i).op,
                    Op::Generic(Generic::RegSequence | Generic::InsertSubreg)
                )
            }))
}

/// LLVM's pre-allocation path for `allocator`: Fast is the allocator of
/// -O0 code, whose path has no coalescer; the others follow the
/// optimized path ([`crate::passes::Path`]).
pub fn lowering_path(allocator: Allocator) -> crate::passes::Path {
    match allocator {
        Allocator::Fast => crate::passes::Path::Fast,
        _ => crate::passes::Path::Optimized,
    }
}

/// The timing table's line of a pre-allocation pass.
fn timed(pass: crate::passes::Pass) -> Pass {
    use crate::passes::Pass as P;
    match pass {
        P::DetectDeadLanes => Pass::DetectDeadLanes,
        P::ProcessImplicitDefs => Pass::ProcessImplicitDefs,
        P::UnreachableBlockElim => Pass::UnreachableBlockElim,
        P::LiveVariables => Pass::LiveVariables,
        P::PhiElimination => Pass::PhiElimination,
        P::TwoAddress => Pass::TwoAddress,
        P::RegisterCoalescer => Pass::RegisterCoalescer,
    }
}

/// Stage 1: refuses input no allocator can take.
fn check_input(
    target: &TargetInfo<'_>,
    func: &MachineFunction,
    allocator: Allocator,
) -> Result<(), AllocError> {
    input::check_numbering_fits(func)?;
    input::check_no_phis(func, allocator)?;
    input::check_defined_before_use(target, func)?;
    // Fast copies a tied use of another register into the definition
    // itself (as LLVM's fast allocator copes with any tie); the others
    // need two-address form.
    if allocator != Allocator::Fast {
        input::check_two_address(target, func)?;
    }
    Ok(())
}

/// Whether `allocator`'s intervals carry lane sub-ranges. Greedy follows
/// lanes only where LLVM does ([`crate::alloc::tracks_sub_reg_liveness`]);
/// Basic has always been given them (they change no decision of its own,
/// but its output is kept as it is).
fn sub_ranges(target: &TargetInfo<'_>, allocator: Allocator) -> bool {
    match allocator {
        Allocator::Basic => true,
        _ => crate::alloc::tracks_sub_reg_liveness(target),
    }
}

/// Stages 2-4: flow analyses, slot indexes and live intervals, spill
/// weights and copy hints, of a function whose predecessors are known;
/// the intervals have lane sub-ranges when `sub_ranges`.
pub(crate) fn analyse(
    target: &TargetInfo<'_>,
    func: &MachineFunction,
    sub_ranges: bool,
    ctx: &mut AllocContext,
) -> Analyses {
    let timer = &mut ctx.timer;
    let flow = timer.time(Pass::FlowAnalyses, || FlowAnalyses::new(func));
    let (mut intervals, users) = timer.time(Pass::LiveIntervals, || {
        LiveIntervals::with_users(target, func, &flow.cfg, sub_ranges, &mut ctx.ranges)
    });
    let hints = timer.time(Pass::SpillWeights, || {
        weights::compute_weights_of(target, func, &flow, &mut intervals, &users)
    });
    Analyses {
        flow,
        intervals,
        hints,
    }
}

/// Notes each live range the allocator's `decisions` leave, with its
/// register, when the caller gathers events.
fn note_final_ranges(decisions: &Decisions, events: &mut crate::events::EventLog) {
    if !events.on() {
        return;
    }
    for iv in decisions.analyses.intervals.vregs.iter().flatten() {
        let v = iv.vreg;
        events.note(|| crate::events::Event::Final {
            vreg: v,
            original: decisions.assignment.original(v),
            reg: decisions.assignment.phys(v),
            range: iv.range.clone(),
        });
    }
}

/// Which clean-up stages an allocator's decisions go through.
#[derive(Copy, Clone, Debug)]
struct Cleanup {
    /// Stage 6.
    hoist_spills: bool,
    /// Stage 7.
    redundant_spills: bool,
    /// Stage 9.
    reload_reuse: bool,
}

impl Cleanup {
    /// Greedy's and PBQP's decisions go through all of them (LLVM's PBQP
    /// allocator spills through the same inline spiller as its greedy one,
    /// whose post-optimization hoists and drops redundant spills). Basic's
    /// go through none:
    /// it stays the simple baseline it was measured as (LLVM's basic
    /// allocator does hoist, through its spiller's post-optimization;
    /// giving ours the same is a change of output to measure, not a step
    /// of the pipeline). Linear scan's go through none either: a baseline
    /// measures the algorithm.
    fn of(allocator: Allocator) -> Cleanup {
        let all = matches!(
            allocator,
            Allocator::Greedy | Allocator::Pbqp | Allocator::PbqpExact { .. }
        );
        Cleanup {
            hoist_spills: all,
            redundant_spills: all,
            reload_reuse: all,
        }
    }
}

/// Stages 6-10: the decisions applied to the function.
fn apply(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    mut decisions: Decisions,
    cleanup: Cleanup,
    post: PostPasses,
    sub_uses: &crate::post::copy_prop::SubRegisterUses,
    ctx: &mut AllocContext,
) -> Result<AllocRecord, AllocError> {
    let timer = &mut ctx.timer;
    if cleanup.hoist_spills {
        let hoisted = timer.time(Pass::SpillHoisting, || {
            crate::alloc::hoist_spills::hoist(
                target,
                &mut decisions.spill_code,
                func,
                &decisions.analyses,
                &decisions.assignment,
            )
        });
        tracing::debug!(hoisted, "spills hoisted");
    }
    if cleanup.redundant_spills {
        let stores = timer.time(Pass::RedundantSpills, || {
            crate::alloc::redundant_spills::eliminate(
                &mut decisions.spill_code,
                func,
                &decisions.analyses,
            )
        });
        tracing::debug!(stores, "redundant spills removed");
    }
    let mut record = AllocRecord::new(decisions.original_insts);
    timer.time(Pass::Rewrite, || {
        rewrite::rewrite_code(target, func, &decisions, &mut record)
    })?;
    // Before the live-ins, which it does not read: they are computed once,
    // for the code as it ends.
    if cleanup.reload_reuse {
        let reused = timer.time(Pass::ReloadReuse, || {
            reload_reuse::reuse_reloads(target, func, &mut record)
        });
        tracing::debug!(reused, "reloads served by registers");
    }
    timer.time(Pass::Rewrite, || {
        crate::analysis::phys_liveness::update_live_ins(target, func, &decisions.reserved)
    });
    if post.copy_propagation {
        let reserved = &decisions.reserved;
        let removed = copy_propagation(target, func, &mut record, reserved, sub_uses, ctx);
        if removed > 0 {
            ctx.timer.time(Pass::CopyPropagation, || {
                crate::analysis::phys_liveness::update_live_ins(target, func, reserved)
            });
        }
    }
    Ok(record)
}

/// Stage 10b: machine copy propagation on the allocated `func`, whose
/// live-ins are up to date; returns how many copies it took out.
fn copy_propagation(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    record: &mut AllocRecord,
    reserved: &[bool],
    sub_uses: &crate::post::copy_prop::SubRegisterUses,
    ctx: &mut AllocContext,
) -> usize {
    let done = ctx.timer.time(Pass::CopyPropagation, || {
        crate::post::copy_prop::propagate_copies(target, func, record, reserved, sub_uses)
    });
    tracing::debug!(
        forwarded = done.forwarded,
        backward = done.backward,
        redundant = done.redundant,
        dead = done.dead,
        "copy propagation"
    );
    done.removed()
}

/// Stage 11: the symbolic checker on the allocated function; its first
/// ten errors make the allocation's error.
fn check(
    target: &TargetInfo<'_>,
    original: &MachineFunction,
    allocated: &MachineFunction,
    record: &AllocRecord,
    ctx: &mut AllocContext,
) -> Result<(), AllocError> {
    ctx.timer
        .time(Pass::Check, || {
            crate::check::check(target, original, allocated, record)
        })
        .map_err(|errors| rejected(&allocated.name, "the allocation", &errors))
}
