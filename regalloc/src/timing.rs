//! Wall and CPU time per pass of the allocation pipeline, as LLVM's `-time-passes` reports them: off unless the caller turns it on in its [`AllocContext`](crate::AllocContext), then every pass adds its times to that context's table.
//!
//! LLVM splits register allocation into separate passes: the analyses
//! (slot indexes, live intervals, loops, block frequencies, edge bundles),
//! the allocator (which computes spill weights and runs the spiller's
//! post-optimizations, hoisting and redundant-store removal, inside it) and
//! the rewriter. Our pipeline runs the same work in one call; the table
//! names the same parts, so that [`PassTimes::allocator_line`] can be set
//! beside the `Greedy Register Allocator` line of `llc -time-passes` and
//! [`PassTimes::total`] beside the sum of the passes between the machine
//! scheduler and the rewriter. On SSA input the pre-allocation passes
//! ([`crate::passes`]) run first, each on its own line under LLVM's name
//! for it, and count in the total (which then sits beside LLVM's passes
//! from `detect-dead-lanes` to the rewriter, less its machine scheduler);
//! on input already past them they do not run and add nothing.
//!
//! Timing costs four clock reads per pass and function (wall clock and
//! the thread's CPU clock); when it is off, one flag read. The CPU time
//! is the calling thread's (user and system, as LLVM's `User+System`
//! column): on a shared machine the wall time of a pass includes the time
//! other processes held the core, its CPU time does not, so ratios
//! against another tool measured at another moment are read from CPU
//! time. Where the platform has no per-thread CPU clock (not Unix), the
//! CPU column stays zero and says so. The table belongs to the caller's context, not to a thread:
//! a caller that allocates on several threads, one context each, adds the
//! threads' tables up ([`PassTimes::add`]).

use std::fmt;
use std::time::{Duration, Instant};

/// One pass of the pipeline.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Pass {
    /// LLVM's `detect-dead-lanes`, on SSA input ([`crate::passes`]).
    DetectDeadLanes,
    /// LLVM's `processimpdefs`, on SSA input.
    ProcessImplicitDefs,
    /// LLVM's `unreachable-mbb-elimination`, on SSA input.
    UnreachableBlockElim,
    /// LLVM's `livevars`, on SSA input.
    LiveVariables,
    /// LLVM's `phi-node-elimination`, on SSA input.
    PhiElimination,
    /// LLVM's `twoaddressinstruction`, on SSA input.
    TwoAddress,
    /// LLVM's `register-coalescer`, on SSA input.
    RegisterCoalescer,
    /// CFG, dominators, loops and block frequencies (LLVM's analysis
    /// passes of those names).
    FlowAnalyses,
    /// Slot indexes and the live intervals of virtual registers and
    /// register units (LLVM's `Slot index numbering` and `Live Interval
    /// Analysis`; LLVM computes most units' ranges lazily, inside its
    /// allocator pass).
    LiveIntervals,
    /// Spill weights and copy hints (inside LLVM's allocator pass).
    SpillWeights,
    /// The allocator proper: queue, assignment, eviction, splitting,
    /// spilling (for Fast: the whole allocator, which needs no analyses).
    Allocate,
    /// Recoloring ranges towards their copy hints after allocation.
    HintRecoloring,
    /// Moving spills to colder blocks (LLVM's spiller post-optimization).
    SpillHoisting,
    /// Removing stores of values the slot already holds.
    RedundantSpills,
    /// Rewriting virtual registers to physical ones, inserting the spill
    /// code, recomputing flags and block live-ins (LLVM's `Virtual Register
    /// Rewriter`).
    Rewrite,
    /// Serving reloads from registers that still hold the slot (not in
    /// LLVM; it runs before the rewriter's live-in update).
    ReloadReuse,
    /// Machine copy propagation after allocation (LLVM's `machine-cp`),
    /// when asked for.
    CopyPropagation,
    /// The symbolic checker, when asked for.
    Check,
}

impl Pass {
    /// Every pass, in pipeline order.
    pub const ALL: [Pass; 18] = [
        Pass::DetectDeadLanes,
        Pass::ProcessImplicitDefs,
        Pass::UnreachableBlockElim,
        Pass::LiveVariables,
        Pass::PhiElimination,
        Pass::TwoAddress,
        Pass::RegisterCoalescer,
        Pass::FlowAnalyses,
        Pass::LiveIntervals,
        Pass::SpillWeights,
        Pass::Allocate,
        Pass::HintRecoloring,
        Pass::SpillHoisting,
        Pass::RedundantSpills,
        Pass::Rewrite,
        Pass::ReloadReuse,
        Pass::CopyPropagation,
        Pass::Check,
    ];

