//! Evicting by spill cost: before a range is spilled, a register whose interfering ranges would together cost less to spill than the range itself is freed for it (not in LLVM).
//!
//! Eviction ([`super::evict`]) compares spill weights, which divide a
//! range's use frequency by its length: a long range with one use in a
//! hot block (an interpreter's dispatch table, read once per
//! instruction dispatched) weighs less than short ranges in colder
//! blocks and loses every eviction, then spills, paying a reload at the
//! hot use. When the range has reached its last stage (region and block
//! splits did not pay) this looks again at its registers with the costs
//! a spill would actually have: for each register whose interference is
//! a few virtual ranges, the frequency of every instruction of theirs
//! that a spill would give a store or a reload, summed, against the same
//! sum for the range. Spill products and unspillable ranges in the way
//! cannot be evicted; they must find another register free for them and
//! move there. The cheapest register below the range's own cost is freed
//! as an eviction frees it, and the evicted ranges go back to the queue,
//! where they may take another register, split or spill, at no more than
//! the estimate.
//!
//! Cascades do not limit this eviction (the range was usually evicted
//! early and carries an old cascade); termination comes from the costs
//! instead: a range evicts by cost at most once, and only ranges strictly
//! cheaper to spill than itself, so no chain of such evictions comes back
//! to a range. The evictor takes a fresh cascade, so that ranges already
//! allocated cannot evict it back by weight.

use crate::ir::VReg;
use crate::target::Reg;

use super::super::matrix::Interference;
use super::super::order::AllocationOrder;
use super::evict::{EVICT_INTERFERENCE_CUTOFF, evict_interference};
use super::reassign::free_elsewhere;
use super::{Greedy, Stage, set_per_vreg};

/// At most this many ranges are in the way in one register, as for
/// eviction by weight ([`EVICT_INTERFERENCE_CUTOFF`]): more cost queue
/// turns and interference queries and were never cheaper on the corpus.
pub const MAX_EVICTED: usize = EVICT_INTERFERENCE_CUTOFF;

/// What a rematerialization costs against a reload, in [`spill_cost`]: a
/// range whose every value can be recomputed at its uses is spilled
/// without a store or a reload, one cheap instruction per use instead,
/// so it costs less to evict than its uses suggest. Half, as LLVM halves
/// such a range's spill weight; measured on the corpus against 1, 0.25
/// and 0 (weighted spill+reload+folded, x86-64: -410, -449, -19 against
/// -528 at a half; AArch64 -31.5 at a half, within 3 of the best).
pub const REMAT_COST: f32 = 0.5;

/// A register that could be freed for the range.
struct Candidate {
    /// What spilling the ranges to evict would cost.
    cost: f32,
    reg: Reg,
    /// The ranges that move to a register free for them, and where.
    moves: Vec<(VReg, Reg)>,
    /// How many ranges are evicted.
    evicted: usize,
}

/// Frees the register of `order` whose interference is cheapest to spill,
/// when that is cheaper than spilling `v`; returns it (`v` is left for
/// the caller to assign).
pub fn try_evict_by_cost(
    g: &mut Greedy<'_, '_, '_>,
    v: VReg,
    order: &AllocationOrder,
) -> Option<Reg> {
    if g.cost_evicted.get(v.index()).copied().unwrap_or(false) {
        return None;
    }
    let own = spill_cost(g, v);
    if own <= 0.0 {
        return None;
    }
    let best = cheapest_candidate(g, v, order, own)?;
    Some(evict_for(g, v, own, best))
}

