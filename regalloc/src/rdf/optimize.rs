//! The RDF optimiser of one function, as LLVM's `hexagon-rdf-opt` runs it: copy propagation on the graph, dead-code elimination, and, when either changed the code, each block's live-ins and the kill flags recomputed from a graph of the result.

use crate::ir::{BlockLiveIn, MachineFunction, Operand, RegFlags, RegRef};
use crate::target::{LaneMask, TargetInfo};

use super::build::DataFlowGraph;
use super::copy_prop::apply_rewrites;
use super::dead_code::remove_instructions;
use super::liveness::Liveness;
use super::regs::{RegId, RegisterRef};
use super::{BLOCK_LIMIT, reserved_regs};

/// What the optimiser did to one function.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct RdfOptimization {
    /// Uses that read a copy's source instead of its destination.
    pub rewritten: usize,
    /// Instructions removed as dead.
    pub removed: usize,
    /// The function has more blocks than [`BLOCK_LIMIT`] and was left as
    /// it was (LLVM's `rdf-bb-limit`).
    pub skipped: bool,
}

/// Runs copy propagation and dead-code elimination on `f` and recomputes
/// its liveness when they changed it (LLVM's `HexagonRDFOpt`).
pub fn optimize(t: &TargetInfo<'_>, f: &mut MachineFunction) -> RdfOptimization {
    if f.blocks.len() > BLOCK_LIMIT {
        return RdfOptimization {
            skipped: true,
            ..RdfOptimization::default()
        };
    }
    let reserved = reserved_regs(t, f);
    let rewrites = DataFlowGraph::build(t, f, &reserved).copy_propagation();
    apply_rewrites(f, &rewrites);
    let dead = DataFlowGraph::build(t, f, &reserved).dead_instructions();
    remove_instructions(f, &dead);
    if !rewrites.is_empty() || !dead.is_empty() {
        reset_liveness(t, f, &reserved);
    }
    RdfOptimization {
        rewritten: rewrites.len(),
        removed: dead.len(),
        skipped: false,
    }
}

/// Sets each block's live-ins to those of RDF liveness and the kill flags
/// to those that follow (LLVM's `resetLiveIns` and `resetKills`).
fn reset_liveness(t: &TargetInfo<'_>, f: &mut MachineFunction, reserved: &[bool]) {
    let (live_ins, kills) = {
        let g = DataFlowGraph::build(t, f, reserved);
        let lv = Liveness::compute(&g);
        let live_ins: Vec<Vec<BlockLiveIn>> = (0..f.blocks.len())
            .map(|b| {
                lv.live_ins(&g, b)
                    .into_iter()
                    .filter_map(|rr| block_live_in(t, rr))
                    .collect()
            })
            .collect();
        (live_ins, lv.kills(&g))
    };
    for (b, l) in f.blocks.iter_mut().zip(live_ins) {
        b.live_ins = l;
    }
    let insts: Vec<_> = f.blocks.iter().flat_map(|b| b.insts.clone()).collect();
    for i in insts {
        for o in &mut f.inst_mut(i).operands {
            if let Operand::Reg(r) = o
                && matches!(r.reg, RegRef::Phys(_))
                && !r.is_def()
            {
                r.flags.set(RegFlags::KILLED, false);
            }
        }
    }
    for (i, k) in kills {
        if let Operand::Reg(r) = &mut f.inst_mut(i).operands[k] {
            r.flags.set(RegFlags::KILLED, true);
        }
    }
}

/// A computed live-in as a block's `liveins:` entry: the lane mask only
/// when some lanes of the register are not live.
fn block_live_in(t: &TargetInfo<'_>, rr: RegisterRef) -> Option<BlockLiveIn> {
    let RegId::Phys(reg) = rr.id else {
        return None;
    };
    let all = t.reg(reg).unit_lanes.iter().fold(0u64, |m, l| m | l.0);
    let whole = rr.lanes == LaneMask::ALL || rr.lanes.0 & all == all;
    Some(BlockLiveIn {
        reg,
        lanes: (!whole).then_some(rr.lanes),
    })
}
