//! Allocation events: what an allocator decided, step by step, for tools that show it (`regalloc view`), gathered only when the caller asks.
//!
//! The caller turns the log on in its [`AllocContext`](crate::AllocContext)
//! ([`AllocContext::record_events`](crate::AllocContext::record_events)),
//! allocates, and takes the events out
//! ([`AllocContext::take_events`](crate::AllocContext::take_events)).
//! Nothing an allocator decides reads the log: allocating with it on
//! writes the same code as with it off. With it off, noting an event is
//! one test of an `Option`, and the event is never built.
//!
//! Which allocators say what: Greedy says every assignment and
//! unassignment, eviction, split (with its kind) and spill; Basic every
//! assignment, eviction and spill; linear scan every assignment, each
//! interval it puts out of its register to make room (an eviction: the
//! evicted are spilled) and each spill; PBQP, per round, the registers
//! its solution gave and the registers it spilled; every allocator that works on live
//! intervals (all but Fast) says, once it is done, each remaining live
//! range's final register ([`Event::Final`]). Greedy also says each region
//! split candidate with its cost and its spill placement network's biases
//! and values per edge bundle ([`Event::RegionCandidate`]). Fast, which keeps no live
//! intervals, says nothing: its registers are read from the code it wrote.

use crate::analysis::LiveRange;
use crate::ir::{Block, VReg};
use crate::target::Reg;

/// How a live range was split (the greedy allocator's split kinds).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SplitKind {
    /// Around the region where a register is free, placed by spill
    /// placement (LLVM's `tryRegionSplit`).
    Region,
    /// A range per block with several uses (LLVM's `tryBlockSplit`).
    Block,
    /// Inside one block, around the uses between the heaviest gaps
    /// (LLVM's `tryLocalSplit`).
    Local,
    /// Per instruction, into a larger class (LLVM's
    /// `tryInstructionSplit`).
    Instruction,
}

impl SplitKind {
    /// The kind's name as the trace says it (`region`, `block`, `local`,
    /// `instruction`).
    pub fn name(self) -> &'static str {
        match self {
            SplitKind::Region => "region",
            SplitKind::Block => "block",
            SplitKind::Local => "local",
            SplitKind::Instruction => "instruction",
        }
    }
}

/// One step of an allocation.
#[derive(Clone, PartialEq, Debug)]
pub enum Event {
    /// `vreg` was given `reg`.
    Assign {
        /// The live range.
        vreg: VReg,
        /// Its register.
        reg: Reg,
    },
    /// `vreg` left `reg` (evicted, or moved to another register).
    Unassign {
        /// The live range.
        vreg: VReg,
        /// The register it left.
        reg: Reg,
    },
    /// `vreg` freed `reg` by evicting `evicted` (which go back to the queue
    /// or, with Basic's policy, are spilled).
    Evict {
        /// The live range that wanted the register.
        vreg: VReg,
        /// The register freed.
        reg: Reg,
        /// The live ranges taken out of it.
        evicted: Vec<VReg>,
    },
    /// `vreg` was split into `products` (new virtual registers; `vreg`
    /// itself is gone).
    Split {
        /// The range split.
        vreg: VReg,
        /// How.
        kind: SplitKind,
        /// The new ranges.
        products: Vec<VReg>,
    },
    /// A region split of `vreg` weighed candidate register `reg` at
    /// `cost` (the spill code its region implies, in block frequency);
    /// the cheapest candidate below the cost of spilling is the one split
    /// around (the [`Event::Split`] that follows, if any).
    RegionCandidate {
        /// The live range being split.
        vreg: VReg,
        /// The candidate register.
        reg: Reg,
        /// Its cost.
        cost: f32,
        /// The spill placement network's nodes as it settled for this
        /// candidate; empty when an earlier candidate's identical answer
        /// was reused instead of running the network (such a candidate
        /// can never be the cheapest).
        bundles: Vec<BundleNode>,
    },
    /// `vreg` was spilled; `products` are the short ranges the spiller
    /// made around the uses that still need a register.
    Spill {
        /// The range spilled.
        vreg: VReg,
        /// The new ranges.
        products: Vec<VReg>,
    },
    /// After allocation: a live range that remains, with the input
    /// register it stands for and its register (`None`: it has none, as a
    /// range the allocation left unassigned).
    Final {
        /// The live range (an input register, or a split or spill product).
        vreg: VReg,
        /// The input register it is a piece of.
        original: VReg,
        /// Its register.
        reg: Option<Reg>,
        /// Its segments and values, in the numbering of the function's
        /// slot indexes before allocation (inserted copies between them).
        range: LiveRange,
    },
}

/// One edge bundle of a region split's spill placement network, as it
/// settled for one candidate register.
#[derive(Clone, PartialEq, Debug)]
pub struct BundleNode {
    /// The bundle's number ([`crate::analysis::EdgeBundles`]).
    pub bundle: u32,
    /// The blocks whose entry or exit the bundle joins.
    pub blocks: Vec<Block>,
    /// The summed frequency of the borders that want the value in the
    /// register.
    pub register_bias: f64,
    /// The summed frequency of the borders that want it on the stack
    /// (infinite where one must spill).
    pub stack_bias: f64,
    /// The settled value: `1` register, `-1` stack, `0` undecided (stack).
    pub value: i8,
}

/// The log an allocation writes into when its caller asked for one.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventLog(Option<Vec<Event>>);

impl EventLog {
    /// Whether events are being gathered.
    #[inline]
    pub fn on(&self) -> bool {
        self.0.is_some()
    }

    /// Starts (with an empty log) or stops gathering.
    pub fn set(&mut self, on: bool) {
        self.0 = on.then(Vec::new);
    }

    /// Adds the event `make` builds, when gathering: built only then.
    #[inline]
    pub fn note(&mut self, make: impl FnOnce() -> Event) {
        if let Some(log) = &mut self.0 {
            log.push(make());
        }
    }

    /// The events gathered so far, leaving the log on and empty (or off).
    pub fn take(&mut self) -> Vec<Event> {
        self.0.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
