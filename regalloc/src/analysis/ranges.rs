//! Live ranges: segments with value numbers, and the per-key computation shared by virtual registers, their sub-ranges and register units.
//!
//! One key (a virtual register, a lane subset of one, or a register unit)
//! is described by its accesses in layout order. A point is in the range
//! when a definition reaches it and a read follows it on some path without
//! an intervening definition ("live and defined", which is what LLVM's
//! `LiveRangeCalc` builds: undefined paths are not part of the range).
//! Every definition also counts as read at its own dead slot, so an unread
//! definition gets LLVM's `[def, dead)` segment.

use super::cfg::Cfg;
use super::dataflow;
use super::slots::{Slot, SlotIndex, SlotIndexes};
use crate::ir::Block;

/// A half-open interval `[start, end)` carrying value number `valno`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Segment {
    /// First point covered.
    pub start: SlotIndex,
    /// First point not covered.
    pub end: SlotIndex,
    /// Index into [`LiveRange::valnos`].
    pub valno: u32,
}

/// A value number: one definition (or one merge of definitions at a block start).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ValNo {
    /// Where the value is defined; a block (`B`) index for phi-defs.
    pub def: SlotIndex,
}

impl ValNo {
    /// Whether the value is a merge of values at a block start (or a
    /// block live-in), which LLVM calls a phi-def.
    pub fn is_phi(self) -> bool {
        self.def.is_block()
    }
}

/// Segments (sorted, disjoint, adjacent segments of one value merged) and values.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LiveRange {
    /// The segments, sorted by start.
    pub segments: Vec<Segment>,
    /// The values, by number.
    pub valnos: Vec<ValNo>,
}

impl LiveRange {
    /// The segment containing `idx`.
    pub fn segment_at(&self, idx: SlotIndex) -> Option<&Segment> {
        let k = self.segments.partition_point(|s| s.start <= idx);
        self.segments[..k].last().filter(|s| idx < s.end)
    }

    /// Whether `idx` is in the range.
    pub fn live_at(&self, idx: SlotIndex) -> bool {
        self.segment_at(idx).is_some()
    }

    /// The value live at `idx`.
    pub fn valno_at(&self, idx: SlotIndex) -> Option<ValNo> {
        self.segment_at(idx).map(|s| self.valnos[s.valno as usize])
    }

    /// Total length in LLVM's slot units (its `getSize`: each instruction
    /// distance counts 16, each slot step 1). Indexes inserted during
    /// allocation count by their raw distance, scaled down.
    pub fn size(&self) -> u32 {
        use super::slots::LLVM_SCALE;
        self.segments
            .iter()
            .map(|s| {
                let bases = (s.end.base() - s.start.base()) / LLVM_SCALE;
                (bases + s.end.slot() as u32).saturating_sub(s.start.slot() as u32)
            })
            .sum()
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Whether the range overlaps `[start, end)`.
    pub fn overlaps(&self, start: SlotIndex, end: SlotIndex) -> bool {
        let k = self.segments.partition_point(|s| s.end <= start);
        self.segments.get(k).is_some_and(|s| s.start < end)
    }
}

/// One access of a key by an instruction (several operands of the same
/// instruction are folded into one access).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Access {
    /// The block of the instruction.
    pub block: Block,
    /// The instruction's base index.
    pub at: SlotIndex,
    /// The old value is read.
    pub reads: bool,
    /// A new value is written.
    pub writes: bool,
    /// The write is early-clobber (starts at `e`; reads then end at `e`).
    pub early_clobber: bool,
}

/// The per-block facts of the current key, each stamp valid where it
/// equals the key's epoch. One record per block, so that visiting a block
/// touches one cache line rather than one per fact.
#[derive(Copy, Clone, Debug, Default)]
struct Facts {
    live_in: u32,
    live_out: u32,
    def_in: u32,
    def_out: u32,
    kill: u32,
    ue: u32,
    start_def: u32,
    /// The block has an access or a start definition.
    touched: u32,
    /// Value on entry (a value number, `PHI_BIT | block`, or `UNKNOWN`),
    /// valid where `in_val_at` is the epoch.
    in_val: u32,
    in_val_at: u32,
    /// The last value defined in the block, valid where `last_def_at` is
    /// the epoch.
    last_def: u32,
    last_def_at: u32,
    /// The value number of the block's phi-def, valid where `phi_at` is
    /// the epoch.
    phi: u32,
    phi_at: u32,
}

