//! Carrying out a region split (LLVM's `doRegionSplit`/`splitAroundRegion`): the best register candidate and the compact region claim the edge bundles that want them, each gets an interval, and every block the range covers is planned from which interval holds the value on its way in and out.
//!
//! Bundles go first to the best register candidate, then to the compact
//! region (those it wants that the register does not take), and the rest
//! to the remainder, which goes to the `Spill` stage. With both, the value
//! may pass from the register's interval to the compact region's inside a
//! block (a register-to-register copy) where LLVM's `splitLiveThroughBlock`
//! would: before the register's interference, or at the block's end.
//! Blocks with several uses left on the stack side, and the uses that a
//! register's interference overlaps in a block the value enters or leaves
//! in a register, get local intervals of their own.

use crate::analysis::stamp::StampMap;
use crate::analysis::{EdgeBundles, SlotIndex};
use crate::ir::{Block, VReg};

use super::super::split::kit::{SplitResult, live_blocks};
use super::super::split::{BlockPlan, Gap, SplitPlan};
use super::intf_cache::RegInterference;
use super::region::{Candidate, Region, intf};
use super::split::{SplitAnalysis, UseBlock, freq};
use super::{Greedy, Stage};

/// The interval of the remainder: every part of the value no candidate
/// claims.
const REMAINDER: u32 = 0;

/// The gap right before the point `s` of block `b`: before the first
/// instruction at or after it (the block end when none is left before the
/// terminators).
fn gap_before(g: &Greedy<'_, '_, '_>, b: Block, s: SlotIndex) -> Gap {
    let slots = &g.an.intervals.slots;
    for &i in &g.func.block(b).insts {
        if g.func.inst(i).op.is_terminator(g.t) {
            return Gap::End;
        }
        if let Some(at) = slots.inst(i)
            && at.base() >= s.base()
        {
            return Gap::Before(i);
        }
    }
    Gap::End
}

/// The gap right after the point `s` of block `b`: after the last
/// instruction at or before it (the block start when there is none; the
/// last split point when that instruction is a terminator).
fn gap_after(g: &Greedy<'_, '_, '_>, b: Block, s: SlotIndex) -> Gap {
    let slots = &g.an.intervals.slots;
    let mut gap = Gap::Start;
    for &i in &g.func.block(b).insts {
        if g.func.inst(i).op.is_terminator(g.t) {
            return if matches!(gap, Gap::Start) {
                Gap::Start
            } else {
                Gap::End
            };
        }
        match slots.inst(i) {
            Some(at) if at.base() <= s.base() => gap = Gap::After(i),
            Some(_) => break,
            None => {}
        }
    }
    gap
}

/// The split's global intervals: which one each bundle goes to, and the
/// interference each meets.
struct Claims<'c, 'r> {
    /// The register candidate's interval, with its interference.
    reg: Option<(u32, RegInterference<'r>)>,
    /// Per bundle: the interval claiming it (see [`Region::claimed`]).
    claimed: &'c StampMap<u32>,
}

impl Claims<'_, '_> {
    /// The interval of bundle `bu`: the register's when it wants it, else
    /// the compact region's when it wants it, else the remainder.
    fn interval(&self, bu: crate::analysis::Bundle) -> u32 {
        self.claimed.get(bu.index()).unwrap_or(REMAINDER)
    }

