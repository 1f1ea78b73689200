//! LLVM's pre-allocation passes: from SSA machine code with PHIs to the form the allocators take.
//!
//! LLVM 19 runs, between instruction selection's SSA output
//! (`llc -stop-before=detect-dead-lanes`) and the allocator:
//! `detect-dead-lanes`, `init-undef`, `processimpdefs`,
//! `unreachable-mbb-elimination`, `livevars`, `phi-node-elimination`,
//! `twoaddressinstruction`, live intervals, `register-coalescer`,
//! `rename-independent-subregs` and the machine scheduler. This module
//! holds the ones that exist here, one file each, named as LLVM's source
//! file, each doing what LLVM's does so that its output can be diffed
//! against `llc -stop-after=NAME` on the same input:
//!
//! - [`detect_dead_lanes`] (`detect-dead-lanes`): where the description
//!   says liveness follows sub-register lanes (`TracksSubRegLiveness`, our
//!   Hexagon), definitions no lane of which is read marked `dead`, reads
//!   of lanes never defined (or feeding only unread lanes of a copy)
//!   marked `undef`, through COPY, PHI, REG_SEQUENCE, INSERT_SUBREG and
//!   EXTRACT_SUBREG; elsewhere nothing;
//! - [`process_implicit_defs`] (`processimpdefs`): `IMPLICIT_DEF`s of
//!   virtual registers removed, their readers marked `undef`;
//! - [`unreachable_block_elim`] (`unreachable-mbb-elimination`): blocks the
//!   entry cannot reach removed, PHIs pruned to the remaining
//!   predecessors, single-input PHIs replaced;
//! - [`live_variables`] (`livevars`): kill and dead flags recomputed for
//!   virtual and physical registers, and the per-register facts
//!   ([`LiveVariables`]) PHI elimination keeps up to date;
//! - [`phi_elimination`] (`phi-node-elimination`): critical edges split
//!   where LLVM splits them (from the branch facts of the target
//!   description), then PHIs lowered to copies at the ends of the
//!   predecessors;
//! - [`two_address`] (`twoaddressinstruction`): tied operands lowered to
//!   copies, after commuting, moving or converting instructions to their
//!   three-address forms where LLVM would to save the copy; `REG_SEQUENCE`
//!   and `INSERT_SUBREG` lowered to sub-register copies;
//! - [`register_coalescer`] (`register-coalescer`): whole-register copies
//!   between virtual registers joined where their values never conflict,
//!   copies of cheap constants rematerialized, on the live intervals the
//!   allocators use.
//!
//! Not here yet: the coalescer's joins between two sub-registers and
//! `rename-independent-subregs`. `init-undef` runs only for subtargets
//! that ask for it (`supportsInitUndef`: RISC-V and ARM in LLVM 19), none
//! of ours: on all four it changes nothing, and needs no pass here.
//! [`Pass`] lists what can run.
//!
//! The allocation pipeline ([`crate::pipeline`]) runs these passes on SSA
//! input before any allocator, along one of LLVM's two paths ([`Path`]):
//! LLVM chooses by optimization level (`TargetPassConfig`'s
//! `addOptimizedRegAlloc` at -O1 and above, `addFastRegAlloc` at -O0),
//! and here the allocator stands for the level, since Fast is the
//! allocator of -O0 code and the others of optimized code. The
//! optimized path is every pass above through `register-coalescer`; the
//! fast path only `phi-node-elimination` and `twoaddressinstruction`,
//! without the `livevars` facts (so no critical edge is split, as LLVM's
//! PHI elimination splits none without them) and without the coalescer.
//!
//! Which passes a function still needs is read from the code itself
//! ([`first_needed`]): MIR does not print LLVM 19's function properties
//! (`NoPHIs`, `IsSSA`), and `tracksRegLiveness` is already true in SSA
//! MIR, so the facts are the ones LLVM's MIR parser recomputes: PHIs
//! present, and every virtual register defined at most once and never by
//! a sub-register definition (SSA). All passes here are idempotent on SSA
//! code but `detect-dead-lanes`, which, run again, may only add flags that
//! hold (`dead` on a value whose readers it made `undef`), as LLVM's; so
//! running them from the first on any SSA function is safe.

pub mod detect_dead_lanes;
pub mod live_variables;
pub mod phi_elimination;
pub mod process_implicit_defs;
pub mod register_coalescer;
pub mod two_address;
pub mod unreachable_block_elim;

pub(crate) mod branch;
pub(crate) mod edit;
pub(crate) mod split_critical_edge;

pub use live_variables::LiveVariables;

use crate::error::AllocError;
use crate::ir::{Generic, MachineFunction, Op, RegRef};
use crate::record::{BlockOrigin, LoweringRecord};
use crate::target::TargetInfo;

/// One pre-allocation pass, in LLVM 19's order.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Pass {
    /// `detect-dead-lanes`.
    DetectDeadLanes,
    /// `processimpdefs`.
    ProcessImplicitDefs,
    /// `unreachable-mbb-elimination`.
    UnreachableBlockElim,
    /// `livevars`.
    LiveVariables,
    /// `phi-node-elimination`.
    PhiElimination,
    /// `twoaddressinstruction`.
    TwoAddress,
    /// `register-coalescer`.
    RegisterCoalescer,
}

impl Pass {
    /// Every pass, in the order they run.
    pub const ALL: [Pass; 7] = [
        Pass::DetectDeadLanes,
        Pass::ProcessImplicitDefs,
        Pass::UnreachableBlockElim,
        Pass::LiveVariables,
        Pass::PhiElimination,
        Pass::TwoAddress,
        Pass::RegisterCoalescer,
    ];

