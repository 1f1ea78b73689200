//! Region split (LLVM's `tryRegionSplit`): for each candidate register, the spill placement network decides per edge bundle whether the value should be in that register or on the stack; the cheapest candidate below the cost of spilling is carried out.
//!
//! For one candidate register `P`:
//!
//! 1. every block with uses constrains its borders: `PrefReg` where the
//!    value is live across, weakened to `PrefSpill` or `MustSpill` where
//!    `P`'s interference in the block comes before the first use (entry)
//!    or after the last (exit); each border that will need spill code
//!    adds the block's frequency to the candidate's static cost;
//! 2. the region grows from the bundles that turned positive through the
//!    blocks the value only lives through: without interference they link
//!    their bundles (a value that stays in the register costs nothing),
//!    with interference they prefer the stack; the network is iterated
//!    after each growth;
//! 3. the global cost adds the spill code the decided bundles imply: a
//!    copy per border whose decision differs from its block's wish, two in
//!    a live-through block that must get out of `P`'s way.
//!
//! The winner's split ([`split_around_region`]): interval 1 holds the
//! value where the bundles say register (and is meant for `P`), interval 0
//! (the remainder) everywhere else and goes to the `Spill` stage; blocks
//! with several uses left on the stack side, and the uses that `P`'s
//! interference overlaps in a block the value enters or leaves in `P`, get
//! local intervals of their own, as LLVM does.

use crate::analysis::stamp::{StampMap, StampSet};
use crate::analysis::{Bundle, EdgeBundles, SlotIndex};
use crate::events::{BundleNode, Event};
use crate::ir::{Block, VReg};
use crate::target::Reg;

use super::super::AllocError;
use super::super::order::AllocationOrder;
use super::super::split::{BlockConstraint, BorderConstraint, SpillPlacement};
use super::Greedy;
use super::intf_cache::{InterferenceCache, RegInterference};
use super::split::{SplitAnalysis, UseBlock, freq, last_split_point, spill_cost_of};

/// The edge bundles and the spill placement network of one function,
/// made on the first region split.
pub struct Region {
    pub(super) bundles: EdgeBundles,
    pub(super) placer: SpillPlacement,
    /// Block interference of the candidate registers, kept across splits.
    pub(super) intf: InterferenceCache,
    /// The live-through blocks of the range being split (`through`), and
    /// those the current candidate's region grew into (`seen`); stamped so
    /// that no pass clears a function-sized vector per split or per
    /// candidate.
    pub(super) through: StampSet,
    pub(super) seen: StampSet,
    /// Per bundle: the interval the region split being carried out
    /// claimed it for ([`super::region_plan`]): a lookup per bundle, where
    /// searching the candidates' bundle lists showed.
    pub(super) claimed: StampMap<u32>,
    /// Per block, its last split point once asked for (see [`last_split`]).
    last_split: Vec<Option<SlotIndex>>,
    /// Scratch vectors of [`evaluate`], kept so that a candidate allocates
    /// nothing.
    scratch: Scratch,
}

/// The working lists of one candidate's evaluation.
#[derive(Default)]
struct Scratch {
    /// The use blocks' border constraints, in `use_blocks` order.
    constraints: Vec<BlockConstraint>,
    /// Live-through blocks the region grew into, with the candidate's
    /// constraint there (`None`: no interference, linked).
    visited: Vec<(Block, Option<BlockConstraint>)>,
    /// The blocks one growth step adds.
    added: Vec<Block>,
    /// Of those, the ones without interference (linked) ...
    links: Vec<Block>,
    /// ... and the constraints of the others.
    cs: Vec<BlockConstraint>,
    /// The evaluations of earlier candidates for the range being split
    /// (those with stamp `memo_range`), for [`Memo`].
    memos: Vec<Memo>,
    /// Evaluations of an earlier range, kept for their vectors.
    spare: Vec<Memo>,
    /// The `through` generation of the range `memos` belong to.
    memo_range: u32,
    /// Whether the last candidate's answer came from the network (whose
    /// nodes then still hold its decisions) rather than from a memo.
    network_answered: bool,
}

