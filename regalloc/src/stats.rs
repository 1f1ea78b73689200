//! `Stats`: spill code and copies of an allocated function, counted and weighted by block frequency as LLVM's regalloc remarks do.

use crate::analysis::FlowAnalyses;
use crate::ir::{MachineFunction, Op};
use crate::target::{InstrFlags, TargetInfo};

use crate::record::{AllocRecord, Edit};

/// What allocation cost, in instructions and in frequency-weighted
/// instructions (each weighted by its block's frequency relative to the
/// entry block, as in LLVM's `*_cost` remark figures).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Stats {
    /// Stores to spill slots.
    pub spills: u64,
    /// Loads from spill slots.
    pub reloads: u64,
    /// Instructions that read a spill slot through a memory operand instead
    /// of a reloaded register (LLVM's folded reloads; not in `reloads`).
    pub folded_reloads: u64,
    /// Instructions that write a spill slot through a memory operand
    /// instead of a register that is then stored (folded spills; not in
    /// `spills`). A read-modify-write is both a folded reload and a
    /// folded spill, as LLVM counts it.
    pub folded_spills: u64,
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
    /// Weighted folded reloads.
    pub folded_reload_cost: f64,
    /// Weighted folded spills.
    pub folded_spill_cost: f64,
    /// Weighted rematerializations.
    pub remat_cost: f64,
    /// Weighted COPYs left.
    pub copy_cost: f64,
}

impl Stats {
    /// Counts the edits of `record` and the COPYs left in the allocated
    /// function `func`.
    pub fn count(target: &TargetInfo<'_>, func: &MachineFunction, record: &AllocRecord) -> Stats {
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
                if record.memory_folds.contains_key(&i)
                    && let Op::Target(op) = func.inst(i).op
                    && let Some(d) = target.instrs.get(op.index())
                {
                    if d.is(InstrFlags::MAY_LOAD) {
                        s.folded_reloads += 1;
                        s.folded_reload_cost += w;
                    }
                    if d.is(InstrFlags::MAY_STORE) {
                        s.folded_spills += 1;
                        s.folded_spill_cost += w;
                    }
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
        self.folded_reloads += other.folded_reloads;
        self.folded_spills += other.folded_spills;
        self.remats += other.remats;
        self.inserted_copies += other.inserted_copies;
        self.copies += other.copies;
        self.spill_cost += other.spill_cost;
        self.reload_cost += other.reload_cost;
        self.folded_reload_cost += other.folded_reload_cost;
        self.folded_spill_cost += other.folded_spill_cost;
        self.remat_cost += other.remat_cost;
        self.copy_cost += other.copy_cost;
    }
}
