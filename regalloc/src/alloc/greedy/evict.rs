//! Eviction: freeing a register for a range by sending lighter, younger-cascade interference back to the queue (LLVM's `DefaultEvictionAdvisor`).
//!
//! The cost of freeing a register is a pair compared in order: how many
//! satisfied hints it breaks (an interfering range sitting in its
//! preferred register), then the heaviest evicted weight. A register is a
//! candidate only when every interfering range
//!
//! - is virtual (fixed registers and call clobbers are never evicted) and
//!   not a spill product (stage `Done`);
//! - belongs to an older eviction cascade: the evictor's cascade number
//!   (given on its first eviction) must be greater than the interfering
//!   range's, which is what keeps two ranges from evicting each other in
//!   a loop. An unspillable range may break this rule when it is urgent
//!   (the interference is spillable, or has a larger class), at a cost of
//!   ten broken hints;
//! - is strictly lighter, unless the evictor wants this register as a
//!   hint and the interference can still be split;
//! - if it took its register by spill cost ([`super::cost_evict`]), is
//!   cheaper to spill than the evictor (unless the evictor cannot be
//!   spilled): not in LLVM, whose eviction knows only weights;
//!
//! and there are fewer than [`EVICT_INTERFERENCE_CUTOFF`] of them on any
//! register unit.

use crate::ir::VReg;
use crate::target::{Reg, RegClass, TargetInfo};

use super::super::matrix::Interference;
use super::super::order::{AllocationOrder, ClassOrders};
use super::{Greedy, Stage};

/// With this many interfering ranges on one unit, one of them is almost
/// certainly heavier: give up on the register (LLVM's
/// `EvictInterferenceCutoff`).
pub const EVICT_INTERFERENCE_CUTOFF: usize = 10;

/// The cost of an eviction: broken hints first, then the heaviest weight.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct EvictionCost {
    /// Satisfied hints broken (plus 10 per urgent cascade break).
    pub broken_hints: u32,
    /// The heaviest evicted weight.
    pub max_weight: f32,
}

impl EvictionCost {
    /// The cost that any eviction beats.
    pub const MAX: EvictionCost = EvictionCost {
        broken_hints: u32::MAX,
        max_weight: f32::INFINITY,
    };

    /// Lexicographic comparison: `self` is strictly cheaper than `o`.
    pub fn less(&self, o: &EvictionCost) -> bool {
        (self.broken_hints, self.max_weight)
            .partial_cmp(&(o.broken_hints, o.max_weight))
            .is_some_and(|c| c.is_lt())
    }
}

/// Whether `v` may evict the interference from `p` at a cost below
/// `max_cost`; on success `max_cost` becomes the cost.
pub fn can_evict_interference(
    g: &mut Greedy<'_, '_, '_>,
    v: VReg,
    p: Reg,
    is_hint: bool,
    max_cost: &mut EvictionCost,
) -> bool {
    let t = g.t;
    // Only virtual interference can be evicted. Whether there is any
    // (a register without is free, not a candidate for eviction) is seen
    // while collecting it below, so the unions are searched once.
    if g.check_fixed(v, p) != Interference::Free {
        return false;
    }
    let Some(iv) = g.an.intervals.vreg(v) else {
        return false;
    };
    let evictor = Evictor::of(g, v, is_hint);
    let mut cost = EvictionCost {
        broken_hints: 0,
        max_weight: 0.0,
    };
    // Interference that took its register by spill cost.
    let mut protected: Vec<VReg> = Vec::new();
    let mut any_virt = false;
    for (u, range) in g.matrix.unit_ranges(t, iv, p) {
        let intf = g
            .matrix
            .interfering_on_unit(u, range, EVICT_INTERFERENCE_CUTOFF);
        if intf.len() >= EVICT_INTERFERENCE_CUTOFF {
            return false;
        }
        any_virt |= !intf.is_empty();
        for x in intf {
            if g.stage(x) == Stage::Done {
                return false;
            }
            let urgent = !evictor.spillable
                && (g.weight(x).is_finite()
                    || more_constrained(&mut g.orders, t, evictor.class, g.func.vreg_class(x)));
            if !evictor.may_evict(g, x, urgent, max_cost, &mut cost, &mut protected) {
                return false;
            }
        }
    }
    if !any_virt || evictor.protected_from(g, &protected) {
        return false;
    }
    *max_cost = cost;
    true
}

/// What deciding whether `v` may evict its interference needs to know
/// about `v`.
struct Evictor {
    v: VReg,
    /// Whether `v` is an assignment's hint register being tried.
    is_hint: bool,
    /// Whether `v` lives in one block.
    is_local: bool,
    /// Cascade of `v`, or the one it would get.
    cascade: u32,
    /// Whether `v` can be spilled.
    spillable: bool,
    class: Option<RegClass>,
}

impl Evictor {
    /// The facts about `v`.
    #[inline]
    fn of(g: &Greedy<'_, '_, '_>, v: VReg, is_hint: bool) -> Evictor {
        Evictor {
            v,
            is_hint,
            is_local: g.is_local(v),
            cascade: match g.cascade(v) {
                0 => g.next_cascade,
                c => c,
            },
            spillable: g.weight(v).is_finite(),
            class: g.func.vreg_class(v),
        }
    }