/// What one candidate's network saw and decided. A later candidate of the
/// same range whose interference gives the same constraint in every use
/// block and in every live-through block this one's region grew into
/// would feed the network the same biases and links in the same order:
/// it grows into the same blocks and settles on the same bundles, at the
/// same cost to the last bit. Registers that only calls or the same few
/// ranges take often look alike that way, and the network is the most
/// expensive part of a candidate.
#[derive(Default)]
struct Memo {
    /// The use blocks' constraints.
    constraints: Vec<BlockConstraint>,
    /// The static cost, compared bit for bit.
    static_cost: f32,
    /// The live-through blocks grown into, in order, with their constraint
    /// (`None`: no interference, the block was linked).
    visited: Vec<(Block, Option<BlockConstraint>)>,
    /// The result: `None` when no bundle wanted the register.
    cost: Option<f32>,
}

impl Region {
    pub(super) fn new(g: &Greedy<'_, '_, '_>) -> Region {
        let bundles = EdgeBundles::new(&g.an.flow.cfg);
        let freqs: Vec<f64> = (0..g.func.blocks.len())
            .map(|b| f64::from(g.an.flow.freq.relative(Block::new(b))))
            .collect();
        let placer = SpillPlacement::new(&bundles, &freqs);
        let claimed = StampMap::new(bundles.num_bundles());
        Region {
            bundles,
            placer,
            intf: InterferenceCache::default(),
            through: StampSet::new(g.func.blocks.len()),
            seen: StampSet::new(g.func.blocks.len()),
            claimed,
            last_split: vec![None; g.func.blocks.len()],
            scratch: Scratch::default(),
        }
    }
}

/// The interference of `p` (whose cache answers are `p_intf`) in block `b`.
pub(super) fn intf(
    g: &Greedy<'_, '_, '_>,
    p_intf: &mut RegInterference<'_>,
    b: Block,
) -> Option<(SlotIndex, SlotIndex)> {
    p_intf.get(g.t, &g.matrix, &g.an.intervals.slots, b)
}

/// [`last_split_point`] of `b`, remembered in `cache`: finding it scans
/// the block, and it never moves during allocation (split copies go
/// before the first terminator, spill code is placed by the rewriter).
fn last_split(g: &Greedy<'_, '_, '_>, cache: &mut [Option<SlotIndex>], b: Block) -> SlotIndex {
    *cache[b.index()].get_or_insert_with(|| last_split_point(g, b))
}

/// The best candidate so far.
pub(super) struct Candidate {
    /// The register, or `None` for the compact region ([`super::compact`]),
    /// which is meant for no register in particular and meets no
    /// interference.
    pub(super) reg: Option<Reg>,
    pub(super) cost: f32,
    /// The bundles that want the register: in increasing order for the
    /// compact region, in no particular order for a register (the split
    /// only marks them).
    pub(super) positive: Vec<Bundle>,
}

/// Tries a region split of `v`; `Ok(true)` when it split.
pub fn try_region_split(
    g: &mut Greedy<'_, '_, '_>,
    v: VReg,
    order: &AllocationOrder,
    sa: &SplitAnalysis,
) -> Result<bool, AllocError> {
    if sa.use_blocks.is_empty() {
        return Ok(false);
    }
    let spill_cost = spill_cost_of(g, sa);
    let mut region = match g.region.take() {
        Some(r) => r,
        None => Region::new(g),
    };
    region.through.clear();
    for &b in &sa.through {
        region.through.insert(b.index());
    }
    let through = region.through.generation();
    let mut best: Option<Candidate> = None;
    let compact = super::compact::compact_region(&mut region, sa);
    let mut best_cost = if compact.is_some() {
        f32::INFINITY
    } else {
        spill_cost
    };
    for &p in &order.regs {
        if let Some(cost) = evaluate(g, &mut region, sa, through, p, best_cost) {
            tracing::debug!(vreg = v.0, reg = %g.t.reg(p).name, cost, "region split candidate");
            note_candidate(g, &region, v, p, cost);
            if cost < best_cost {
                best_cost = cost;
                // Only a new best needs its bundles, read before the next
                // candidate resets the network.
                let mut positive = best.take().map(|b| b.positive).unwrap_or_default();
                region.placer.positive_bundles_unordered_into(&mut positive);
                best = Some(Candidate {
                    reg: Some(p),
                    cost,
                    positive,
                });
            }
        }
    }
    // The compact region, where the uses alone want a register, takes the
    // bundles it wants that the best register does not: hot uses the
    // register cannot hold get an interval of their own, which may evict
    // its way into another register (LLVM's `calcCompactRegion`).
    if best.is_none() && compact.is_none() {
        g.region = Some(region);
        return Ok(false);
    }
    let done = super::region_plan::split_around_region(
        g,
        &mut region,
        v,
        sa,
        best.as_ref(),
        compact.as_ref(),
    );
    g.region = Some(region);
    Ok(done)
}

