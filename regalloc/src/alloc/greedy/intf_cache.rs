//! The interference of a physical register per block, remembered across region splits while the register's units do not change (LLVM's `InterferenceCache`).
//!
//! Region split asks, for every candidate register and every block a
//! range lives in, where the register is first and last taken in the
//! block ([`LiveRegMatrix::block_interference`]). Consecutive splits of a
//! function ask about the same registers and largely the same blocks,
//! while between them only the units of the registers just assigned or
//! evicted change. So the answers are kept per register and block, and a
//! register's answers are dropped when the version of one of its units
//! ([`LiveRegMatrix::unit_version`]) moved since they were computed; the
//! part from fixed registers and call clobbers is kept for good. The
//! answer is exactly what the matrix would say now: block boundaries,
//! fixed ranges and call masks never change during allocation.

use crate::analysis::SlotIndex;
use crate::ir::Block;
use crate::target::{Reg, TargetInfo};

use super::super::matrix::{LiveRegMatrix, join_interference};

/// A block's first and last interference point, if any.
type BlockInterference = Option<(SlotIndex, SlotIndex)>;

/// The cached answers of one register.
#[derive(Clone, Debug, Default)]
struct Entry {
    /// The versions of the register's units, in `t.units(p)` order, that
    /// the virtual answers of the current epoch were computed with.
    versions: Vec<u32>,
    /// Bumped whenever `versions` moves: answers of older epochs are stale.
    epoch: u32,
    /// Per block: the epoch its virtual answer was computed in (0: never).
    stamp: Vec<u32>,
    /// Per block: the virtual registers' interference, valid where `stamp`
    /// is `epoch`.
    virt: Vec<BlockInterference>,
    /// Per block: the fixed registers' and calls' interference, once
    /// computed (it never changes).
    fixed: Vec<Option<BlockInterference>>,
}

/// Per register, the block interference answers still valid.
#[derive(Clone, Debug, Default)]
pub struct InterferenceCache {
    /// Indexed by register; created on a register's first query.
    regs: Vec<Option<Entry>>,
}

impl InterferenceCache {
    /// The answers for `p`, with those made stale by a change of one of
    /// its units since they were computed dropped. The matrix must not
    /// change while the result is in use.
    pub fn reg<'c>(
        &'c mut self,
        t: &TargetInfo<'_>,
        matrix: &LiveRegMatrix,
        num_blocks: usize,
        p: Reg,
    ) -> RegInterference<'c> {
        if self.regs.len() <= p.index() {
            self.regs.resize(p.index() + 1, None);
        }
        let e = self.regs[p.index()].get_or_insert_with(|| Entry {
            versions: Vec::new(),
            epoch: 1,
            stamp: vec![0; num_blocks],
            virt: vec![None; num_blocks],
            fixed: vec![None; num_blocks],
        });
        let units = t.units(p);
        let same = e.versions.len() == units.len()
            && units
                .iter()
                .zip(&e.versions)
                .all(|(&u, &v)| matrix.unit_version(u) == v);
        if !same {
            e.versions.clear();
            e.versions
                .extend(units.iter().map(|&u| matrix.unit_version(u)));
            e.epoch += 1;
        }
        RegInterference { entry: e, p }
    }
}

/// The current answers of one register ([`InterferenceCache::reg`]).
pub struct RegInterference<'c> {
    entry: &'c mut Entry,
    p: Reg,
}

impl RegInterference<'_> {
    /// Where the register is taken inside block `b` (between `start` and
    /// `end`, the block's bounds), as
    /// [`LiveRegMatrix::block_interference`] says now.
    pub fn get(
        &mut self,
        t: &TargetInfo<'_>,
        matrix: &LiveRegMatrix,
        b: Block,
        start: SlotIndex,
        end: SlotIndex,
    ) -> BlockInterference {
        let e = &mut *self.entry;
        let k = b.index();
        let fixed = *e.fixed[k]
            .get_or_insert_with(|| matrix.block_fixed_interference(t, self.p, start, end));
        if e.stamp[k] != e.epoch {
            e.virt[k] = matrix.block_virt_interference(t, self.p, start, end);
            e.stamp[k] = e.epoch;
        }
        join_interference(e.virt[k], fixed)
    }
}