/// Scratch space reused across keys, so that each key costs time in the
/// size of its live region rather than the function: per-block facts are
/// valid only where their stamp is the current key's epoch, so nothing is
/// cleared between keys and no pass visits every block of the function.
#[derive(Clone, Debug, Default)]
pub struct RangeBuilder {
    /// Per block.
    facts: Vec<Facts>,
    epoch: u32,
    /// Per-key working lists, kept so that a key allocates only what it
    /// returns.
    scratch: Scratch,
    /// A list of accesses lent to callers that make one per key
    /// ([`RangeBuilder::take_accesses`]).
    accesses: Vec<Access>,
}

/// The working lists of [`RangeBuilder::build`], empty between keys.
#[derive(Clone, Debug, Default)]
struct Scratch {
    work: Vec<Block>,
    marked_in: Vec<Block>,
    defs: Vec<Block>,
    touched: Vec<Block>,
    acc_val: Vec<u32>,
    live_blocks: Vec<Block>,
    seg_blocks: Vec<Block>,
    segs: Vec<Segment>,
}
const UNKNOWN: u32 = u32::MAX;
const PHI_BIT: u32 = 1 << 31;

impl RangeBuilder {
    /// Scratch space for a function of `n` blocks.
    pub fn new(n: usize) -> RangeBuilder {
        let mut rb = RangeBuilder::default();
        rb.reserve_blocks(n);
        rb
    }

    /// The builder's spare list of accesses (empty), for a caller to fill
    /// and give back with [`RangeBuilder::keep_accesses`].
    pub fn take_accesses(&mut self) -> Vec<Access> {
        std::mem::take(&mut self.accesses)
    }

    /// Keeps `accesses`' storage for the next
    /// [`RangeBuilder::take_accesses`].
    pub fn keep_accesses(&mut self, mut accesses: Vec<Access>) {
        accesses.clear();
        self.accesses = accesses;
    }

    /// Makes room for a function of `n` blocks (a builder kept from one
    /// function to the next, in an [`crate::alloc::context::AllocContext`], needs
    /// no clearing: its facts are stamped per key).
    pub fn reserve_blocks(&mut self, n: usize) {
        if self.facts.len() < n {
            self.facts.resize(n, Facts::default());
        }
    }

    /// Builds the range of one key from its accesses (in layout order) and
    /// the blocks where it is defined on entry (register live-ins).
    /// Returns the range and the blocks it is live into.
    pub fn build(
        &mut self,
        cfg: &Cfg,
        slots: &SlotIndexes,
        accesses: &[Access],
        start_defs: &[Block],
    ) -> (LiveRange, Vec<Block>) {
        if start_defs.is_empty() && block_local(accesses) {
            return (local_range(accesses), Vec::new());
        }
        if self.epoch == u32::MAX {
            // Every stamp could be mistaken for a new epoch: start over.
            self.facts.fill(Facts::default());
            self.epoch = 0;
        }
        self.epoch += 1;
        let mut s = std::mem::take(&mut self.scratch);
        let mut key = Key {
            cfg,
            slots,
            accesses,
            start_defs,
            // The facts apart from `self`, so that the slice's bounds stay
            // in registers across the stores into it.
            facts: &mut self.facts,
            e: self.epoch,
        };
        // 1. Where the key is accessed, and where it is live and defined.
        let writes = key.mark_accesses();
        key.mark_live(&mut s.work, &mut s.marked_in);
        key.mark_defined(&mut s.defs, &mut s.work);
        key.touched_blocks(&mut s.touched);
        // 2. Values: one per definition, then the value entering each
        // block, then one per block where values meet.
        // Room for the definitions and a phi or two, so that the value
        // list is allocated once.
        let mut valnos = Vec::with_capacity(writes + start_defs.len() + 2);
        key.number_definitions(&s.touched, &mut valnos, &mut s.acc_val);
        let single_value = valnos.len() == 1;
        key.entry_values(single_value, &s.marked_in, &mut s.live_blocks);
        let live_sorted = key.live_blocks_in_layout(
            single_value,
            &s.marked_in,
            &s.live_blocks,
            &s.touched,
            &mut s.seg_blocks,
        );
        if !single_value {
            key.number_phis(&live_sorted, &mut valnos);
        }
        // 3. Segments.
        key.segments(&s.seg_blocks, &valnos, &s.acc_val, &mut s.segs);
        let merged = sorted_and_merged(&mut s.segs);
        s.clear();
        self.scratch = s;
        (
            LiveRange {
                segments: merged,
                valnos,
            },
            live_sorted,
        )
    }
}