    /// The pass's name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Pass::DetectDeadLanes => "Detect Dead Lanes",
            Pass::ProcessImplicitDefs => "Process Implicit Definitions",
            Pass::UnreachableBlockElim => "Remove unreachable machine basic blocks",
            Pass::LiveVariables => "Live Variable Analysis",
            Pass::PhiElimination => "Eliminate PHI nodes for register allocation",
            Pass::TwoAddress => "Two-Address instruction pass",
            Pass::RegisterCoalescer => "Register Coalescer",
            Pass::FlowAnalyses => "Flow analyses (CFG, dominators, loops, frequencies)",
            Pass::LiveIntervals => "Slot indexes and Live Interval Analysis",
            Pass::SpillWeights => "Spill weights and hints",
            Pass::Allocate => "Register Allocator",
            Pass::HintRecoloring => "Hint recoloring",
            Pass::SpillHoisting => "Spill hoisting",
            Pass::RedundantSpills => "Redundant spill removal",
            Pass::Rewrite => "Virtual Register Rewriter",
            Pass::ReloadReuse => "Reload reuse",
            Pass::CopyPropagation => "Machine Copy Propagation",
            Pass::Check => "Symbolic checker",
        }
    }

    /// Whether LLVM does this work inside its allocator pass (or, for
    /// reload reuse, which LLVM does not do at all, whether it is part of
    /// ours): the passes [`PassTimes::allocator_line`] sums.
    pub fn in_allocator_line(self) -> bool {
        matches!(
            self,
            Pass::SpillWeights
                | Pass::Allocate
                | Pass::HintRecoloring
                | Pass::SpillHoisting
                | Pass::RedundantSpills
                | Pass::ReloadReuse
        )
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Accumulated wall time, CPU time and run count per pass.
#[derive(Clone, Default, Debug, PartialEq)]
pub struct PassTimes {
    times: [Duration; Pass::ALL.len()],
    cpu: [Duration; Pass::ALL.len()],
    runs: [u32; Pass::ALL.len()],
}

impl PassTimes {
    /// The wall time spent in `pass`.
    pub fn get(&self, pass: Pass) -> Duration {
        self.times[pass.index()]
    }

    /// The CPU time (user and system) the allocating thread spent in
    /// `pass`; zero where the platform has no per-thread CPU clock.
    pub fn cpu(&self, pass: Pass) -> Duration {
        self.cpu[pass.index()]
    }

    /// The CPU time of the passes [`PassTimes::allocator_line`] sums.
    pub fn allocator_line_cpu(&self) -> Duration {
        Pass::ALL
            .iter()
            .filter(|p| p.in_allocator_line())
            .map(|&p| self.cpu(p))
            .sum()
    }

    /// The CPU time of every pass but the checker.
    pub fn total_cpu(&self) -> Duration {
        Pass::ALL
            .iter()
            .filter(|&&p| p != Pass::Check)
            .map(|&p| self.cpu(p))
            .sum()
    }

    /// How many times `pass` ran.
    pub fn runs(&self, pass: Pass) -> u32 {
        self.runs[pass.index()]
    }

    /// The time of the passes that LLVM runs inside its allocator pass
    /// ([`Pass::in_allocator_line`]).
    pub fn allocator_line(&self) -> Duration {
        Pass::ALL
            .iter()
            .filter(|p| p.in_allocator_line())
            .map(|&p| self.get(p))
            .sum()
    }

    /// The time of every pass but the checker.
    pub fn total(&self) -> Duration {
        Pass::ALL
            .iter()
            .filter(|&&p| p != Pass::Check)
            .map(|&p| self.get(p))
            .sum()
    }

    /// Adds `other`'s times and runs to these.
    pub fn add(&mut self, other: &PassTimes) {
        for i in 0..Pass::ALL.len() {
            self.times[i] += other.times[i];
            self.cpu[i] += other.cpu[i];
            self.runs[i] += other.runs[i];
        }
    }

    /// Whether nothing was timed.
    pub fn is_empty(&self) -> bool {
        self.runs.iter().all(|&n| n == 0)
    }
}

/// A table in the manner of LLVM's `-time-passes` report: CPU time
/// (user and system) and wall time of each pass that ran with its share,
/// the allocator line and the total.
impl fmt::Display for PassTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total().as_secs_f64();
        let total_cpu = self.total_cpu().as_secs_f64();
        let share = |d: Duration, of: f64| {
            if of > 0.0 {
                100.0 * d.as_secs_f64() / of
            } else {
                0.0
            }
        };
        let rule =
            "===-------------------------------------------------------------------------===";
        writeln!(f, "{rule}")?;
        writeln!(
            f,
            "                      Register allocation pass timing report"
        )?;
        writeln!(f, "{rule}")?;
        writeln!(
            f,
            "  Total Execution Time: {total_cpu:.4} seconds ({total:.4} wall clock)"
        )?;
        if !THREAD_CPU_CLOCK {
            writeln!(
                f,
                "  (no per-thread CPU clock on this platform: CPU times are 0)"
            )?;
        }
        writeln!(f)?;
        writeln!(f, "   --User+System--   ---Wall Time---    --- Name ---")?;
        let row = |f: &mut fmt::Formatter<'_>, cpu: Duration, wall: Duration, name: &str| {
            writeln!(
                f,
                "   {:.4} ({:5.1}%)   {:.4} ({:5.1}%)  {name}",
                cpu.as_secs_f64(),
                share(cpu, total_cpu),
                wall.as_secs_f64(),
                share(wall, total),
            )
        };
        for p in Pass::ALL {
            if self.runs(p) == 0 {
                continue;
            }
            let mark = if p.in_allocator_line() { '*' } else { ' ' };
            row(f, self.cpu(p), self.get(p), &format!("{mark} {}", p.name()))?;
        }
        row(
            f,
            self.allocator_line_cpu(),
            self.allocator_line(),
            "  Allocator line (the passes marked *: LLVM's allocator pass)",
        )?;
        write!(
            f,
            "   {total_cpu:.4} (100.0%)   {total:.4} (100.0%)    Total"
        )
    }
}

