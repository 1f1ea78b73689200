//! The allocators (fast, basic, greedy, PBQP, linear scan) and their shared machinery: live register matrix, allocation order, virtual register map, spiller, split kit.
//!
//! Basic and Greedy return their `Decisions` (each virtual register's
//! register, the spill code, the split copies) and change no instruction;
//! [`crate::pipeline`] applies them, and from the rewriter's
//! [`AllocRecord`](crate::AllocRecord) the symbolic checker ([`crate::check`]) reads the
//! allocated code and [`Stats`](crate::Stats) are counted. Fast, as LLVM's, rewrites each
//! instruction as it allocates it and returns the record itself.
//!
//! The entry point is [`crate::allocate`] (the pipeline).

mod base;
pub mod context;
pub mod hoist_spills;
pub mod inflate;
pub mod matrix;
pub mod order;
pub mod redundant_spills;
pub(crate) mod remat;
pub mod spiller;
pub mod split;
pub mod virtmap;

pub use spiller::SpillCode;
pub use virtmap::VirtRegMap;

use crate::analysis::{Analyses, LiveRange};
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{Inst, MachineFunction, VReg};
use crate::target::{RegClass, TargetInfo};

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

/// Whether interference and rewriting follow sub-register lanes, as the
/// description says ([`TargetInfo::tracks_sub_reg_liveness`]): LLVM 19
/// tracks sub-register liveness on Hexagon only (`enableSubRegLiveness`),
/// and our descriptions say so, to allocate what LLVM allocates.
pub fn tracks_sub_reg_liveness(t: &TargetInfo<'_>) -> bool {
    t.tracks_sub_reg_liveness
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

/// The class of `v`, or an error placed at `range` when it has none the
/// target knows.
pub(crate) fn class_of(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    v: VReg,
    range: &LiveRange,
) -> Result<RegClass, AllocError> {
    func.vreg_class(v)
        .filter(|c| c.index() < t.classes.len())
        .ok_or_else(|| {
            let message = format!("{} has no register class", func.vreg_text(v));
            place_error(
                AllocError::new(AllocErrorKind::Unsupported, &func.name, message),
                an,
                range,
            )
        })
}

/// The error for `v`, of `class`, whose allocation order is empty,
/// placed at `range`.
pub(crate) fn no_allocatable_register(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    v: VReg,
    class: RegClass,
    range: &LiveRange,
) -> AllocError {
    let message = format!(
        "class {} of {} has no allocatable register",
        t.class(class).name,
        func.vreg_text(v)
    );
    place_error(
        AllocError::new(AllocErrorKind::OutOfRegisters, &func.name, message),
        an,
        range,
    )
}

pub mod basic;
pub mod fast;
pub mod greedy;
pub mod linear_scan;
pub mod pbqp;
