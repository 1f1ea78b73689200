//! Caller-owned allocation state: [`TargetContext`], what is derived from one target's tables, made once and shared by every thread allocating for that target, and [`AllocContext`], one thread's reusable buffers and pass timings (regalloc2's `Ctx` and `run_with_ctx`).
//!
//! Allocating a function needs scratch space the size of the function
//! (per-block liveness facts, the fast allocator's per-unit and
//! per-register tables) and facts that depend on the target alone (which
//! units each register has, which opcodes are calls, the allocation orders
//! of each combination of reserved registers). Making either afresh for
//! every function costs more than allocating a small function; keeping
//! them hidden in the allocator (per thread, keyed by the tables'
//! addresses) made the state invisible and tied to threads. Here the caller
//! holds both:
//!
//! ```
//! use regalloc::{Allocator, Options, allocate_with_context};
//! use regalloc::{AllocContext, TargetContext};
//! # fn functions() -> Vec<regalloc::ir::MachineFunction> { Vec::new() }
//! # fn demo(target: &regalloc::target::TargetInfo<'_>) {
//! let target = TargetContext::new(target); // once per target, shareable
//! let mut ctx = AllocContext::new(); // once per thread
//! let options = Options { allocator: Allocator::Fast, check: false };
//! for mut f in functions() {
//!     let _stats = allocate_with_context(&target, &mut ctx, &mut f, &options);
//! }
//! # }
//! ```
//!
//! Nothing in either context changes what an allocation produces: the
//! buffers hold no meaning from one function to the next, and the
//! per-target facts are the same whenever they are computed. So functions
//! may be allocated on any threads, in any order, each with any context,
//! and come out byte for byte the same.

use std::sync::OnceLock;

use crate::alloc::fast;
use crate::alloc::order::TargetOrders;
use crate::analysis::ranges::RangeBuilder;
use crate::events::{Event, EventLog};
use crate::record::PbqpExactRound as ExactRound;
use crate::target::TargetInfo;
use crate::timing::{PassTimer, PassTimes};

/// What the allocators derive from one target's tables alone, computed on
/// first need and kept for every later function. It is `Sync`: one
/// context serves every thread allocating for the target (share it by
/// reference, or in an `Arc`).
pub struct TargetContext<'a, 't> {
    target: &'a TargetInfo<'t>,
    /// Every allocator's base allocation orders, per combination of the
    /// function facts they depend on (`order.rs`), made when first asked
    /// for.
    orders: OnceLock<TargetOrders>,
    /// The fast allocator's tables (register units, call opcodes, reserved
    /// registers per combination of function facts), made when the fast
    /// allocator first runs.
    fast: OnceLock<fast::TargetTables>,
}

impl<'a, 't> TargetContext<'a, 't> {
    /// An empty context for `target` (its facts are computed as the
    /// allocators first ask for them).
    pub fn new(target: &'a TargetInfo<'t>) -> TargetContext<'a, 't> {
        TargetContext {
            target,
            orders: OnceLock::new(),
            fast: OnceLock::new(),
        }
    }

    /// The target's tables.
    pub fn target(&self) -> &'a TargetInfo<'t> {
        self.target
    }

    /// The base allocation orders, made on the first call.
    pub(crate) fn orders(&self) -> &TargetOrders {
        self.orders.get_or_init(|| TargetOrders::new(self.target))
    }

    /// The fast allocator's tables, made on the first call.
    pub(crate) fn fast_tables(&self) -> &fast::TargetTables {
        self.fast
            .get_or_init(|| fast::TargetTables::new(self.target))
    }
}

impl std::fmt::Debug for TargetContext<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TargetContext")
            .field("target", &self.target.name)
            .field("orders_made", &self.orders.get().is_some())
            .field("fast_tables_made", &self.fast.get().is_some())
            .finish()
    }
}

/// One thread's reusable allocation state: buffers that grow to the
/// largest function seen and are reused by the next, and the pass timing
/// table ([`AllocContext::set_time_passes`]). Make one per thread and pass
/// it to every allocation on that thread; it may serve any target.
#[derive(Default)]
pub struct AllocContext {
    /// Per-block scratch of the live-range computation.
    pub(crate) ranges: RangeBuilder,
    /// The fast allocator's per-function buffers.
    pub(crate) fast: fast::Buffers,
    /// Wall time per pass, when on.
    pub(crate) timer: PassTimer,
    /// The rounds of the last function allocated by exact PBQP.
    pub(crate) pbqp_exact_rounds: Vec<ExactRound>,
    /// The allocation events, when the caller asked for them.
    pub(crate) events: EventLog,
}

impl AllocContext {
    /// A context with empty buffers and timing off.
    pub fn new() -> AllocContext {
        AllocContext::default()
    }

    /// Turns per-pass timing on or off for the allocations made with this
    /// context (LLVM's `-time-passes`).
    pub fn set_time_passes(&mut self, on: bool) {
        self.timer.enable(on);
    }

    /// Whether per-pass timing is on.
    pub fn time_passes(&self) -> bool {
        self.timer.enabled()
    }

