//! The interference of a physical register per block, remembered across region splits while the register's units do not change (LLVM's `InterferenceCache`).
//!
//! Region split asks, for every candidate register and every block a
//! range lives in, where the register is first and last taken in the
//! block ([`LiveRegMatrix::block_interference`]). Consecutive splits of a
//! function ask about the same registers and largely the same blocks,
//! while between them only the units of the registers just assigned or
//! evicted change. So the answers are kept per register and block, and a
//! register's answers are dropped when the version of one of its units
//! ([`LiveRegMatrix::unit_version`]) moved since they were computed. The
//! answer is exactly what the matrix would say now: block boundaries,
//! fixed ranges and call masks never change during allocation.

use crate::analysis::SlotIndex;
use crate::ir::Block;
use crate::target::{Reg, TargetInfo};

use super::super::matrix::LiveRegMatrix;

/// A block's first and last interference point, if any.
type BlockInterference = Option<(SlotIndex, SlotIndex)>;

/// The cached answers of one register.
#[derive(Clone, Debug, Default)]
struct Entry {
    /// The versions of the register's units, in `t.units(p)` order, that
    /// the answers of the current epoch were computed with.
    versions: Vec<u32>,
    /// Bumped whenever `versions` moves: answers of older epochs are stale.
    epoch: u32,
    /// Per block: the epoch its answer was computed in (0: never).
    stamp: Vec<u32>,
    /// Per block: the answer, valid where `stamp` is `epoch`.
    answer: Vec<BlockInterference>,
}

/// Per register, the block interference answers still valid.
#[derive(Clone, Debug, Default)]
pub struct InterferenceCache {
    /// Indexed by register; created on a register's first query.
    regs: Vec<Option<Entry>>,
}

impl InterferenceCache {
    /// Where `p` is taken inside block `b` (between `start` and `end`, the
    /// block's bounds), as [`LiveRegMatrix::block_interference`] says now:
    /// computed on the first query since one of `p`'s units last changed,
    /// remembered until the next change.
    // The register, the block and its bounds are one question; a struct
    // would only move the list.
    #[allow(clippy::too_many_arguments)]
    pub fn get(
        &mut self,
        t: &TargetInfo<'_>,
        matrix: &LiveRegMatrix,
        num_blocks: usize,
        p: Reg,
        b: Block,
        start: SlotIndex,
        end: SlotIndex,
    ) -> BlockInterference {
        if self.regs.len() <= p.index() {
            self.regs.resize(p.index() + 1, None);
        }
        let e = self.regs[p.index()].get_or_insert_with(|| Entry {
            versions: Vec::new(),
            epoch: 1,
            stamp: vec![0; num_blocks],
            answer: vec![None; num_blocks],
        });
        // A few units per register: checking them on every query is cheap
        // next to one union lookup, and no caller can forget it.
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
        if e.stamp[b.index()] == e.epoch {
            return e.answer[b.index()];
        }
        let a = matrix.block_interference(t, p, start, end);
        e.stamp[b.index()] = e.epoch;
        e.answer[b.index()] = a;
        a
    }
}
