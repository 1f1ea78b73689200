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
/// the candidate's decisions until the next call.
fn evaluate(
    g: &Greedy<'_, '_, '_>,
    region: &mut Region,
    sa: &SplitAnalysis,
    through: u32,
    p: Reg,
    limit: f32,
) -> Option<f32> {
    region.seen.clear();
    let Scratch {
        constraints,
        visited,
        added,
        links,
        cs,
        memos,
        spare,
        memo_range,
    } = &mut region.scratch;
    if *memo_range != through {
        spare.append(memos);
        *memo_range = through;
    }
    let mut p_intf = region.intf.reg(
        g.t,
        &g.matrix,
        &g.an.intervals.slots,
        g.func.blocks.len(),
        p,
    );
    let placer = &mut region.placer;
    placer.prepare();
    // 1. Use blocks.
    constraints.clear();
    let mut static_cost = 0f32;
    for u in &sa.use_blocks {
        let mut c = wish(u);
        if let Some((first, last)) = intf(g, &mut p_intf, u.block) {
            let mut ins = 0;
            let start = g.an.intervals.slots.block_start(u.block);
            if u.live_in {
                if first <= start {
                    c.entry = BorderConstraint::MustSpill;
                    ins += 1;
                } else if first < u.first_at {
                    c.entry = BorderConstraint::PrefSpill;
                    ins += 1;
                } else if first < u.last_at {
                    ins += 1;
                }
            }
            if u.live_out {
                if last >= last_split(g, &mut region.last_split, u.block) {
                    c.exit = BorderConstraint::MustSpill;
                    ins += 1;
                } else if last > u.last_at {
                    c.exit = BorderConstraint::PrefSpill;
                    ins += 1;
                } else if last > u.first_at {
                    ins += 1;
                }
            }
            static_cost += ins as f32 * freq(g, u.block);
            // The cost only grows from here (frequencies are not
            // negative): a candidate already at the limit is out, before
            // its other blocks' interference and the network are looked at.
            if static_cost >= limit {
                return None;
            }
        }
        constraints.push(c);
    }
    // An earlier candidate that saw the same: its answer, unless it would
    // be a new best (it never is: the best so far is at most its cost),
    // which needs the network's bundles.
    if static_cost < limit {
        for m in memos.iter() {
            if m.static_cost.to_bits() == static_cost.to_bits()
                && m.cost.is_none_or(|c| c >= limit)
                && m.constraints == *constraints
                && m.visited.iter().all(|&(b, c)| {
                    let i = intf(g, &mut p_intf, b);
                    through_constraint(g, &mut region.last_split, b, i) == c
                })
            {
                return m.cost;
            }
        }
    }
    placer.add_constraints(constraints);
    visited.clear();
    let remember = |memos: &mut Vec<Memo>,
                    spare: &mut Vec<Memo>,
                    constraints: &[BlockConstraint],
                    visited: &[(Block, Option<BlockConstraint>)],
                    cost: Option<f32>| {
        let mut m = spare.pop().unwrap_or_default();
        m.constraints.clear();
        m.constraints.extend_from_slice(constraints);
        m.static_cost = static_cost;
        m.visited.clear();
        m.visited.extend_from_slice(visited);
        m.cost = cost;
        memos.push(m);
    };
    if !placer.scan_active_bundles() {
        if static_cost < limit {
            remember(memos, spare, constraints, visited, None);
        }
        return None;
    }
    if static_cost >= limit {
        return None;
    }
    // 2. Grow through live-through blocks next to positive bundles.
    loop {
        newly_reached(
            placer,
            &region.bundles,
            &region.through,
            &mut region.seen,
            added,
        );
        if added.is_empty() {
            break;
        }
        links.clear();
        cs.clear();
        for &b in added.iter() {
            let i = intf(g, &mut p_intf, b);
            let c = through_constraint(g, &mut region.last_split, b, i);
            visited.push((b, c));
            match c {
                None => links.push(b),
                Some(c) => cs.push(c),
            }
        }
        placer.add_constraints(cs);
        placer.add_links(links);
        placer.iterate();
    }
    placer.finish();
    // No bundle wants the register: not a candidate.
    if !placer.any_positive() {
        remember(memos, spare, constraints, visited, None);
        return None;
    }
    // 3. Global cost.
    let placer = &region.placer;
    let mut cost = static_cost;
    for (u, c) in sa.use_blocks.iter().zip(constraints.iter()) {
        let (rin, rout) = placer.positive_at(u.block);
        let mut ins = 0;
        if u.live_in {
            ins += u32::from(rin != (c.entry == BorderConstraint::PrefReg));
        }
        if u.live_out {
            ins += u32::from(rout != (c.exit == BorderConstraint::PrefReg));
        }
        cost += ins as f32 * freq(g, u.block);
    }
    for &(b, c) in visited.iter() {
        let (rin, rout) = placer.positive_at(b);
        if !rin && !rout {
            continue;
        }
        if rin && rout {
            if c.is_some() {
                cost += 2.0 * freq(g, b);
            }
            continue;
        }
        cost += freq(g, b);
    }
    remember(memos, spare, constraints, visited, Some(cost));
    Some(cost)
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