/// Whether [`thread_cpu_time`] reads a real clock on this platform.
const THREAD_CPU_CLOCK: bool = cfg!(unix);

/// The CPU time the calling thread has used so far (user and system), or
/// zero where the platform has no per-thread CPU clock.
pub fn thread_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the clock id is a
        // constant every Unix libc defines. On failure (never expected
        // for this clock) `ts` stays zero and the pass gets no CPU time.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
        Duration::ZERO
    }
    #[cfg(not(unix))]
    {
        Duration::ZERO
    }
}

/// The two clocks when a pass starts.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Start {
    wall: Instant,
    cpu: Duration,
}

/// Pass timing for the allocations made with one context: off, or on and
/// adding each pass's wall and CPU time to a table.
#[derive(Clone, Default, Debug)]
pub(crate) struct PassTimer {
    on: bool,
    times: PassTimes,
}

impl PassTimer {
    /// Turns timing on or off.
    pub fn enable(&mut self, on: bool) {
        self.on = on;
    }

    /// Whether timing is on.
    pub fn enabled(&self) -> bool {
        self.on
    }

    /// The times gathered so far.
    pub fn times(&self) -> &PassTimes {
        &self.times
    }

    /// The times gathered since the last call, leaving the table empty.
    pub fn take(&mut self) -> PassTimes {
        std::mem::take(&mut self.times)
    }

    /// Runs `f` as `pass`, adding its wall and CPU time to the table when
    /// timing is on.
    pub(crate) fn time<R>(&mut self, pass: Pass, f: impl FnOnce() -> R) -> R {
        let start = self.start();
        let r = f();
        self.stop(pass, start);
        r
    }

    /// `pass` timed until the returned scope is dropped (for a pass that
    /// is a stretch of a function rather than a call; the timer is
    /// borrowed until then).
    pub(crate) fn scope(&mut self, pass: Pass) -> Scope<'_> {
        Scope {
            start: self.start(),
            pass,
            timer: self,
        }
    }

    /// The clocks when timing is on.
    fn start(&self) -> Option<Start> {
        self.on.then(|| Start {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        })
    }

    /// Adds the times since `start` to `pass` (nothing when timing was
    /// off).
    fn stop(&mut self, pass: Pass, start: Option<Start>) {
        let Some(start) = start else { return };
        let i = pass.index();
        self.times.times[i] += start.wall.elapsed();
        self.times.cpu[i] += thread_cpu_time().saturating_sub(start.cpu);
        self.times.runs[i] += 1;
    }
}

/// A pass that is running: its time is added when the scope is dropped.
pub(crate) struct Scope<'a> {
    timer: &'a mut PassTimer,
    pass: Pass,
    start: Option<Start>,
}