/// The register of `order` whose interference costs least to spill, less
/// than `own`, `v`'s own spill cost. Candidates are ranked by the summed
/// spill cost of the interference that must be evicted: a range in the
/// way that finds another register free for it moves there at no cost;
/// one that cannot be evicted (a spill product, an unspillable range)
/// must move.
fn cheapest_candidate(
    g: &mut Greedy<'_, '_, '_>,
    v: VReg,
    order: &AllocationOrder,
    own: f32,
) -> Option<Candidate> {
    let mut best: Option<Candidate> = None;
    let mut picks: Vec<(VReg, Reg)> = Vec::new();
    let mut stuck: Vec<VReg> = Vec::new();
    for &p in &order.regs {
        if g.check_fixed(v, p) != Interference::Free {
            continue;
        }
        let Some(intf) =
            g.an.intervals
                .vreg(v)
                .and_then(|iv| g.matrix.interfering_vregs_at_most(g.t, iv, p, MAX_EVICTED))
        else {
            continue;
        };
        if intf.is_empty() {
            continue;
        }
        let limit = best.as_ref().map_or(own, |b| b.cost.min(own));
        let (sum, evicted, mut ok) = price_eviction(g, &intf, limit, &mut stuck);
        // The ranges that cannot be evicted must find a register free for
        // them; asked last, and only of a register worth freeing, since
        // each question is a walk over the order.
        picks.clear();
        if ok && evicted > 0 {
            ok = move_aside(g, p, &stuck, &mut picks);
        }
        tracing::trace!(vreg = v.0, reg = %g.t.reg(p).name, n = intf.len(), sum, ok, own, moved = picks.len(), "cost evict candidate");
        if ok && evicted > 0 && best.as_ref().is_none_or(|b| sum < b.cost) {
            best = Some(Candidate {
                cost: sum,
                reg: p,
                moves: picks.clone(),
                evicted,
            });
        }
    }
    best
}

/// The summed spill cost of evicting `intf` and how many ranges that
/// evicts, listing in `stuck` those that cannot be evicted; the sum is
/// worth it (`true`) while it stays below `limit`.
fn price_eviction(
    g: &mut Greedy<'_, '_, '_>,
    intf: &[VReg],
    limit: f32,
    stuck: &mut Vec<VReg>,
) -> (f32, usize, bool) {
    let mut sum = 0.0;
    let mut evicted = 0;
    stuck.clear();
    for &x in intf {
        if g.stage(x) == Stage::Done || !g.weight(x).is_finite() {
            stuck.push(x);
            continue;
        }
        evicted += 1;
        sum += spill_cost(g, x);
        if sum >= limit {
            return (sum, evicted, false);
        }
    }
    (sum, evicted, true)
}

/// Finds, for each of `stuck`, a register other than `p` free for it
/// (and for the ones placed before it), listed in `picks`; `false` when
/// one has none.
fn move_aside(
    g: &mut Greedy<'_, '_, '_>,
    p: Reg,
    stuck: &[VReg],
    picks: &mut Vec<(VReg, Reg)>,
) -> bool {
    for &x in stuck {
        match free_elsewhere(g, x, p, picks) {
            Some(q) => picks.push((x, q)),
            None => return false,
        }
    }
    true
}

/// Carries out `candidate` for `v` (whose spill cost is `own`): the stuck
/// ranges move aside, the rest of the interference is evicted under a
/// fresh cascade. Returns the register freed.
fn evict_for(g: &mut Greedy<'_, '_, '_>, v: VReg, own: f32, candidate: Candidate) -> Reg {
    let Candidate {
        cost: sum,
        reg: p,
        moves: picks,
        evicted,
    } = candidate;
    for &(c, q) in &picks {
        tracing::debug!(vreg = c.0, from = %g.t.reg(p).name, to = %g.t.reg(q).name, "move aside");
        g.unassign(c);
        g.assign(c, q);
    }
    let moved = picks.len();
    tracing::debug!(vreg = v.0, reg = %g.t.reg(p).name, own, evicted_cost = sum, moved, evicted, "evict by spill cost");
    set_per_vreg(&mut g.cost_evicted, v, true, false);
    if evicted > 0 {
        // A fresh cascade: the evicted ranges, and every range of an
        // older cascade, cannot evict `v` back by weight.
        let c = g.next_cascade;
        g.next_cascade += 1;
        g.set_cascade(v, c);
        evict_interference(g, v, p);
    }
    p
}