    /// The pass times gathered so far.
    pub fn pass_times(&self) -> &PassTimes {
        self.timer.times()
    }

    /// The pass times gathered since the last call, leaving the table
    /// empty.
    pub fn take_pass_times(&mut self) -> PassTimes {
        self.timer.take()
    }

    /// The rounds of the last function allocated with
    /// [`Allocator::PbqpExact`](crate::Allocator::PbqpExact) on this
    /// context (one per solve: whether it was proven optimal, and the
    /// model's cost of the heuristic's solution and of the optimum),
    /// leaving none. Observed, never read by an allocator.
    pub fn take_pbqp_exact_rounds(&mut self) -> Vec<ExactRound> {
        std::mem::take(&mut self.pbqp_exact_rounds)
    }

    /// Turns the event log on (empty) or off for the allocations made
    /// with this context: with it on, each allocation appends what it
    /// decided ([`crate::events`]), for [`AllocContext::take_events`]. The
    /// allocated code is the same either way.
    pub fn record_events(&mut self, on: bool) {
        self.events.set(on);
    }

    /// The events of the allocations since the last call (empty when the
    /// log is off), leaving the log as it was, empty.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.events.take()
    }
}

impl std::fmt::Debug for AllocContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AllocContext")
            .field("time_passes", &self.timer.enabled())
            .finish_non_exhaustive()
    }
}

/// The promises the types make to a caller that allocates on several
/// threads, checked when the crate builds.
const _: () = {
    const fn shared_by_threads<T: Sync + Send>() {}
    const fn moved_to_a_thread<T: Send>() {}
    shared_by_threads::<TargetContext<'static, 'static>>();
    moved_to_a_thread::<AllocContext>();
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::fixtures::bpf;
    use crate::{Allocator, Options, allocate_recorded, allocate_recorded_with_context};

    /// A function with more values live across a call and into another
    /// block than BPF keeps in registers there, so that every allocator
    /// spills.
    fn pressure() -> crate::ir::MachineFunction {
        let n = 8;
        let mut text = String::from("---\nname: p\ntracksRegLiveness: true\nregisters:\n");
        for v in 0..=n {
            text += &format!("  - {{ id: {v}, class: gpr }}\n");
        }
        text += "liveins:\n  - { reg: '$r1' }\nbody: |\n  bb.0:\n    successors: %bb.1\n    liveins: $r1\n";
        for v in 0..n {
            // Not a constant: a value to keep, not to recompute.
            text += &format!("    %{v}:gpr = COPY $r1\n    %{v}:gpr = ADD_ri %{v}, {v}\n");
        }
        text += "    JAL @g, csr, implicit-def $r0\n    JMP %bb.1\n  bb.1:\n";
        text += &format!("    %{n}:gpr = COPY %0\n");
        for v in 1..n {
            text += &format!("    %{n}:gpr = ADD_rr %{n}, %{v}\n");
        }
        text += &format!("    $r0 = COPY %{n}\n    RET implicit $r0\n...\n");
        let file = crate::mir::read(bpf(), "p.mir", &text);
        file.read_functions().next().expect("read").clone()
    }

    #[test]
    fn one_context_many_functions_same_result_as_fresh_contexts() {
        let target = TargetContext::new(bpf());
        for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
            let options = Options {
                allocator,
                check: true,
            };
            let mut ctx = AllocContext::new();
            for _ in 0..3 {
                let mut kept = pressure();
                let mut fresh = pressure();
                let a =
                    allocate_recorded_with_context(&target, &mut ctx, &mut kept, &options).unwrap();
                let b = allocate_recorded(bpf(), &mut fresh, &options).unwrap();
                assert_eq!(kept, fresh, "{allocator:?}");
                assert_eq!(a.0, b.0, "{allocator:?}");
                assert!(a.0.spills > 0, "{allocator:?} spills: {:?}", a.0);
            }
        }
    }

    #[test]
    fn timing_is_per_context() {
        let target = TargetContext::new(bpf());
        let options = Options::default();
        let mut timed = AllocContext::new();
        timed.set_time_passes(true);
        let mut untimed = AllocContext::new();
        allocate_recorded_with_context(&target, &mut timed, &mut pressure(), &options).unwrap();
        allocate_recorded_with_context(&target, &mut untimed, &mut pressure(), &options).unwrap();
        assert!(untimed.pass_times().is_empty());
        assert_eq!(
            timed.pass_times().runs(crate::timing::Pass::LiveIntervals),
            1
        );
        assert_eq!(
            timed.take_pass_times().runs(crate::timing::Pass::Rewrite),
            2
        );
        assert!(timed.pass_times().is_empty());
    }

    #[test]
    fn threads_share_one_target_context() {
        let target = TargetContext::new(bpf());
        let options = Options {
            allocator: Allocator::Fast,
            check: true,
        };
        let mut alone = pressure();
        allocate_recorded(bpf(), &mut alone, &options).unwrap();
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    let mut ctx = AllocContext::new();
                    let mut f = pressure();
                    allocate_recorded_with_context(&target, &mut ctx, &mut f, &options).unwrap();
                    assert_eq!(f, alone);
                });
            }
        });
    }
}
