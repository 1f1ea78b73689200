//! What Basic, PBQP and linear scan start a function with and hand back at its end (LLVM's `RegAllocBase`): the virtual register map, the interference matrix, the function's allocation orders and the spiller.
//!
//! The three allocators differ in how they choose registers, not in what
//! they choose with: each used to build these four itself, line for line
//! alike, and to assemble its [`Decisions`] the same way. Greedy starts
//! from the same pieces but moves the fixed ranges into its matrix
//! (`LiveRegMatrix::taking_fixed`) and hands back split copies too, so it
//! keeps its own set-up.

use crate::analysis::Analyses;
use crate::ir::{MachineFunction, VReg};
use crate::target::TargetInfo;

use super::matrix::LiveRegMatrix;
use super::order::{ClassOrders, TargetOrders};
use super::spiller::Spiller;
use super::virtmap::VirtRegMap;
use super::{Decisions, tracks_sub_reg_liveness};

/// One function's allocation state shared by the interval-based
/// allocators other than Greedy.
pub(crate) struct RegAllocBase {
    /// The function's instruction count before allocation.
    original_insts: usize,
    /// Whether interference follows sub-register lanes.
    lanes: bool,
    /// Where each virtual register is (empty at the start).
    pub vrm: VirtRegMap,
    /// The fixed unit ranges and call masks of the function; no virtual
    /// register is in it at the start.
    pub matrix: LiveRegMatrix,
    /// The function's allocation orders (its reserved registers and
    /// callee-saved set decided).
    pub orders: ClassOrders,
    /// The spill code and slots, none yet.
    pub spiller: Spiller,
}

impl RegAllocBase {
    /// The state before allocating `func`, whose analyses are `an`, with
    /// the target's base orders `orders`.
    pub fn new(
        t: &TargetInfo<'_>,
        orders: &TargetOrders,
        func: &MachineFunction,
        an: &Analyses,
    ) -> RegAllocBase {
        let lanes = tracks_sub_reg_liveness(t);
        RegAllocBase {
            original_insts: func.insts.len(),
            lanes,
            vrm: VirtRegMap::new(func.vregs.len()),
            matrix: LiveRegMatrix::new(t, &an.intervals, lanes),
            orders: ClassOrders::new(t, orders, func),
            spiller: Spiller::new(func),
        }
    }

    /// What the allocation decided, with the analyses as it left them
    /// (spill products have intervals too), for the pipeline to apply.
    pub fn into_decisions(self, an: Analyses) -> Decisions {
        Decisions {
            original_insts: self.original_insts,
            reserved: self.orders.reserved().to_vec(),
            analyses: an,
            assignment: self.vrm,
            spill_code: self.spiller.code,
            split_copies: Vec::new(),
            lanes: self.lanes,
        }
    }
}

/// The virtual registers with a live interval, in number order: those
/// an allocator has to place.
pub(crate) fn vregs_to_allocate(an: &Analyses) -> Vec<VReg> {
    (0..an.intervals.vregs.len())
        .map(VReg::new)
        .filter(|&v| an.intervals.vreg(v).is_some())
        .collect()
}
