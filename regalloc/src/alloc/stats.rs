//! `Stats`: spill code and copies of an allocated function, counted and weighted by block frequency as LLVM's regalloc remarks do.

use crate::analysis::FlowAnalyses;
use crate::ir::MachineFunction;
use crate::target::TargetInfo;

use super::record::{AllocRecord, Edit};

/// What allocation cost, in instructions and in frequency-weighted
/// instructions (each weighted by its block's frequency relative to the
/// entry block, as in LLVM's `*_cost` remark figures).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Stats {
    /// Stores to spill slots.
    pub spills: u64,
    /// Loads from spill slots.
    pub reloads: u64,
    /// Rematerialized definitions.
    pub remats: u64,
    /// Register copies the allocator inserted (not COPYs of the input).
    pub inserted_copies: u64,
    /// COPY instructions left in the allocated function.
    pub copies: u64,
    /// Weighted spills.
    pub spill_cost: f64,
    /// Weighted reloads.
    pub reload_cost: f64,
    /// Weighted rematerializations.
    pub remat_cost: f64,
    /// Weighted COPYs left.
    pub copy_cost: f64,
}

impl Stats {
    /// Counts the edits of `record` and the COPYs left in the allocated
    /// function `func`.
    pub fn count(_target: &TargetInfo<'_>, func: &MachineFunction, record: &AllocRecord) -> Stats {
        let flow = FlowAnalyses::new(func);
        let mut s = Stats::default();
        for b in func.block_ids() {
            let w = f64::from(flow.freq.relative(b));
            for &i in &func.block(b).insts {
                match record.edit(i) {
                    Some(Edit::Spill { .. }) => {
                        s.spills += 1;
                        s.spill_cost += w;
                    }
                    Some(Edit::Reload { .. }) => {
                        s.reloads += 1;
                        s.reload_cost += w;
                    }
                    Some(Edit::Remat { .. }) => {
                        s.remats += 1;
                        s.remat_cost += w;
                    }
                    Some(Edit::Copy { .. }) if !record.is_original(i) => s.inserted_copies += 1,
                    _ => {}
                }
                if func.inst(i).op.is_copy() {
                    s.copies += 1;
                    s.copy_cost += w;
                }
            }
        }
        s
    }

    /// Adds `other`'s counts and costs to these.
    pub fn add(&mut self, other: &Stats) {
        self.spills += other.spills;
        self.reloads += other.reloads;
        self.remats += other.remats;
        self.inserted_copies += other.inserted_copies;
        self.copies += other.copies;
        self.spill_cost += other.spill_cost;
        self.reload_cost += other.reload_cost;
        self.remat_cost += other.remat_cost;
        self.copy_cost += other.copy_cost;
    }
}