/// Notes candidate `p` of `v`'s region split in the event log, with the
/// network's nodes when they hold its decisions.
fn note_candidate(g: &mut Greedy<'_, '_, '_>, region: &Region, v: VReg, p: Reg, cost: f32) {
    g.events.note(|| {
        let bundles = if region.scratch.network_answered {
            region
                .placer
                .active_nodes()
                .map(|(b, register_bias, stack_bias, value)| BundleNode {
                    bundle: b.index() as u32,
                    blocks: region.bundles.blocks(b).to_vec(),
                    register_bias,
                    stack_bias,
                    value,
                })
                .collect()
        } else {
            Vec::new()
        };
        Event::RegionCandidate {
            vreg: v,
            reg: p,
            cost,
            bundles,
        }
    });
}

/// What a use block wants before any interference is looked at: the value
/// in a register at every border it crosses.
pub(super) fn wish(u: &UseBlock) -> BlockConstraint {
    let border = |live: bool| {
        if live {
            BorderConstraint::PrefReg
        } else {
            BorderConstraint::DontCare
        }
    };
    BlockConstraint {
        block: u.block,
        entry: border(u.live_in),
        exit: border(u.live_out),
        change_state: true,
    }
}

/// Into `added`: the live-through blocks of the range being split (in
/// `through`) next to a bundle that just turned positive, which the
/// current candidate has not grown into yet (not in `seen`); each is added
/// to `seen`.
pub(super) fn newly_reached(
    placer: &SpillPlacement,
    bundles: &EdgeBundles,
    through: &StampSet,
    seen: &mut StampSet,
    added: &mut Vec<Block>,
) {
    added.clear();
    for &bu in placer.recent_positive() {
        for &b in bundles.blocks(bu) {
            if through.contains(b.index()) && seen.insert(b.index()) {
                added.push(b);
            }
        }
    }
}

/// The constraints, growth and cost of candidate `p`; `None` when it
/// cannot beat `limit` or nothing wants the register. The network keeps
/// the candidate's decisions until the next call. The steps are the
/// module's: use-block constraints, growth through live-through blocks,
/// global cost; an earlier candidate that saw the same answers instead of
/// the network ([`Memo`]).
fn evaluate(
    g: &Greedy<'_, '_, '_>,
    region: &mut Region,
    sa: &SplitAnalysis,
    through: u32,
    p: Reg,
    limit: f32,
) -> Option<f32> {
    region.seen.clear();
    let scratch = &mut region.scratch;
    scratch.start_range(through);
    let num_blocks = g.func.blocks.len();
    let mut blocks = CandidateBlocks {
        intf: region
            .intf
            .reg(g.t, &g.matrix, &g.an.intervals.slots, num_blocks, p),
        last_split: &mut region.last_split,
    };
    scratch.network_answered = false;
    let placer = &mut region.placer;
    placer.prepare();
    let static_cost = blocks.constrain_use_blocks(g, sa, limit, &mut scratch.constraints)?;
    // Only an answer that cannot be a new best is taken from a memo (the
    // best so far is at most its cost): a new best needs the network's
    // bundles.
    if static_cost < limit
        && let Some(cost) = scratch.earlier_answer(g, &mut blocks, static_cost, limit)
    {
        return cost;
    }
    placer.add_constraints(&scratch.constraints);
    scratch.visited.clear();
    if !placer.scan_active_bundles() {
        if static_cost < limit {
            scratch.remember(static_cost, None);
        }
        return None;
    }
    if static_cost >= limit {
        return None;
    }
    let bundles = &region.bundles;
    let (through, seen) = (&region.through, &mut region.seen);
    grow_region(g, &mut blocks, placer, bundles, through, seen, scratch);
    placer.finish();
    // No bundle wants the register: not a candidate.
    if !placer.any_positive() {
        scratch.remember(static_cost, None);
        return None;
    }
    let cost = global_cost(g, placer, sa, scratch, static_cost);
    scratch.remember(static_cost, Some(cost));
    scratch.network_answered = true;
    Some(cost)
}

impl Scratch {
    /// Drops the memos of another range (keeping their vectors for
    /// reuse): a memo answers only for the range it was made for, whose
    /// live-through blocks are `region.through`'s generation `through`.
    fn start_range(&mut self, through: u32) {
        if self.memo_range != through {
            self.spare.append(&mut self.memos);
            self.memo_range = through;
        }
    }