    /// The name LLVM registers the pass under (`-stop-after=NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Pass::DetectDeadLanes => "detect-dead-lanes",
            Pass::ProcessImplicitDefs => "processimpdefs",
            Pass::UnreachableBlockElim => "unreachable-mbb-elimination",
            Pass::LiveVariables => "livevars",
            Pass::PhiElimination => "phi-node-elimination",
            Pass::TwoAddress => "twoaddressinstruction",
            Pass::RegisterCoalescer => "register-coalescer",
        }
    }

    /// The pass LLVM registers as `name`, if it is one of ours.
    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Which of LLVM's two pre-allocation paths a function takes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Path {
    /// LLVM's `addOptimizedRegAlloc` (-O1 and above): every pass of
    /// [`Pass::ALL`], for the Basic, Greedy, PBQP and linear scan
    /// allocators.
    Optimized,
    /// LLVM's `addFastRegAlloc` (-O0): PHI elimination and two-address
    /// lowering only, for the Fast allocator.
    Fast,
}

impl Path {
    /// Whether `pass` runs on this path.
    pub fn runs(self, pass: Pass) -> bool {
        match self {
            Path::Optimized => true,
            Path::Fast => matches!(pass, Pass::PhiElimination | Pass::TwoAddress),
        }
    }
}

/// The passes `func` still needs on `path` ([`first_needed`]), in the
/// order they run: none for a function already past them.
pub fn needed(func: &MachineFunction, path: Path) -> Vec<Pass> {
    let Some(first) = first_needed(func) else {
        return Vec::new();
    };
    Pass::ALL
        .into_iter()
        .filter(|&p| p >= first && path.runs(p))
        .collect()
}

/// Facts one pass leaves for the next: LLVM keeps analyses alive between
/// passes the same way (PHI elimination updates the live variables the
/// `livevars` pass computed).
#[derive(Default)]
pub struct PassState {
    /// The result of `livevars`, kept up to date by the passes after it.
    pub live_variables: Option<LiveVariables>,
    /// Where each block came from, kept up to date by the passes that
    /// remove, add or renumber blocks, when recording
    /// ([`run_until_recorded`]; `None` otherwise).
    pub block_origins: Option<Vec<BlockOrigin>>,
}

/// The first pass `func` still needs, decided from its code: `None` when
/// it is past all of them (not SSA and without PHIs: two-address lowering
/// has run, as in MIR stopped before an allocator).
pub fn first_needed(func: &MachineFunction) -> Option<Pass> {
    (has_phis(func) || is_ssa(func)).then_some(Pass::DetectDeadLanes)
}

/// Whether some block holds a PHI.
pub fn has_phis(func: &MachineFunction) -> bool {
    func.inst_ids()
        .any(|i| func.inst(i).op == Op::Generic(Generic::Phi))
}

/// Whether `func` is in SSA form as LLVM's MIR parser decides it: every
/// virtual register has at most one definition, and none is a
/// sub-register definition.
pub fn is_ssa(func: &MachineFunction) -> bool {
    let mut defined = vec![false; func.vregs.len()];
    for i in func.inst_ids() {
        for o in &func.inst(i).operands {
            let Some(r) = o.as_reg() else { continue };
            let RegRef::Virt(v) = r.reg else { continue };
            if !r.is_def() {
                continue;
            }
            if r.sub.is_some() || std::mem::replace(&mut defined[v.index()], true) {
                return false;
            }
        }
    }
    true
}

/// Runs on `func` the passes it still needs ([`first_needed`]) up to and
/// including `stop_after`, in LLVM's order; returns the passes run.
pub fn run_until(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    stop_after: Pass,
) -> Result<Vec<Pass>, AllocError> {
    run_until_recorded(target, func, stop_after).map(|(ran, _)| ran)
}

/// [`run_until`], also returning the record the lowering checker reads
/// (`check::check_lowering`): where each block of the result came from.
pub fn run_until_recorded(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    stop_after: Pass,
) -> Result<(Vec<Pass>, LoweringRecord), AllocError> {
    let mut record = LoweringRecord::identity(func.blocks.len());
    let Some(first) = first_needed(func) else {
        return Ok((Vec::new(), record));
    };
    let mut state = PassState {
        block_origins: Some(std::mem::take(&mut record.block_origins)),
        ..PassState::default()
    };
    let mut ran = Vec::new();
    for pass in Pass::ALL
        .into_iter()
        .filter(|&p| p >= first && p <= stop_after)
    {
        run(target, func, pass, &mut state)?;
        ran.push(pass);
    }
    record.block_origins = state.block_origins.unwrap_or_default();
    Ok((ran, record))
}

/// Runs one pass.
pub fn run(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    pass: Pass,
    state: &mut PassState,
) -> Result<(), AllocError> {
    match pass {
        Pass::DetectDeadLanes => detect_dead_lanes::run(target, func)?,
        Pass::ProcessImplicitDefs => process_implicit_defs::run(target, func)?,
        Pass::UnreachableBlockElim => {
            unreachable_block_elim::run_recorded(target, func, state.block_origins.as_mut())?;
            // Block numbers changed: facts by block are stale.
            state.live_variables = None;
        }
        Pass::LiveVariables => {
            state.live_variables = Some(live_variables::run(target, func)?);
        }
        Pass::PhiElimination => phi_elimination::run_recorded(
            target,
            func,
            state.live_variables.as_mut(),
            state.block_origins.as_mut(),
        )?,
        Pass::TwoAddress => two_address::run(target, func, state.live_variables.as_mut())?,
        Pass::RegisterCoalescer => {
            register_coalescer::run(target, func)?;
            // Registers were renamed and instructions erased.
            state.live_variables = None;
        }
    }
    Ok(())
}