    /// Whether interfering `x` (not done) may be evicted, `urgent` when
    /// `v` cannot be spilled and `x` can or is more constrained, adding
    /// its cost to `cost` (which must stay below `max_cost`) and listing it
    /// in `protected` when it took its register by spill cost.
    #[inline]
    fn may_evict(
        &self,
        g: &Greedy<'_, '_, '_>,
        x: VReg,
        urgent: bool,
        max_cost: &EvictionCost,
        cost: &mut EvictionCost,
        protected: &mut Vec<VReg>,
    ) -> bool {
        let xw = g.weight(x);
        let xc = g.cascade(x);
        if self.cascade == xc {
            return false;
        }
        if self.cascade < xc {
            if !urgent {
                return false;
            }
            cost.broken_hints += 10;
        }
        let breaks_hint = has_preferred_phys(g, x);
        cost.broken_hints += u32::from(breaks_hint);
        cost.max_weight = cost.max_weight.max(xw);
        if !cost.less(max_cost) {
            return false;
        }
        if urgent {
            return true;
        }
        if !should_evict(g, self.v, self.is_hint, x, breaks_hint) {
            return false;
        }
        if g.cost_evicted.get(x.index()).copied().unwrap_or(false) {
            protected.push(x);
        }
        // Looking only for a cheap register: do not disturb another
        // local range, whose colouring in instruction order is good.
        !(*max_cost != EvictionCost::MAX && self.is_local && g.is_local(x))
    }

    /// A range that took its register by spill cost keeps it against a
    /// spillable range unless that costs more to spill: the weights that
    /// would evict it are what the cost eviction overruled, and a split
    /// piece of the range it evicted (a new range, of a newer cascade)
    /// would otherwise take the register straight back.
    fn protected_from(&self, g: &mut Greedy<'_, '_, '_>, protected: &[VReg]) -> bool {
        self.spillable
            && protected.iter().any(|&x| {
                super::cost_evict::spill_cost(g, self.v) <= super::cost_evict::spill_cost(g, x)
            })
    }
}

/// Whether class `a` has fewer allocatable registers than class `b`.
#[inline]
fn more_constrained(
    orders: &mut ClassOrders,
    t: &TargetInfo<'_>,
    a: Option<RegClass>,
    b: Option<RegClass>,
) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => orders.num_allocatable(t, a) < orders.num_allocatable(t, b),
        _ => false,
    }
}

/// LLVM's `shouldEvict`: a hint is worth evicting a range that can still
/// be split, as long as that breaks no hint of its own; otherwise only a
/// strictly heavier range evicts.
fn should_evict(
    g: &Greedy<'_, '_, '_>,
    a: VReg,
    is_hint: bool,
    b: VReg,
    breaks_hint: bool,
) -> bool {
    let can_split = g.stage(b) < Stage::Spill;
    if can_split && is_hint && !breaks_hint {
        return true;
    }
    g.weight(a) > g.weight(b)
}

/// Whether `x` sits in its preferred physical register.
fn has_preferred_phys(g: &Greedy<'_, '_, '_>, x: VReg) -> bool {
    let Some(p) = g.vrm.phys(x) else { return false };
    matches!(
        g.an.hints.get(x.index()).and_then(|h| h.first()),
        Some((crate::analysis::Hint::Phys(h), _)) if *h == p
    )
}

/// Whether `v` may evict everything from hint `p` breaking at most one
/// hint (LLVM's `canEvictHintInterference`).
pub fn can_evict_hint_interference(g: &mut Greedy<'_, '_, '_>, v: VReg, p: Reg) -> bool {
    // (1 broken hint, weight 0): every eviction that breaks no hint is
    // below it, whatever it weighs.
    let mut max = EvictionCost {
        broken_hints: 1,
        max_weight: 0.0,
    };
    can_evict_interference(g, v, p, true, &mut max)
}

/// Evicts everything interfering with `v` in `p`: the evicted ranges take
/// `v`'s cascade (a new one if it had none) and go back to the queue.
pub fn evict_interference(g: &mut Greedy<'_, '_, '_>, v: VReg, p: Reg) {
    let cascade = match g.cascade(v) {
        0 => {
            let c = g.next_cascade;
            g.next_cascade += 1;
            g.set_cascade(v, c);
            c
        }
        c => c,
    };
    let Some(iv) = g.an.intervals.vreg(v) else {
        return;
    };
    let intf = g.matrix.interfering_vregs(g.t, iv, p);
    tracing::debug!(vreg = v.0, reg = %g.t.reg(p).name, evicted = ?intf.iter().map(|x| x.0).collect::<Vec<_>>(), "evict");
    g.events.note(|| crate::events::Event::Evict {
        vreg: v,
        reg: p,
        evicted: intf.clone(),
    });
    for x in intf {
        g.unassign(x);
        g.set_cascade(x, cascade);
        g.enqueue(x);
    }
}

/// LLVM's `tryEvict`: the register in `order` that is cheapest to free
/// for `v`, stopping at the first hint that can be freed; evicts its
/// interference and returns it.
pub fn try_evict(g: &mut Greedy<'_, '_, '_>, v: VReg, order: &AllocationOrder) -> Option<Reg> {
    let mut best_cost = EvictionCost::MAX;
    let mut best = None;
    for (k, &p) in order.regs.iter().enumerate() {
        let is_hint = k < order.hints;
        // As in LLVM, a hint found in the order only ends the search; the
        // hint rule of `should_evict` is for the preferred physical
        // register alone (`can_evict_hint_interference`).
        if !can_evict_interference(g, v, p, false, &mut best_cost) {
            continue;
        }
        best = Some(p);
        if is_hint {
            break;
        }
    }
    let p = best?;
    evict_interference(g, v, p);
    Some(p)
}