impl Drop for Scope<'_> {
    fn drop(&mut self) {
        self.timer.stop(self.pass, self.start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_by_default_and_nothing_recorded() {
        let mut timer = PassTimer::default();
        assert!(!timer.enabled());
        assert_eq!(timer.time(Pass::Allocate, || 7), 7);
        drop(timer.scope(Pass::Rewrite));
        assert!(timer.take().is_empty());
    }

    #[test]
    fn times_add_up_per_pass_and_take_empties() {
        let mut timer = PassTimer::default();
        timer.enable(true);
        timer.time(Pass::LiveIntervals, || {
            std::thread::sleep(Duration::from_millis(2))
        });
        timer.time(Pass::Allocate, || {
            std::thread::sleep(Duration::from_millis(2))
        });
        {
            let _allocating = timer.scope(Pass::Allocate);
        }
        timer.enable(false);
        timer.time(Pass::Allocate, || {
            std::thread::sleep(Duration::from_millis(2))
        });
        assert_eq!(timer.times().runs(Pass::Allocate), 2);
        let t = timer.take();
        assert_eq!(t.runs(Pass::Allocate), 2);
        assert_eq!(t.runs(Pass::LiveIntervals), 1);
        assert_eq!(t.runs(Pass::Rewrite), 0);
        assert!(t.get(Pass::LiveIntervals) >= Duration::from_millis(2));
        assert_eq!(t.allocator_line(), t.get(Pass::Allocate));
        assert_eq!(
            t.total(),
            t.get(Pass::Allocate) + t.get(Pass::LiveIntervals)
        );
        assert!(timer.take().is_empty());
    }

    #[test]
    fn timers_are_independent_and_their_tables_add() {
        let mut a = PassTimer::default();
        let mut b = PassTimer::default();
        a.enable(true);
        a.time(Pass::Rewrite, || ());
        b.time(Pass::Rewrite, || ());
        assert!(b.take().is_empty(), "b was never turned on");
        b.enable(true);
        b.time(Pass::Rewrite, || ());
        b.time(Pass::Check, || ());
        let mut sum = a.take();
        sum.add(&b.take());
        assert_eq!(sum.runs(Pass::Rewrite), 2);
        assert_eq!(sum.runs(Pass::Check), 1);
    }

    #[test]
    fn report_lists_the_passes_that_ran() {
        let mut t = PassTimes::default();
        let ms = Duration::from_millis;
        t.times[Pass::LiveIntervals.index()] = ms(1);
        t.cpu[Pass::LiveIntervals.index()] = ms(1);
        t.runs[Pass::LiveIntervals.index()] = 3;
        t.times[Pass::Allocate.index()] = ms(3);
        t.cpu[Pass::Allocate.index()] = ms(1);
        t.runs[Pass::Allocate.index()] = 3;
        let text = t.to_string();
        let want = "\
===-------------------------------------------------------------------------===
                      Register allocation pass timing report
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0020 seconds (0.0040 wall clock)

   --User+System--   ---Wall Time---    --- Name ---
   0.0010 ( 50.0%)   0.0010 ( 25.0%)    Slot indexes and Live Interval Analysis
   0.0010 ( 50.0%)   0.0030 ( 75.0%)  * Register Allocator
   0.0010 ( 50.0%)   0.0030 ( 75.0%)    Allocator line (the passes marked *: LLVM's allocator pass)
   0.0020 (100.0%)   0.0040 (100.0%)    Total";
        assert_eq!(text, want);
    }

    #[test]
    fn cpu_time_counts_work_and_not_sleep() {
        let mut timer = PassTimer::default();
        timer.enable(true);
        timer.time(Pass::Rewrite, || {
            std::thread::sleep(Duration::from_millis(30))
        });
        let spin = Instant::now();
        timer.time(Pass::Allocate, || {
            let mut x = 0u64;
            while spin.elapsed() < Duration::from_millis(30) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        });
        let t = timer.take();
        assert!(t.get(Pass::Rewrite) >= Duration::from_millis(30));
        if THREAD_CPU_CLOCK {
            assert!(t.cpu(Pass::Rewrite) < Duration::from_millis(15), "{t:?}");
            assert!(t.cpu(Pass::Allocate) > Duration::ZERO, "{t:?}");
            assert!(t.cpu(Pass::Allocate) > t.cpu(Pass::Rewrite), "{t:?}");
        }
    }
}
