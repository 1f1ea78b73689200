//! Analyses allocation needs: CFG orders, edge bundles, dominators, loops, block frequency, slot indexes, liveness, live intervals, spill weights.
//!
//! Each analysis is a plain value computed from a [`MachineFunction`] (and
//! the ones before it); the allocation pipeline runs them in LLVM's order.
//! Numbering follows LLVM so that output can be compared with `llc`'s
//! debug dumps: slot indexes ([`slots`]), block frequencies ([`freq`]) and
//! the interval printer ([`print`](mod@print)).

mod bitset;
pub mod bundles;
pub mod cfg;
pub(crate) mod dataflow;
pub mod dom;
pub mod freq;
pub mod intervals;
pub mod loops;
pub mod phys_liveness;
pub mod print;
pub mod ranges;
pub mod slots;
pub(crate) mod stamp;
pub mod weights;

pub use bitset::BitSet;
pub use bundles::{Bundle, EdgeBundles};
pub use cfg::Cfg;
pub use dom::DomTree;
pub use freq::BlockFreq;
pub use intervals::{LiveInterval, LiveIntervals, RegMaskSlot};
pub use loops::LoopInfo;
pub use ranges::{LiveRange, Segment, ValNo};
pub use slots::{Slot, SlotIndex, SlotIndexes};
pub use weights::Hint;

use crate::ir::MachineFunction;
use crate::target::TargetInfo;

/// The control-flow analyses of one function.
#[derive(Clone, Debug)]
pub struct FlowAnalyses {
    /// CFG orders.
    pub cfg: Cfg,
    /// Dominator tree.
    pub dom: DomTree,
    /// Natural loops.
    pub loops: LoopInfo,
    /// Block frequencies.
    pub freq: BlockFreq,
}

impl FlowAnalyses {
    /// Runs the CFG, dominator, loop and frequency analyses on `f`.
    pub fn new(f: &MachineFunction) -> FlowAnalyses {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(&cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        let freq = BlockFreq::new(f, &cfg, &loops);
        FlowAnalyses {
            cfg,
            dom,
            loops,
            freq,
        }
    }
}

/// Everything the allocators need: flow analyses, intervals with weights, copy hints.
#[derive(Clone, Debug)]
pub struct Analyses {
    /// CFG, dominators, loops, frequencies.
    pub flow: FlowAnalyses,
    /// Slot indexes and live intervals, weights filled in.
    pub intervals: LiveIntervals,
    /// Copy hints of each virtual register, heaviest first.
    pub hints: Vec<Vec<(Hint, f32)>>,
}

impl Analyses {
    /// Every analysis of `f`, in LLVM's order, with lane sub-ranges: for
    /// tools that print or measure them (the allocation pipeline runs the
    /// same steps, timed, with sub-ranges where its allocator wants them).
    pub fn new(t: &TargetInfo<'_>, f: &MachineFunction) -> Analyses {
        let flow = FlowAnalyses::new(f);
        let mut ranges = ranges::RangeBuilder::default();
        let (mut intervals, users) = LiveIntervals::with_users(t, f, &flow.cfg, true, &mut ranges);
        let hints = weights::compute_weights_of(t, f, &flow, &mut intervals, &users);
        Analyses {
            flow,
            intervals,
            hints,
        }
    }
}