impl Scratch {
    /// Empties every list, keeping its room.
    fn clear(&mut self) {
        for v in [
            &mut self.work,
            &mut self.marked_in,
            &mut self.defs,
            &mut self.touched,
            &mut self.live_blocks,
            &mut self.seg_blocks,
        ] {
            v.clear();
        }
        self.acc_val.clear();
        self.segs.clear();
    }
}

/// Whether fact `x` of block `b` holds for the key of epoch `e`.
macro_rules! on {
    ($s:expr, $x:ident, $b:expr, $e:expr) => {
        $s[$b.index()].$x == $e
    };
}

/// One key's build in [`RangeBuilder::build`]: its inputs and the
/// per-block facts, valid where stamped with its epoch `e`. Each method is
/// one step, in the order `build` calls them.
struct Key<'k> {
    cfg: &'k Cfg,
    slots: &'k SlotIndexes,
    accesses: &'k [Access],
    start_defs: &'k [Block],
    facts: &'k mut [Facts],
    e: u32,
}

impl Key<'_> {
    /// Marks the blocks with an access or a start definition, those that
    /// define the key and those that read it before any definition
    /// (upward exposed). Returns the number of writes.
    #[inline]
    fn mark_accesses(&mut self) -> usize {
        let (facts, e) = (&mut *self.facts, self.e);
        for &b in self.start_defs {
            facts[b.index()].start_def = e;
            facts[b.index()].kill = e;
            facts[b.index()].touched = e;
        }
        let mut writes = 0;
        for a in self.accesses {
            let b = a.block.index();
            facts[b].touched = e;
            if a.reads && facts[b].kill != e {
                facts[b].ue = e;
            }
            if a.writes {
                facts[b].kill = e;
                writes += 1;
            }
        }
        writes
    }

    /// Backward liveness from the upward-exposed reads. Every block
    /// marked live-in is also listed (`marked_in`), so that the later
    /// steps visit the live region instead of every block.
    #[inline]
    fn mark_live(&mut self, work: &mut Vec<Block>, marked_in: &mut Vec<Block>) {
        let (facts, e) = (&mut *self.facts, self.e);
        for a in self.accesses {
            if on!(facts, ue, a.block, e) && !on!(facts, live_in, a.block, e) {
                facts[a.block.index()].live_in = e;
                work.push(a.block);
                marked_in.push(a.block);
            }
        }
        while let Some(b) = work.pop() {
            for &p in self.cfg.reachable_preds(b) {
                if on!(facts, live_out, p, e) {
                    continue;
                }
                facts[p.index()].live_out = e;
                if !on!(facts, kill, p, e) && !on!(facts, live_in, p, e) {
                    facts[p.index()].live_in = e;
                    work.push(p);
                    marked_in.push(p);
                }
            }
        }
    }

    /// Forward "defined" within the live region: only blocks whose
    /// live-out matters can pass a definition on.
    #[inline]
    fn mark_defined(&mut self, defs: &mut Vec<Block>, work: &mut Vec<Block>) {
        let (facts, e) = (&mut *self.facts, self.e);
        defs.extend(
            self.accesses
                .iter()
                .filter(|a| a.writes)
                .map(|a| a.block)
                .chain(self.start_defs.iter().copied()),
        );
        defs.dedup();
        for &b in defs.iter() {
            if !on!(facts, def_out, b, e) && on!(facts, live_out, b, e) {
                facts[b.index()].def_out = e;
                work.push(b);
            }
        }
        while let Some(b) = work.pop() {
            for &s in &self.cfg.succs[b.index()] {
                if on!(facts, live_in, s, e) && !on!(facts, def_in, s, e) {
                    facts[s.index()].def_in = e;
                    if !on!(facts, def_out, s, e) && on!(facts, live_out, s, e) {
                        facts[s.index()].def_out = e;
                        work.push(s);
                    }
                }
            }
        }
    }

    /// Whether the range enters block `b` (live and defined on entry).
    #[inline]
    fn range_in(&self, b: Block) -> bool {
        on!(self.facts, live_in, b, self.e) && on!(self.facts, def_in, b, self.e)
    }

    /// Whether the range leaves block `b` (live and defined on exit).
    #[inline]
    fn range_out(&self, b: Block) -> bool {
        on!(self.facts, live_out, b, self.e) && on!(self.facts, def_out, b, self.e)
    }

    /// The blocks with a definition or a read, in layout order (accesses
    /// come in layout order; start definitions may not, and only register
    /// units have them).
    #[inline]
    fn touched_blocks(&self, touched: &mut Vec<Block>) {
        for a in self.accesses {
            if touched.last() != Some(&a.block) {
                touched.push(a.block);
            }
        }
        if !self.start_defs.is_empty() {
            touched.extend_from_slice(self.start_defs);
            touched.sort_unstable();
            touched.dedup();
        }
    }

    /// Value numbers of definitions, in layout order; a block live-in
    /// definition comes before the block's instructions. `acc_val` gets,
    /// per access, the value it defines (`UNKNOWN` for a read).
    #[inline]
    fn number_definitions(
        &mut self,
        touched: &[Block],
        valnos: &mut Vec<ValNo>,
        acc_val: &mut Vec<u32>,
    ) {
        let (facts, e, accesses) = (&mut *self.facts, self.e, self.accesses);
        let mut k = 0;
        for &bb in touched {
            let b = bb.index();
            if on!(facts, start_def, bb, e) {
                valnos.push(ValNo {
                    def: self.slots.block_start(bb),
                });
                facts[b].last_def = valnos.len() as u32 - 1;
                facts[b].last_def_at = e;
            }
            while k < accesses.len() && accesses[k].block.index() == b {
                let a = accesses[k];
                if a.writes {
                    valnos.push(ValNo {
                        def: a.at.reg_slot(a.early_clobber),
                    });
                    facts[b].last_def = valnos.len() as u32 - 1;
                    facts[b].last_def_at = e;
                    acc_val.push(valnos.len() as u32 - 1);
                } else {
                    acc_val.push(UNKNOWN);
                }
                k += 1;
            }
        }
    }

    /// Values at block entries: optimistic iteration in RPO over the
    /// reachable blocks the range is live into (`live_blocks`, filled in
    /// RPO); a block where two different values meet gets a phi-def and
    /// keeps it. A region covering much of the function is read off the
    /// RPO rather than sorted into it.
    ///
    /// With a single value there is nothing to merge: every block the
    /// range enters receives that value (the iteration would settle on
    /// it, since a defined live-in block is reached from the only
    /// definition), and no block needs a phi.
    #[inline]
    fn entry_values(
        &mut self,
        single_value: bool,
        marked_in: &[Block],
        live_blocks: &mut Vec<Block>,
    ) {
        if single_value {
            // Only the layout-order list of the next step is needed.
            return;
        }
        let (cfg, e) = (self.cfg, self.e);
        if covers_much(marked_in.len(), cfg.num_blocks()) {
            live_blocks.extend(cfg.rpo.iter().copied().filter(|&b| self.range_in(b)));
        } else {
            live_blocks.extend(
                marked_in
                    .iter()
                    .copied()
                    .filter(|&b| self.range_in(b) && cfg.is_reachable(b)),
            );
            live_blocks.sort_unstable_by_key(|b| cfg.rpo_index[b.index()]);
        }
        let facts = &mut *self.facts;
        for &b in live_blocks.iter() {
            facts[b.index()].in_val = UNKNOWN;
            facts[b.index()].in_val_at = e;
        }
        let range_out = |s: &[Facts], b: Block| on!(s, live_out, b, e) && on!(s, def_out, b, e);
        let out_val = |s: &[Facts], p: Block| {
            if s[p.index()].last_def_at == e {
                s[p.index()].last_def
            } else {
                in_val(s, p, e)
            }
        };
        // The value entering `b` given its predecessors' values now.
        let entry_value = |s: &[Facts], b: Block| {
            let cur = s[b.index()].in_val;
            let mut seen = UNKNOWN;
            // Once a phi of this block, always one (a phi of a
            // predecessor flowing in is an ordinary incoming value).
            let mut multi = cur == (PHI_BIT | b.0);
            for &p in cfg.reachable_preds(b) {
                if !range_out(s, p) {
                    continue;
                }
                let v = out_val(s, p);
                if v == UNKNOWN || v == seen {
                    continue;
                }
                if seen == UNKNOWN {
                    seen = v;
                } else {
                    multi = true;
                }
            }
            if multi { PHI_BIT | b.0 } else { seen }
        };
        // Rounds in RPO until nothing changes, each after the first from
        // the first loop entry that changes (see `forward_rounds`).
        dataflow::forward_rounds(
            live_blocks,
            2 * live_blocks.len() + 3,
            |b| cfg.back_pred[b.index()],
            |b| {
                let new = entry_value(facts, b);
                let changed = new != facts[b.index()].in_val;
                if changed {
                    facts[b.index()].in_val = new;
                }
                changed
            },
        );
    }

    /// The blocks the range enters, in layout order (returned), and (as
    /// `seg_blocks`) those together with the touched ones, where segments
    /// can start: a region covering much of the function is read off one
    /// scan of all blocks rather than sorted and merged. With a single
    /// value, every block entered receives it.
    #[inline]
    fn live_blocks_in_layout(
        &mut self,
        single_value: bool,
        marked_in: &[Block],
        live_blocks: &[Block],
        touched: &[Block],
        seg_blocks: &mut Vec<Block>,
    ) -> Vec<Block> {
        let (cfg, e) = (self.cfg, self.e);
        let wide = covers_much(marked_in.len(), cfg.num_blocks());
        // At most the blocks marked live-in: one allocation.
        let mut live_sorted: Vec<Block> = Vec::with_capacity(marked_in.len());
        if wide {
            for b in (0..cfg.num_blocks()).map(Block::new) {
                let live = self.range_in(b) && cfg.is_reachable(b);
                if live {
                    live_sorted.push(b);
                }
                if live || on!(self.facts, touched, b, e) {
                    seg_blocks.push(b);
                }
            }
        } else {
            if single_value {
                live_sorted.extend(
                    marked_in
                        .iter()
                        .copied()
                        .filter(|&b| self.range_in(b) && cfg.is_reachable(b)),
                );
            } else {
                live_sorted.extend_from_slice(live_blocks);
            }
            live_sorted.sort_unstable();
            merge_sorted(touched, &live_sorted, seg_blocks);
        }
        if single_value {
            for &b in &live_sorted {
                self.facts[b.index()].in_val = 0;
                self.facts[b.index()].in_val_at = e;
            }
        }
        live_sorted
    }

    /// Phi values get numbers after the definitions, in layout order (a
    /// single value never meets another: no phis to look for).
    #[inline]
    fn number_phis(&mut self, live_sorted: &[Block], valnos: &mut Vec<ValNo>) {
        let e = self.e;
        for &b in live_sorted {
            if self.facts[b.index()].in_val == (PHI_BIT | b.0) {
                valnos.push(ValNo {
                    def: self.slots.block_start(b),
                });
                self.facts[b.index()].phi = valnos.len() as u32 - 1;
                self.facts[b.index()].phi_at = e;
            }
        }
    }

    /// Segments, block by block, into `segs`: only blocks the value
    /// enters or is touched in (`seg_blocks`, in layout order) can hold
    /// one. Segments of one value that meet are merged as they come.
    #[inline]
    fn segments(
        &self,
        seg_blocks: &[Block],
        valnos: &[ValNo],
        acc_val: &[u32],
        segs: &mut Vec<Segment>,
    ) {
        let (facts, e, accesses) = (&*self.facts, self.e, self.accesses);
        let resolve = |s: &[Facts], v: u32| {
            if v != UNKNOWN && v & PHI_BIT != 0 {
                let b = (v & !PHI_BIT) as usize;
                if s[b].phi_at == e { s[b].phi } else { 0 }
            } else {
                v
            }
        };
        let mut k = 0;
        for &bb in seg_blocks {
            let b = bb.index();
            let start = self.slots.block_start(bb);
            let mut cur: Option<(SlotIndex, u32, Option<SlotIndex>)> = None;
            if self.range_in(bb) && in_val(facts, bb, e) != UNKNOWN {
                cur = Some((start, resolve(facts, in_val(facts, bb, e)), None));
            }
            if on!(facts, start_def, bb, e) {
                cur = Some((
                    start,
                    last_def_at_start(valnos, start),
                    Some(start.with(Slot::Dead)),
                ));
            }
            while k < accesses.len() && accesses[k].block.index() == b {
                let a = accesses[k];
                let use_slot = a.at.with(if a.early_clobber {
                    Slot::EarlyClobber
                } else {
                    Slot::Register
                });
                if a.reads
                    && let Some(c) = cur.as_mut()
                {
                    c.2 = Some(use_slot);
                }
                if a.writes {
                    if let Some((s, v, Some(l))) = cur {
                        push_merged(
                            segs,
                            Segment {
                                start: s,
                                end: l,
                                valno: v,
                            },
                        );
                    }
                    cur = Some((
                        a.at.reg_slot(a.early_clobber),
                        acc_val[k],
                        Some(a.at.dead_slot()),
                    ));
                }
                k += 1;
            }
            if let Some((s, v, l)) = cur {
                if self.range_out(bb) {
                    push_merged(
                        segs,
                        Segment {
                            start: s,
                            end: self.slots.block_end(bb),
                            valno: v,
                        },
                    );
                } else if let Some(l) = l {
                    push_merged(
                        segs,
                        Segment {
                            start: s,
                            end: l,
                            valno: v,
                        },
                    );
                }
            }
        }
    }
}