/// What spilling `v` would cost, in entry-block frequency: a store after
/// each instruction writing it and a reload before each reading it, or
/// [`REMAT_COST`] per reading instruction when every value of `v` would
/// be rematerialized (its definitions die). Computed once per range.
pub fn spill_cost(g: &mut Greedy<'_, '_, '_>, v: VReg) -> f32 {
    if let Some(&c) = g.spill_costs.get(v.index())
        && !c.is_nan()
    {
        return c;
    }
    let remat = g
        .spiller
        .all_rematerializable(g.t, g.func, &g.an.intervals, &g.vrm, v);
    let slots = &g.an.intervals.slots;
    let mut cost = 0.0;
    for &i in g.spiller.users(v) {
        let Some(b) = slots.inst(i).and_then(|at| slots.block_of(at)) else {
            continue;
        };
        let (reads, writes) = crate::analysis::weights::reads_writes(g.func.inst(i), v);
        let n = if remat {
            f32::from(u8::from(reads)) * REMAT_COST
        } else {
            f32::from(u8::from(reads) + u8::from(writes))
        };
        cost += n * g.an.flow.freq.relative(b);
    }
    set_per_vreg(&mut g.spill_costs, v, cost, f32::NAN);
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    use super::super::GreedyOptions;
    use super::super::recolor::tests::{blocker_lines, blockers, fill_with_spill_products};

    /// `%1` (in the way) and `%2` (the range to place) live over the same
    /// instructions, read `other` and `placed` times; `blockers` ranges
    /// `%10...` live over everything. Both are loaded from memory (a
    /// spill stores and reloads them) unless `constant` makes `%1` a
    /// constant (rematerialized).
    fn function(placed: usize, other: usize, blockers: usize, constant: bool) -> String {
        let [regs, defs, uses] = blocker_lines(blockers);
        let reads = |v: u32, n: usize| {
            (0..n)
                .map(|k| format!("    STD %{v}, %{v}, {}\n", 8 * k))
                .collect::<String>()
        };
        let (p, o) = (reads(2, placed), reads(1, other));
        let one = if constant {
            "%1:gpr = LD_imm64 1"
        } else {
            "%1:gpr = LDD %10, 0"
        };
        format!(
            "---
name: cost_evict
tracksRegLiveness: true
registers:
  - {{ id: 1, class: gpr }}
  - {{ id: 2, class: gpr }}
{regs}body: |
  bb.0:
{defs}    {one}
    %2:gpr = LDD %10, 8
{p}{o}{uses}    RET
...
"
        )
    }

    /// `%1` in the first register of `%2`'s order, spill products of
    /// `%2`'s class in all the others; `%2` has reached the spill stage.
    fn crowd(g: &mut Greedy<'_, '_, '_>, blockers: usize) -> Vec<Reg> {
        let order = g.order(VReg(2)).unwrap().regs;
        assert_eq!(order.len(), blockers + 1);
        fill_with_spill_products(g, &order[1..], blockers);
        g.assign(VReg(1), order[0]);
        g.set_stage(VReg(2), Stage::Spill);
        order
    }

    #[test]
    fn a_range_cheaper_to_spill_is_evicted_for_a_dearer_one() {
        let n = blockers() + 1;
        let mut f = read(&function(3, 1, n, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        // A store and three reloads against a store and one reload.
        assert_eq!(spill_cost(&mut g, VReg(2)), 4.0);
        assert_eq!(spill_cost(&mut g, VReg(1)), 2.0);
        let ao = g.order(VReg(2)).unwrap();
        assert_eq!(try_evict_by_cost(&mut g, VReg(2), &ao), Some(order[0]));
        assert_eq!(g.vrm.phys(VReg(1)), None, "evicted");
        assert_eq!(g.check(VReg(2), order[0]), Interference::Free);
        assert!(g.cascade(VReg(2)) > 0);
        assert_eq!(g.cascade(VReg(1)), g.cascade(VReg(2)));
        // Once per range: the evictor does not evict by cost again.
        g.assign(VReg(1), order[0]);
        assert_eq!(try_evict_by_cost(&mut g, VReg(2), &ao), None);
    }

    /// A range placed by spill cost is not evicted back by weight alone:
    /// `%3`, short (so heavier) but cheaper to spill than `%2`, may evict
    /// `%2` from its register only while `%2` did not get it by cost.
    #[test]
    fn a_range_placed_by_cost_keeps_its_register_against_cheaper_ones() {
        let n = blockers() + 1;
        let [regs, defs, uses] = blocker_lines(n);
        // Long enough that `%2`'s weight (its accesses over its length)
        // falls below `%3`'s.
        let filler = "    STD %10, %10, 24\n".repeat(40);
        let text = format!(
            "---
name: keep
tracksRegLiveness: true
registers:
  - {{ id: 2, class: gpr }}
  - {{ id: 3, class: gpr }}
{regs}body: |
  bb.0:
{defs}    %2:gpr = LDD %10, 8
    STD %2, %2, 0
    STD %2, %2, 8
{filler}    %3:gpr = LDD %10, 16
    STD %2, %2, 16
    STD %3, %3, 0
{uses}    RET
...
"
        );
        for placed_by_cost in [false, true] {
            let mut f = read(&text);
            let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
            let order = g.order(VReg(2)).unwrap().regs;
            fill_with_spill_products(&mut g, &order[1..], n);
            g.assign(VReg(2), order[0]);
            assert!(g.weight(VReg(3)).is_finite() && g.weight(VReg(3)) > g.weight(VReg(2)));
            assert!(spill_cost(&mut g, VReg(3)) < spill_cost(&mut g, VReg(2)));
            if placed_by_cost {
                set_per_vreg(&mut g.cost_evicted, VReg(2), true, false);
                let c = g.next_cascade;
                g.next_cascade += 1;
                g.set_cascade(VReg(2), c);
            }
            let mut cost = super::super::evict::EvictionCost::MAX;
            let evicts = super::super::evict::can_evict_interference(
                &mut g,
                VReg(3),
                order[0],
                false,
                &mut cost,
            );
            assert_eq!(evicts, !placed_by_cost, "placed by cost: {placed_by_cost}");
        }
    }

    #[test]
    fn nothing_is_evicted_when_the_interference_costs_as_much() {
        let n = blockers() + 1;
        let mut f = read(&function(1, 1, n, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        let ao = g.order(VReg(2)).unwrap();
        assert_eq!(try_evict_by_cost(&mut g, VReg(2), &ao), None);
        assert_eq!(g.vrm.phys(VReg(1)), Some(order[0]));
        assert_eq!(g.cascade(VReg(1)), 0);
    }

    #[test]
    fn a_rematerializable_range_costs_half_a_reload_per_use() {
        let n = blockers() + 1;
        // `%1` is read three times: as a loaded value, a store and three
        // reloads (4); as a constant, three rematerializations (1.5),
        // less than `%2`'s store and reload.
        let mut f = read(&function(1, 3, n, true));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        assert_eq!(spill_cost(&mut g, VReg(1)), 1.5);
        assert_eq!(spill_cost(&mut g, VReg(2)), 2.0);
        let ao = g.order(VReg(2)).unwrap();
        assert_eq!(try_evict_by_cost(&mut g, VReg(2), &ao), Some(order[0]));
        assert_eq!(g.vrm.phys(VReg(1)), None, "evicted");

        let mut f = read(&function(1, 3, n, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        assert_eq!(spill_cost(&mut g, VReg(1)), 4.0);
        let ao = g.order(VReg(2)).unwrap();
        assert_eq!(try_evict_by_cost(&mut g, VReg(2), &ao), None);
        assert_eq!(g.vrm.phys(VReg(1)), Some(order[0]));
    }
}
