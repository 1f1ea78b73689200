//! Slot indexes with LLVM's numbering (instructions 16 apart when printed), four slots each (`B`, `e`, `r`, `d`), block boundaries shared, room for instructions inserted during allocation.
//!
//! Internally an index is LLVM's number times [`LLVM_SCALE`]: consecutive
//! instructions are [`INSTR_DIST`] = 2048 apart, not 16, so that the
//! allocator can give indexes to the copies live-range splitting inserts
//! ([`SlotIndexes::insert_between`]) without renumbering anything: live
//! intervals hold raw indexes, and LLVM's local renumbering would
//! invalidate them. Printing divides by the scale, so intervals of the
//! input read exactly as `llc -debug-only=regalloc` prints them.

use std::fmt;

use crate::ir::{Block, Inst, MachineFunction};

/// How many raw index units make one unit of LLVM's numbering.
/// 128 leaves room for about fifty copies at one point (see
/// [`insertion_base`]): live-range splitting of the many values live around
/// a hot loop's back edge puts that many before one terminator.
pub const LLVM_SCALE: u32 = 128;

/// Spacing between consecutive instructions of the input: LLVM's
/// `SlotIndex::InstrDist` (16) in raw units.
pub const INSTR_DIST: u32 = 16 * LLVM_SCALE;

/// The least distance kept between an inserted entry and its neighbours:
/// the spiller places its reload before an instruction at `base - 4` and
/// its store after it at `base + 4`, which must stay strictly between
/// entries.
pub const MIN_GAP: u32 = 8;

/// The most instruction and block-end entries a function may have: raw
/// indexes are `u32`, and the last entry must stay below `u32::MAX`.
pub const MAX_ENTRIES: usize = (u32::MAX / INSTR_DIST) as usize - 2;

/// The four slots of an index, in order.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Slot {
    /// `B`: block boundary / the instruction's base.
    Block = 0,
    /// `e`: where early-clobber defs start.
    EarlyClobber = 1,
    /// `r`: where uses end and ordinary defs start.
    Register = 2,
    /// `d`: where dead defs end.
    Dead = 3,
}

/// A point in the function: an entry's index with a slot in the low two bits.
/// Ordering and distances are those of the raw number, as in LLVM.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct SlotIndex(pub u32);

impl SlotIndex {
    /// The index of entry value `base` (a multiple of 4) at `slot`.
    pub const fn new(base: u32, slot: Slot) -> SlotIndex {
        SlotIndex((base & !3) | slot as u32)
    }
    /// The entry value, without the slot.
    pub const fn base(self) -> u32 {
        self.0 & !3
    }
    /// The slot.
    pub const fn slot(self) -> Slot {
        match self.0 & 3 {
            0 => Slot::Block,
            1 => Slot::EarlyClobber,
            2 => Slot::Register,
            _ => Slot::Dead,
        }
    }
    /// The same entry at `slot`.
    pub const fn with(self, slot: Slot) -> SlotIndex {
        SlotIndex::new(self.base(), slot)
    }
    /// The def slot: `e` for early-clobber defs, `r` otherwise.
    pub const fn reg_slot(self, early_clobber: bool) -> SlotIndex {
        self.with(if early_clobber {
            Slot::EarlyClobber
        } else {
            Slot::Register
        })
    }
    /// The dead slot `d`.
    pub const fn dead_slot(self) -> SlotIndex {
        self.with(Slot::Dead)
    }
    /// Whether this is a block-boundary (`B`) index.
    pub const fn is_block(self) -> bool {
        self.0 & 3 == 0
    }
}

impl fmt::Display for SlotIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = ['B', 'e', 'r', 'd'][(self.0 & 3) as usize];
        let base = self.base();
        if base.is_multiple_of(LLVM_SCALE) {
            write!(f, "{}{c}", base / LLVM_SCALE)
        } else {
            // An index inserted during allocation: between LLVM numbers.
            write!(f, "{}.{}{c}", base / LLVM_SCALE, (base % LLVM_SCALE) / 4)
        }
    }
}

/// The raw base an entry inserted between entries at bases `prev` and
/// `next` gets; `None` when fewer than [`MIN_GAP`] units would be left on
/// either side.
///
/// Insertions into one gap come in runs at one end: copies placed "before
/// the first instruction" or "after `I`" each go before the ones placed
/// there earlier, copies placed "before `I`" or before the terminator each
/// go after them. So the first entry in a gap between two original entries
/// takes the middle, and later ones take a sixteenth of what is left on the
/// side of the inserted neighbour, leaving the rest for the run to go on:
/// about fifty insertions at one point before the gap is used up. Original
/// entries are the multiples of [`INSTR_DIST`].
pub fn insertion_base(prev: u32, next: u32) -> Option<u32> {
    if next <= prev {
        return None;
    }
    let gap = next - prev;
    let inserted = |x: u32| !x.is_multiple_of(INSTR_DIST);
    let step = ((gap / 16) & !3).max(MIN_GAP);
    let base = match (inserted(prev), inserted(next)) {
        (false, true) => next.checked_sub(step)?,
        (true, false) => prev + step,
        _ => prev + ((gap / 2) & !3),
    };
    (base >= prev + MIN_GAP && base + MIN_GAP <= next).then_some(base)
}