    /// The answer of an earlier candidate of this range that saw the same
    /// static cost and use-block constraints as the working lists hold,
    /// and meets the same constraint in every live-through block it grew
    /// into, unless that answer beats `limit`.
    fn earlier_answer(
        &self,
        g: &Greedy<'_, '_, '_>,
        blocks: &mut CandidateBlocks<'_>,
        static_cost: f32,
        limit: f32,
    ) -> Option<Option<f32>> {
        self.memos
            .iter()
            .find(|m| {
                m.static_cost.to_bits() == static_cost.to_bits()
                    && m.cost.is_none_or(|c| c >= limit)
                    && m.constraints == self.constraints
                    && m.visited
                        .iter()
                        .all(|&(b, c)| blocks.through_constraint(g, b) == c)
            })
            .map(|m| m.cost)
    }

    /// Keeps what this candidate saw (the working lists' constraints and
    /// visited blocks, and `static_cost`) with its result `cost`, for the
    /// next candidates of the range.
    fn remember(&mut self, static_cost: f32, cost: Option<f32>) {
        let mut m = self.spare.pop().unwrap_or_default();
        m.constraints.clear();
        m.constraints.extend_from_slice(&self.constraints);
        m.static_cost = static_cost;
        m.visited.clear();
        m.visited.extend_from_slice(&self.visited);
        m.cost = cost;
        self.memos.push(m);
    }
}

/// What one candidate register meets in the blocks of the range being
/// split: its interference there (cached across candidates and splits)
/// and each block's last split point.
struct CandidateBlocks<'c> {
    intf: RegInterference<'c>,
    last_split: &'c mut [Option<SlotIndex>],
}

impl CandidateBlocks<'_> {
    /// Step 1: the use blocks' constraints, into `constraints`, and the
    /// static cost: the frequency of every use-block border that needs
    /// spill code whatever the network decides. `None` as soon as that
    /// cost reaches `limit`: it only grows (frequencies are not
    /// negative), so the candidate is out before its other blocks'
    /// interference and the network are looked at.
    fn constrain_use_blocks(
        &mut self,
        g: &Greedy<'_, '_, '_>,
        sa: &SplitAnalysis,
        limit: f32,
        constraints: &mut Vec<BlockConstraint>,
    ) -> Option<f32> {
        constraints.clear();
        let mut static_cost = 0f32;
        for u in &sa.use_blocks {
            let c = match self.interfered_use_block(g, u) {
                None => wish(u),
                Some((c, spill_code)) => {
                    static_cost += spill_code as f32 * freq(g, u.block);
                    if static_cost >= limit {
                        return None;
                    }
                    c
                }
            };
            constraints.push(c);
        }
        Some(static_cost)
    }

    /// Use block `u`'s wish weakened by the candidate's interference in
    /// it, and how many of its borders then need spill code; `None` when
    /// the candidate does not interfere there (the wish stands, at no
    /// cost). At a border the value crosses, interference before the
    /// first use (entry) or after the last (exit) makes the border prefer
    /// the stack, or must spill when it covers the border itself (the
    /// block's start, its last split point); interference between the
    /// uses leaves the border's wish, but the value still has to leave
    /// the register inside the block.
    fn interfered_use_block(
        &mut self,
        g: &Greedy<'_, '_, '_>,
        u: &UseBlock,
    ) -> Option<(BlockConstraint, u32)> {
        let (first, last) = intf(g, &mut self.intf, u.block)?;
        let mut c = wish(u);
        let mut spill_code = 0;
        if u.live_in {
            if first <= g.an.intervals.slots.block_start(u.block) {
                c.entry = BorderConstraint::MustSpill;
                spill_code += 1;
            } else if first < u.first_at {
                c.entry = BorderConstraint::PrefSpill;
                spill_code += 1;
            } else if first < u.last_at {
                spill_code += 1;
            }
        }
        if u.live_out {
            if last >= last_split(g, self.last_split, u.block) {
                c.exit = BorderConstraint::MustSpill;
                spill_code += 1;
            } else if last > u.last_at {
                c.exit = BorderConstraint::PrefSpill;
                spill_code += 1;
            } else if last > u.first_at {
                spill_code += 1;
            }
        }
        Some((c, spill_code))
    }

    /// The constraint of live-through block `b` on the candidate (see
    /// [`through_constraint`]).
    fn through_constraint(&mut self, g: &Greedy<'_, '_, '_>, b: Block) -> Option<BlockConstraint> {
        let i = intf(g, &mut self.intf, b);
        through_constraint(g, self.last_split, b, i)
    }
}