    /// The first and last interference of interval `k`'s register in `b`.
    fn intf(&mut self, g: &Greedy<'_, '_, '_>, k: u32, b: Block) -> Option<(SlotIndex, SlotIndex)> {
        match &mut self.reg {
            Some((rk, p_intf)) if *rk == k => intf(g, p_intf, b),
            _ => None,
        }
    }
}

/// Whether a value entering `b` in an interval whose register is first
/// taken at `first_in` and leaving in another whose register is last
/// taken at `last_out` can pass from one to the other by a single copy,
/// with neither meeting its interference.
fn straight(first_in: Option<SlotIndex>, last_out: Option<SlotIndex>) -> bool {
    match (first_in, last_out) {
        (Some(f), Some(l)) => f.base() > l.base(),
        _ => true,
    }
}

/// Splits `v` around the bundles that `reg` (the best register candidate)
/// and `compact` (the compact region) want; `true` when it happened.
pub(super) fn split_around_region(
    g: &mut Greedy<'_, '_, '_>,
    region: &mut Region,
    v: VReg,
    sa: &SplitAnalysis,
    reg: Option<&Candidate>,
    compact: Option<&Candidate>,
) -> bool {
    if g.an.intervals.vreg(v).is_none() {
        return false;
    }
    // 1. The candidates' intervals and the bundles each claims.
    let mut globals = 1;
    let mut next = || {
        globals += 1;
        globals - 1
    };
    let reg_k = reg.map(|_| next());
    let compact_k = compact.map(|_| next());
    claim_bundles(region, (reg, reg_k), (compact, compact_k));
    let reg_claim = reg.zip(reg_k).map(|(c, k)| {
        let p = c.reg.expect("a register candidate has a register");
        let p_intf = region.intf.reg(
            g.t,
            &g.matrix,
            &g.an.intervals.slots,
            g.func.blocks.len(),
            p,
        );
        (k, p_intf)
    });
    let mut claims = Claims {
        reg: reg_claim,
        claimed: &region.claimed,
    };
    let bundles = &region.bundles;
    let mut plan = SplitPlan {
        intervals: globals,
        default: REMAINDER,
        blocks: Default::default(),
        hoist: None,
        hoist_at: None,
    };
    // The block plans, gathered in two runs in layout order (live-through
    // blocks, then blocks with uses) and made into the plan's map at once:
    // cheaper than inserting them one by one.
    let mut planned: Vec<(Block, BlockPlan)> =
        Vec::with_capacity(sa.through.len() + sa.use_blocks.len());
    // 2. Live-through blocks without uses: the analysis of `v` (unchanged
    // since) lists only blocks it is live into and out of.
    for &b in &sa.through {
        if let Some(bp) = through_block_plan(g, &mut claims, bundles, b) {
            planned.push((b, bp));
        }
    }
    // 3. Blocks with uses; an interval local to one block is numbered
    // after the global ones.
    let first_local = plan.intervals;
    let mut locals = 0;
    let mut local = || {
        let k = first_local + locals;
        locals += 1;
        k
    };
    let users = g.spiller.users(v).to_vec();
    for u in &sa.use_blocks {
        if let Some(bp) = use_block_plan(g, &mut claims, bundles, u, &users, &mut local) {
            planned.push((u.block, bp));
        }
    }
    plan.intervals += locals;
    plan.blocks = planned.into_iter().collect();
    // 4. Where the copies back into the remainder go.
    choose_hoist(g, v, &mut plan);
    tracing::trace!(vreg = v.0, plan = ?plan, "region split plan");
    // 5. The plan carried out.
    let orig_blocks = sa.blocks.len();
    let Some(res) = g
        .kit
        .apply(g.t, g.func, &mut g.an, &mut g.vrm, v, &users, &plan)
    else {
        return false;
    };
    tracing::debug!(
        vreg = v.0,
        reg = reg.and_then(|c| c.reg).map_or("", |p| &*g.t.reg(p).name),
        compact = compact.is_some(),
        cost = reg.map_or(0.0, |c| c.cost),
        copies = res.copies,
        "region split"
    );
    g.note_split(v, crate::events::SplitKind::Region, &res.regs);
    // 6. The pieces queued, each at the stage its kind starts in.
    requeue_pieces(g, res, globals, orig_blocks);
    true
}

/// Marks each candidate's bundles in [`Region::claimed`] with its
/// interval (`reg` and `compact`, each with the interval it gets), the
/// register's last: a bundle both want goes to the register.
fn claim_bundles(
    region: &mut Region,
    reg: (Option<&Candidate>, Option<u32>),
    compact: (Option<&Candidate>, Option<u32>),
) {
    region.claimed.clear();
    for (c, k) in [compact, reg] {
        if let (Some(c), Some(k)) = (c, k) {
            for &bu in &c.positive {
                region.claimed.insert(bu.index(), k);
            }
        }
    }
}

/// The plan of live-through block `b` (one without uses) from the
/// intervals claiming its entry and exit bundles; `None` when both are the
/// remainder's (the block stays as it is).
fn through_block_plan(
    g: &Greedy<'_, '_, '_>,
    claims: &mut Claims<'_, '_>,
    bundles: &EdgeBundles,
    b: Block,
) -> Option<BlockPlan> {
    let k_in = claims.interval(bundles.bundle(b, false));
    let k_out = claims.interval(bundles.bundle(b, true));
    if k_in == REMAINDER && k_out == REMAINDER {
        return None;
    }
    let i_in = claims.intf(g, k_in, b);
    let i_out = claims.intf(g, k_out, b);
    let bp = if k_in == k_out {
        match i_in {
            None => BlockPlan::whole(k_in),
            Some((f, l)) => BlockPlan {
                entry: k_in,
                switches: vec![(gap_before(g, b, f), REMAINDER), (gap_after(g, b, l), k_in)],
            },
        }
    } else if k_out == REMAINDER {
        BlockPlan {
            entry: k_in,
            switches: vec![(
                i_in.map_or(Gap::End, |(f, _)| gap_before(g, b, f)),
                REMAINDER,
            )],
        }
    } else if k_in == REMAINDER {
        BlockPlan {
            entry: REMAINDER,
            switches: vec![(i_out.map_or(Gap::Start, |(_, l)| gap_after(g, b, l)), k_out)],
        }
    } else if straight(i_in.map(|i| i.0), i_out.map(|i| i.1)) {
        // From one register's interval to the other's by one copy.
        BlockPlan {
            entry: k_in,
            switches: vec![(i_in.map_or(Gap::End, |(f, _)| gap_before(g, b, f)), k_out)],
        }
    } else {
        let ((f, _), (_, l)) = (i_in.unwrap(), i_out.unwrap());
        BlockPlan {
            entry: k_in,
            switches: vec![
                (gap_before(g, b, f), REMAINDER),
                (gap_after(g, b, l), k_out),
            ],
        }
    };
    Some(bp)
}

/// The plan of use block `u` from the intervals claiming its entry and
/// exit bundles (where the value is live in and out); `local` numbers an
/// interval of the block's own. `None` when the block stays in the
/// remainder.
fn use_block_plan(
    g: &Greedy<'_, '_, '_>,
    claims: &mut Claims<'_, '_>,
    bundles: &EdgeBundles,
    u: &UseBlock,
    users: &[crate::ir::Inst],
    local: &mut impl FnMut() -> u32,
) -> Option<BlockPlan> {
    let b = u.block;
    let k_in = if u.live_in {
        claims.interval(bundles.bundle(b, false))
    } else {
        REMAINDER
    };
    let k_out = if u.live_out {
        claims.interval(bundles.bundle(b, true))
    } else {
        REMAINDER
    };
    let bp = if k_in == REMAINDER && k_out == REMAINDER {
        // On the stack side: several uses get an interval of their own.
        if u.uses < 2 || u.starts_at_terminator(g) {
            return None;
        }
        let mut switches = vec![(Gap::Before(u.first), local())];
        if u.live_out {
            switches.push((u.after_last(), REMAINDER));
        }
        BlockPlan {
            entry: REMAINDER,
            switches,
        }
    } else if k_in != REMAINDER && k_out != REMAINDER && k_in != k_out {
        let i_in = claims.intf(g, k_in, b);
        let i_out = claims.intf(g, k_out, b);
        two_intervals(g, u, (k_in, i_in), (k_out, i_out), local)
    } else {
        let k = k_in.max(k_out);
        let i = claims.intf(g, k, b);
        let through = k_in != REMAINDER && k_out != REMAINDER;
        let middle = through && i.is_some_and(|(f, l)| uses_within(g, u, users, f, l));
        one_interval(
            g,
            u,
            k,
            (k_in != REMAINDER, k_out != REMAINDER),
            i,
            middle,
            local,
        )
    };
    Some(bp)
}

/// Step 4 of [`split_around_region`]: hoists the back-copies into the
/// remainder to one copy where that runs less often than they would
/// (LLVM's `hoistCopies` in its `SM_Speed` mode): right after the
/// definition, or at the end of the least loopy block that dominates them
/// all. Only for a register of one value.
fn choose_hoist(g: &Greedy<'_, '_, '_>, v: VReg, plan: &mut SplitPlan) {
    let Some(iv) = g.an.intervals.vreg(v) else {
        return;
    };
    let slots = &g.an.intervals.slots;
    if iv.range.valnos.len() == 1
        && let Some(db) = slots.block_of(iv.range.valnos[0].def)
    {
        let back_blocks: Vec<Block> = plan
            .blocks
            .iter()
            .filter(|(_, bp)| bp.switches.iter().any(|s| s.1 == REMAINDER))
            .map(|(&b, _)| b)
            .collect();
        let back: f32 = back_blocks.iter().map(|&b| freq(g, b)).sum();
        let at_def = freq(g, db);
        let dominator = hoist_block(g, &back_blocks, db)
            .filter(|&h| h != db && !back_blocks.contains(&h) && freq(g, h) < at_def);
        match dominator {
            Some(h) if freq(g, h) < back => {
                plan.hoist = Some(REMAINDER);
                plan.hoist_at = Some(h);
            }
            _ if at_def < back => plan.hoist = Some(REMAINDER),
            _ => {}
        }
    }
}

/// Step 6 of [`split_around_region`]: each new register of the split
/// `res` queued, with its users known to the spiller: the remainder's
/// pieces at the spill stage, a global interval (one of the first
/// `globals`) at the second split stage when it covers as many blocks as
/// its parent did (`orig_blocks`), every other at the start.
fn requeue_pieces(g: &mut Greedy<'_, '_, '_>, res: SplitResult, globals: u32, orig_blocks: usize) {
    for (k, (r, users)) in res.regs.iter().zip(res.users).enumerate() {
        let Some(n) = *r else { continue };
        g.spiller.set_users(n, users);
        let interval = res.interval[k];
        let stage = if interval == REMAINDER {
            Stage::Spill
        } else if interval < globals {
            // A global interval may be split again as long as it covers
            // fewer blocks than its parent.
            let live =
                g.an.intervals
                    .vreg(n)
                    .map_or(0, |iv| live_blocks(&g.an, &iv.range, g.func).len());
            if live >= orig_blocks {
                Stage::Split2
            } else {
                Stage::New
            }
        } else {
            Stage::New
        };
        g.set_stage(n, stage);
        g.set_cascade(n, 0);
        g.enqueue(n);
    }
}

/// Whether two or more instructions of `users` in block `u` lie between
/// the interference points `f` and `l` (inclusive): with one, the
/// remainder costs one reload or store there, which no interval of the
/// block's own can beat (LLVM's rule for a block of its own,
/// `shouldSplitSingleBlock`, likewise wants several instructions).
fn uses_within(
    g: &Greedy<'_, '_, '_>,
    u: &UseBlock,
    users: &[crate::ir::Inst],
    f: SlotIndex,
    l: SlotIndex,
) -> bool {
    if u.last_at.base() < f.base() || u.first_at.base() > l.base() {
        return false;
    }
    let slots = &g.an.intervals.slots;
    // `f` and `l` lie in `u`'s block, so an index between them does too.
    users
        .iter()
        .filter(|&&i| {
            slots
                .inst(i)
                .is_some_and(|at| at.base() >= f.base() && at.base() <= l.base())
        })
        .nth(1)
        .is_some()
}

/// The plan of use block `u` where the value enters in interval `k`
/// (`rin`), leaves in it (`rout`), or both, and is on the stack on any
/// other side; `i` is the interference of `k`'s register in the block.
/// With `middle` (it enters and leaves in `k`, and uses lie between the
/// first and last interference), those uses get an interval of the
/// block's own between leaving `k` and entering it again: the remainder
/// would reload before each of them and store after each definition, in
/// a block hot enough to have been worth the register around it.
fn one_interval(
    g: &Greedy<'_, '_, '_>,
    u: &UseBlock,
    k: u32,
    (rin, rout): (bool, bool),
    i: Option<(SlotIndex, SlotIndex)>,
    middle: bool,
    local: &mut impl FnMut() -> u32,
) -> BlockPlan {
    let b = u.block;
    let mut switches = Vec::new();
    // An interval of the block's own for the uses that the register's
    // interference overlaps where the value enters or leaves in it (LLVM's
    // `splitRegInBlock`/`splitRegOutBlock`): it may take another register,
    // where the remainder would reload at each use.
    if rin {
        match i {
            None => {
                if !rout && u.live_out {
                    switches.push((u.after_last(), REMAINDER));
                }
            }
            Some((f, _)) => {
                let leave = if u.last_at < f {
                    u.after_last()
                } else {
                    gap_before(g, b, f)
                };
                if !rout && u.last_at >= f && leave != Gap::End {
                    switches.push((leave, local()));
                    if u.live_out {
                        switches.push((u.after_last(), REMAINDER));
                    }
                } else if rout && middle && leave != Gap::End {
                    switches.push((leave, local()));
                } else if u.live_out || u.last_at >= f {
                    switches.push((leave, REMAINDER));
                }
            }
        }
    }
    if rout {
        let enter = match i {
            None => Gap::Before(u.first),
            Some((_, l)) if l < u.first_at => Gap::Before(u.first),
            Some((_, l)) => {
                let enter = gap_after(g, b, l);
                if !rin && !u.starts_at_terminator(g) && enter != Gap::Start {
                    switches.push((Gap::Before(u.first), local()));
                }
                enter
            }
        };
        if !(rin && i.is_none()) {
            switches.push((enter, k));
        }
    }
    BlockPlan {
        entry: if rin { k } else { REMAINDER },
        switches,
    }
}

/// The plan of use block `u` where the value enters in one global
/// interval and leaves in another, each with its register's interference
/// in the block (LLVM's `splitLiveThroughBlock` with different intervals):
/// one copy from the first to the second before the first's interference
/// (at the block's end when it has none); when the interferences overlap,
/// a local interval bridges them.
fn two_intervals(
    g: &Greedy<'_, '_, '_>,
    u: &UseBlock,
    (k_in, i_in): (u32, Option<(SlotIndex, SlotIndex)>),
    (k_out, i_out): (u32, Option<(SlotIndex, SlotIndex)>),
    local: &mut impl FnMut() -> u32,
) -> BlockPlan {
    let b = u.block;
    if straight(i_in.map(|i| i.0), i_out.map(|i| i.1)) {
        let at = i_in.map_or(Gap::End, |(f, _)| gap_before(g, b, f));
        return BlockPlan {
            entry: k_in,
            switches: vec![(at, k_out)],
        };
    }
    let ((f, _), (_, l)) = (i_in.unwrap(), i_out.unwrap());
    BlockPlan {
        entry: k_in,
        switches: vec![(gap_before(g, b, f), local()), (gap_after(g, b, l), k_out)],
    }
}

/// The block a hoisted back-copy would go to (LLVM's `hoistCopies` and
/// `findShallowDominator`): the nearest common dominator of `back`, then,
/// walking up through the dominators of the loops around it while the
/// definition block `db` still dominates, the one in the shallowest loop;
/// `None` when `db` does not dominate the back-copies.
fn hoist_block(g: &Greedy<'_, '_, '_>, back: &[Block], db: Block) -> Option<Block> {
    let dom = &g.an.flow.dom;
    let loops = &g.an.flow.loops;
    let idom = |b: Block| dom.idom[b.index()].filter(|&d| d != b);
    let mut h = *back.first()?;
    for &b in &back[1..] {
        while !dom.dominates(h, b) {
            h = idom(h)?;
        }
    }
    if !dom.dominates(db, h) {
        return None;
    }
    if h == db {
        return Some(h);
    }
    let def_loop = loops.loop_for(db);
    let (mut best, mut best_depth) = (h, u32::MAX);
    loop {
        // Outside any loop, or in the definition's: no dominator is colder.
        let Some(l) = loops.loop_for(h) else {
            return Some(h);
        };
        if Some(l) == def_loop {
            return Some(h);
        }
        let depth = loops.get(l).depth;
        if depth < best_depth {
            (best, best_depth) = (h, depth);
        }
        // Leave the loop through the dominator of its header.
        match idom(loops.get(l).header) {
            Some(up) if dom.dominates(db, up) => h = up,
            _ => return Some(best),
        }
    }
}