/// Slot indexes of a function's instructions and blocks.
#[derive(Clone, Debug, Default)]
pub struct SlotIndexes {
    /// Entries in order: (index value, the instruction, or `None` for a
    /// block boundary).
    entries: Vec<(u32, Option<Inst>)>,
    /// Base index of each instruction (`None` for debug instructions and
    /// instructions not in the function).
    inst: Vec<Option<SlotIndex>>,
    /// `[start, end)` of each block; `end` is the next block's start.
    blocks: Vec<(SlotIndex, SlotIndex)>,
    /// Per entry of the numbering as first made (entry `k` at index
    /// `k * INSTR_DIST`): the block containing it ([`NO_BLOCK`] for the
    /// end of the last block). Entries inserted later lie strictly between
    /// two of these, inside one block: so the block of any index is read
    /// here without a search (it is asked for throughout allocation).
    block_at: Vec<u32>,
}

/// [`SlotIndexes::block_at`]'s block for an entry in no block.
const NO_BLOCK: u32 = u32::MAX;

impl SlotIndexes {
    /// Numbers `f` as LLVM does: 0 for the first block start, then each
    /// instruction 16 after the previous entry and one empty entry at each
    /// block end, which is also the next block's start.
    pub fn new(f: &MachineFunction) -> SlotIndexes {
        // One entry per instruction and per block end, plus the start:
        // sized once rather than grown.
        let mut entries = Vec::with_capacity(f.insts.len() + f.blocks.len() + 1);
        entries.push((0, None));
        let mut s = SlotIndexes {
            entries,
            inst: vec![None; f.insts.len()],
            blocks: Vec::with_capacity(f.blocks.len()),
            block_at: Vec::with_capacity(f.insts.len() + f.blocks.len() + 1),
        };
        let mut index = 0;
        for (b, bd) in f.blocks.iter().enumerate() {
            let start = SlotIndex::new(index, Slot::Block);
            for &i in &bd.insts {
                if f.insts
                    .get(i.index())
                    .is_none_or(|d| d.op.is_debug_or_probe())
                {
                    continue;
                }
                index += INSTR_DIST;
                s.entries.push((index, Some(i)));
                s.inst[i.index()] = Some(SlotIndex::new(index, Slot::Block));
            }
            // The block's start entry (the previous block's end) and its
            // instructions.
            s.block_at.resize(s.entries.len(), b as u32);
            index += INSTR_DIST;
            s.entries.push((index, None));
            s.blocks.push((start, SlotIndex::new(index, Slot::Block)));
        }
        s.block_at.push(NO_BLOCK);
        s
    }

    /// The base index of `i`.
    pub fn inst(&self, i: Inst) -> Option<SlotIndex> {
        self.inst.get(i.index()).copied().flatten()
    }

    /// The start of block `b`.
    pub fn block_start(&self, b: Block) -> SlotIndex {
        self.blocks[b.index()].0
    }

    /// The end of block `b` (the next block's start).
    pub fn block_end(&self, b: Block) -> SlotIndex {
        self.blocks[b.index()].1
    }

    /// The blocks (by index, which is layout order) that share a point
    /// with `[start, end)`.
    pub fn blocks_overlapping(&self, start: SlotIndex, end: SlotIndex) -> std::ops::Range<usize> {
        // The first block ending after `start`: the one containing it, or
        // none past the last.
        let first = self
            .block_of(start)
            .map_or(self.blocks.len(), |b| b.index());
        // Most stretches asked about lie in a block or two, and a caller
        // visits the blocks anyway: a walk, not a second search.
        let mut last = first;
        while self.blocks.get(last).is_some_and(|&(s, _)| s < end) {
            last += 1;
        }
        first..last
    }

    /// The block containing `idx`.
    pub fn block_of(&self, idx: SlotIndex) -> Option<Block> {
        // Block boundaries are original entries: the original entry at or
        // before `idx` is in `idx`'s block.
        match self.block_at.get((idx.0 / INSTR_DIST) as usize) {
            Some(&b) if b != NO_BLOCK => Some(Block(b)),
            _ => None,
        }
    }