/// Step 2: grows the candidate's region from the bundles that just turned
/// positive through the live-through blocks next to them, iterating the
/// network after each step, until no bundle turns positive. A block
/// without the candidate's interference links its bundles (a value that
/// stays in the register there costs nothing); one with it prefers the
/// stack. Each block grown into goes to `scratch.visited` with its
/// constraint, for the global cost and the memo.
fn grow_region(
    g: &Greedy<'_, '_, '_>,
    blocks: &mut CandidateBlocks<'_>,
    placer: &mut SpillPlacement,
    bundles: &EdgeBundles,
    through: &StampSet,
    seen: &mut StampSet,
    scratch: &mut Scratch,
) {
    loop {
        newly_reached(placer, bundles, through, seen, &mut scratch.added);
        if scratch.added.is_empty() {
            return;
        }
        scratch.links.clear();
        scratch.cs.clear();
        for &b in &scratch.added {
            let c = blocks.through_constraint(g, b);
            scratch.visited.push((b, c));
            match c {
                None => scratch.links.push(b),
                Some(c) => scratch.cs.push(c),
            }
        }
        placer.add_constraints(&scratch.cs);
        placer.add_links(&scratch.links);
        placer.iterate();
    }
}

/// Step 3: the candidate's cost once the network has decided: the static
/// cost plus the spill code the decided bundles imply in the use blocks
/// and in the live-through blocks the region grew into.
fn global_cost(
    g: &Greedy<'_, '_, '_>,
    placer: &SpillPlacement,
    sa: &SplitAnalysis,
    scratch: &Scratch,
    static_cost: f32,
) -> f32 {
    let mut cost = static_cost;
    for (u, c) in sa.use_blocks.iter().zip(&scratch.constraints) {
        cost += use_block_copies(placer, u, c) as f32 * freq(g, u.block);
    }
    for &(b, c) in &scratch.visited {
        let copies = through_block_copies(placer, b, c);
        if copies > 0 {
            cost += copies as f32 * freq(g, b);
        }
    }
    cost
}

/// The copies the network's decision implies at use block `u`'s borders:
/// one at each border the value crosses where the decided bundle
/// (register or stack) is not what the block's constraint `c` prefers.
fn use_block_copies(placer: &SpillPlacement, u: &UseBlock, c: &BlockConstraint) -> u32 {
    let (reg_in, reg_out) = placer.positive_at(u.block);
    let mut copies = 0;
    if u.live_in {
        copies += u32::from(reg_in != (c.entry == BorderConstraint::PrefReg));
    }
    if u.live_out {
        copies += u32::from(reg_out != (c.exit == BorderConstraint::PrefReg));
    }
    copies
}

/// The copies the network's decision implies in live-through block `b`,
/// whose constraint was `c` (`None`: no interference): none when the
/// value stays on the stack, or stays in the register without
/// interference; two when it stays in the register but must get out of
/// the interference's way and back; one when it enters or leaves in the
/// register.
fn through_block_copies(placer: &SpillPlacement, b: Block, c: Option<BlockConstraint>) -> u32 {
    match placer.positive_at(b) {
        (false, false) => 0,
        (true, true) => 2 * u32::from(c.is_some()),
        _ => 1,
    }
}

/// The constraint of live-through block `b` on a candidate whose
/// interference in it is `i`: none when there is no interference (the
/// block is linked), else the stack at both borders, forced where the
/// interference covers the border.
fn through_constraint(
    g: &Greedy<'_, '_, '_>,
    last_split_cache: &mut [Option<SlotIndex>],
    b: Block,
    i: Option<(SlotIndex, SlotIndex)>,
) -> Option<BlockConstraint> {
    let (first, last) = i?;
    let start = g.an.intervals.slots.block_start(b);
    Some(BlockConstraint {
        block: b,
        entry: if first <= start {
            BorderConstraint::MustSpill
        } else {
            BorderConstraint::PrefSpill
        },
        exit: if last >= last_split(g, last_split_cache, b) {
            BorderConstraint::MustSpill
        } else {
            BorderConstraint::PrefSpill
        },
        change_state: true,
    })
}