/// The segments `segs` holds, sorted and merged. Blocks come in layout
/// order, so the segments usually do too, and then they were merged as
/// they came. Otherwise they are sorted (starts are distinct, so an
/// unstable sort orders them the same) and merged again: two merged as
/// they came were adjacent, so are neighbours in order too.
fn sorted_and_merged(segs: &mut [Segment]) -> Vec<Segment> {
    if segs.is_sorted_by_key(|s| s.start) {
        return segs.to_vec();
    }
    segs.sort_unstable_by_key(|s| s.start);
    let mut merged: Vec<Segment> = Vec::with_capacity(segs.len());
    for &s in segs.iter() {
        push_merged(&mut merged, s);
    }
    merged
}

/// Appends `s` to `segs`, or extends the last segment when `s` continues
/// it with the same value.
fn push_merged(segs: &mut Vec<Segment>, s: Segment) {
    match segs.last_mut() {
        Some(m) if m.end == s.start && m.valno == s.valno => m.end = s.end,
        _ => segs.push(s),
    }
}

/// The value on entry to `b` for the key of epoch `e` (`UNKNOWN` when
/// not set for it).
fn in_val(facts: &[Facts], b: Block, e: u32) -> u32 {
    let f = &facts[b.index()];
    if f.in_val_at == e { f.in_val } else { UNKNOWN }
}