    /// The instruction at `idx`'s entry, if there is one.
    pub fn inst_at(&self, idx: SlotIndex) -> Option<Inst> {
        let base = idx.base();
        // Until something is inserted before it, an original entry is at
        // its original position: checked, and searched for otherwise.
        if let Some(e) = self.entries.get((base / INSTR_DIST) as usize)
            && e.0 == base
        {
            return e.1;
        }
        let k = self.entries.binary_search_by_key(&base, |e| e.0).ok()?;
        self.entries[k].1
    }

    /// The index of the first instruction entry after `idx`'s entry, or
    /// the last index when there is none (LLVM's `getNextNonNullIndex`).
    pub fn next_inst_after(&self, idx: SlotIndex) -> SlotIndex {
        // Until something is inserted before it, an original entry is at
        // its original position: checked, and searched for otherwise.
        let guess = (idx.base() / INSTR_DIST) as usize;
        let k = if self.entries.get(guess).is_some_and(|e| e.0 == idx.base()) {
            guess + 1
        } else {
            self.entries.partition_point(|e| e.0 <= idx.base())
        };
        let last = self.entries.last().map_or(0, |e| e.0);
        let v = self.entries[k..]
            .iter()
            .find(|e| e.1.is_some())
            .map_or(last, |e| e.0);
        SlotIndex::new(v, Slot::Block)
    }

    /// The index of the entry right after `idx`'s entry (an instruction,
    /// one since taken out of its block, or a block end), if there is one:
    /// the neighbour [`SlotIndexes::insert_between`] needs to place an
    /// instruction right after another.
    pub fn entry_after(&self, idx: SlotIndex) -> Option<SlotIndex> {
        let k = self.entries.partition_point(|e| e.0 <= idx.base());
        self.entries
            .get(k)
            .map(|e| SlotIndex::new(e.0, Slot::Block))
    }

    /// Gives `new`, an instruction inserted between the entries at `prev`
    /// and `next` (consecutive entries of one block: a block start, an
    /// instruction, or the block end), an index of its own between them,
    /// without renumbering anything, by [`insertion_base`]. `None` when the
    /// gap has no room left (fewer than [`MIN_GAP`] units on either side).
    pub fn insert_between(
        &mut self,
        prev: SlotIndex,
        next: SlotIndex,
        new: Inst,
    ) -> Option<SlotIndex> {
        let mut run = Vec::with_capacity(1);
        let idx = self.index_between(prev, next, new, &mut run)?;
        self.insert_indexed(&mut run);
        Some(idx)
    }

    /// [`SlotIndexes::insert_between`] for many instructions at once, in
    /// layout order: `new` gets its index (and [`SlotIndexes::inst`]
    /// answers it) at once, but its entry waits in `run` until
    /// [`SlotIndexes::insert_indexed`] merges the whole run in one pass,
    /// instead of moving the tail of the function's entries once per
    /// instruction. `prev` may be the index given to the instruction just
    /// before in `run`; nothing else may read the entries meanwhile.
    pub fn index_between(
        &mut self,
        prev: SlotIndex,
        next: SlotIndex,
        new: Inst,
        run: &mut Vec<(u32, Inst)>,
    ) -> Option<SlotIndex> {
        let (p, n) = (prev.base(), next.base());
        let base = insertion_base(p, n)?;
        // After an instruction of the run, the next entry is the one that
        // followed the gap it went into, which `next` names.
        if run.last().is_none_or(|l| l.0 != p) {
            let pos = self.entries.partition_point(|e| e.0 <= p);
            if self.entries.get(pos).is_some_and(|e| e.0 < n)
                || pos == 0
                || self.entries[pos - 1].0 != p
            {
                // `prev` and `next` are not neighbours.
                return None;
            }
        }
        run.push((base, new));
        if self.inst.len() <= new.index() {
            self.inst.resize(new.index() + 1, None);
        }
        let idx = SlotIndex::new(base, Slot::Block);
        self.inst[new.index()] = Some(idx);
        Some(idx)
    }

    /// Adds the entries of `run` ([`SlotIndexes::index_between`]) and
    /// empties it.
    pub fn insert_indexed(&mut self, run: &mut Vec<(u32, Inst)>) {
        if !run.is_sorted_by_key(|x| x.0) {
            run.sort_unstable_by_key(|x| x.0);
        }
        // Merge from the back: only the entries after the first new one
        // move, each once.
        let old = self.entries.len();
        self.entries.resize(old + run.len(), (0, None));
        let (mut i, mut w) = (old, old + run.len());
        for &(base, inst) in run.iter().rev() {
            let k = self.entries[..i].partition_point(|e| e.0 <= base);
            self.entries.copy_within(k..i, w - (i - k));
            w -= i - k + 1;
            i = k;
            self.entries[w] = (base, Some(inst));
        }
        run.clear();
    }

    /// The raw index of the last entry (the end of the last block).
    pub fn last_index(&self) -> SlotIndex {
        SlotIndex::new(self.entries.last().map_or(0, |e| e.0), Slot::Block)
    }
}