/// Whether no access (in layout order) reads the key before a definition
/// in its own block: then no value crosses a block boundary.
fn block_local(accesses: &[Access]) -> bool {
    let mut block = None;
    let mut defined = false;
    for a in accesses {
        if block != Some(a.block) {
            block = Some(a.block);
            defined = false;
        }
        if a.reads && !defined {
            return false;
        }
        defined |= a.writes;
    }
    true
}

/// The range of a key for which [`block_local`] holds: nothing is live
/// into any block, so each value lives from its definition to its last
/// read before the next definition (its dead slot when unread), all in
/// one block. The same segments and values as the general walk, without
/// its per-block bookkeeping: most virtual registers, and register units
/// such as the flags or the stack pointer, are such local ranges.
fn local_range(accesses: &[Access]) -> LiveRange {
    let writes = accesses.iter().filter(|a| a.writes).count();
    let mut valnos = Vec::with_capacity(writes);
    let mut segments = Vec::with_capacity(writes);
    // The current value's start, number and last point.
    let mut cur: Option<(SlotIndex, u32, SlotIndex)> = None;
    for a in accesses {
        if a.reads
            && let Some(c) = cur.as_mut()
        {
            c.2 = a.at.with(if a.early_clobber {
                Slot::EarlyClobber
            } else {
                Slot::Register
            });
        }
        if a.writes {
            if let Some((start, valno, end)) = cur {
                segments.push(Segment { start, end, valno });
            }
            let def = a.at.reg_slot(a.early_clobber);
            valnos.push(ValNo { def });
            cur = Some((def, valnos.len() as u32 - 1, a.at.dead_slot()));
        }
    }
    if let Some((start, valno, end)) = cur {
        segments.push(Segment { start, end, valno });
    }
    LiveRange { segments, valnos }
}

/// Whether sorting `k` of a function's `n` blocks costs more than
/// filtering all `n` in a known order.
fn covers_much(k: usize, n: usize) -> bool {
    k * (usize::BITS - k.leading_zeros()) as usize > n
}

/// The union of two sorted, duplicate-free block lists, sorted, into
/// `out` (empty).
fn merge_sorted(a: &[Block], b: &[Block], out: &mut Vec<Block>) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// The value defined at block start `start` (the block's live-in def).
fn last_def_at_start(valnos: &[ValNo], start: SlotIndex) -> u32 {
    valnos.iter().rposition(|v| v.def == start).unwrap_or(0) as u32
}
