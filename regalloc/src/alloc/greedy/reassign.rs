//! Moving interference aside: a range that finds no free register takes one whose few interfering ranges can each move to a register that is free for them, so that nothing is evicted, split or spilled (one level of recoloring, tried before a split or a spill).
//!
//! For each register `P` of the order whose only interference is virtual
//! and comes from at most [`MAX_MOVED`] ranges, each of those ranges looks
//! for a register of its own order that is free for it, does not overlap
//! `P` and does not overlap the register another of them just picked.
//! When every one finds one, they move and the range takes `P`.
//!
//! This is last-chance recoloring ([`super::recolor`]) one level deep,
//! searched without touching the matrix until the moves are known to
//! work: a failed attempt costs interference queries only, so it can run
//! for every range about to be split or spilled, where LLVM recolors only
//! ranges that cannot be spilled. It never makes the allocation worse in
//! spill code: the moved ranges keep a register (their copy hints may be
//! lost), and the range itself is neither split nor spilled.

use crate::ir::VReg;
use crate::target::Reg;

use super::super::matrix::Interference;
use super::super::order::AllocationOrder;
use super::{Greedy, Stage};

/// At most this many ranges move out of the way of one range. Measured
/// on the corpus: one finds too little (AArch64 `BZ2_compressBlock` +278
/// weighted), three moves ranges a later range wanted (x86-64
/// `LZ4HC_compress_optimal` +186); two is better than both everywhere.
pub const MAX_MOVED: usize = 2;

/// A register of `order` for `v` after moving the ranges in its way, which
/// are moved; `None` (and nothing changed) when no register can be freed
/// that way. `v` itself is left for the caller to assign.
pub fn try_reassign(g: &mut Greedy<'_, '_, '_>, v: VReg, order: &AllocationOrder) -> Option<Reg> {
    let mut picks: Vec<(VReg, Reg)> = Vec::with_capacity(MAX_MOVED);
    for &p in &order.regs {
        // Only virtual interference can move: the rest is ruled out here,
        // and whether virtual registers are in the way at all is what
        // collecting them below finds (an empty list), in one union walk.
        if g.check_fixed(v, p) != Interference::Free {
            continue;
        }
        let Some(movable) =
            g.an.intervals
                .vreg(v)
                .and_then(|iv| movable_interference(g, iv, g.func.vreg_class(v), p))
        else {
            continue;
        };
        if move_aside(g, &movable, p, &mut picks) {
            return Some(p);
        }
    }
    None
}

/// Moves each of `movable` out of `p` to a register free for it; `false`
/// (and nothing moved) when one of them finds none. `picks` is scratch.
pub(super) fn move_aside(
    g: &mut Greedy<'_, '_, '_>,
    movable: &[VReg],
    p: Reg,
    picks: &mut Vec<(VReg, Reg)>,
) -> bool {
    picks.clear();
    for &c in movable {
        match free_elsewhere(g, c, p, picks) {
            Some(q) => picks.push((c, q)),
            None => return false,
        }
    }
    for &(c, q) in picks.iter() {
        tracing::debug!(vreg = c.0, from = %g.t.reg(p).name, to = %g.t.reg(q).name, "move aside");
        g.unassign(c);
        g.assign(c, q);
    }
    true
}

/// The ranges in the way of `iv` (of class `class`) in `p`, when there
/// are at most [`MAX_MOVED`] and each may move: not a spill product of
/// that class (it would be as stuck), and assigned.
pub(super) fn movable_interference(
    g: &Greedy<'_, '_, '_>,
    iv: &crate::analysis::LiveInterval,
    class: Option<crate::target::RegClass>,
    p: Reg,
) -> Option<Vec<VReg>> {
    let out = g
        .matrix
        .interfering_vregs_at_most(g.t, iv, p, MAX_MOVED)
        .filter(|o| !o.is_empty())?;
    let stuck = |x: VReg| {
        g.vrm.phys(x).is_none() || g.stage(x) == Stage::Done && g.func.vreg_class(x) == class
    };
    if out.iter().any(|&x| stuck(x)) {
        return None;
    }
    Some(out)
}

/// A register of `c`'s order that is free for `c`, overlaps neither `p`
/// (which `c` leaves) nor a register already picked for another moved
/// range.
pub(super) fn free_elsewhere(
    g: &mut Greedy<'_, '_, '_>,
    c: VReg,
    p: Reg,
    picks: &[(VReg, Reg)],
) -> Option<Reg> {
    // `c`'s order (`Greedy::order`, which has none without a class) is
    // walked once: in its parts, not collected.
    let class = g
        .func
        .vreg_class(c)
        .filter(|k| k.index() < g.t.classes.len())?;
    let iv = g.an.intervals.vreg(c)?;
    let mut hints = std::mem::take(&mut g.hint_scratch);
    let vrm = &g.vrm;
    let base = AllocationOrder::parts(g.t, &g.orders, class, c, &g.an, |x| vrm.phys(x), &mut hints);
    // The calls inside `c`'s range, collected once for all its registers.
    let masks = g.matrix.masks_in(&iv.range);
    let free = |q: Reg| {
        !g.t.regs_overlap(q, p)
            && picks.iter().all(|&(_, r)| !g.t.regs_overlap(q, r))
            && g.matrix.check_with_masks(g.t, iv, q, &masks) == Interference::Free
    };
    let found = hints.iter().copied().find(|&q| free(q)).or_else(|| {
        base.iter()
            .copied()
            .find(|&q| !hints.contains(&q) && free(q))
    });
    g.hint_scratch = hints;
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    use super::super::GreedyOptions;
    use super::super::recolor::tests::{assignments, blockers, crowd, function};

    #[test]
    fn the_range_in_the_way_moves_to_a_register_free_for_it() {
        let n = blockers();
        let mut f = read(&function(n, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        for &p in &order {
            assert_ne!(g.check(VReg(2), p), Interference::Free);
        }
        let ao = g.order(VReg(2)).unwrap();
        // `%1` joins `%3`, which lives after it; `%2` takes `%1`'s place.
        assert_eq!(try_reassign(&mut g, VReg(2), &ao), Some(order[0]));
        assert_eq!(g.vrm.phys(VReg(1)), Some(order[1]));
        assert_eq!(g.vrm.phys(VReg(3)), Some(order[1]));
        assert_eq!(g.vrm.phys(VReg(2)), None, "left for the caller to assign");
        assert_eq!(g.check(VReg(2), order[0]), Interference::Free);
    }

    #[test]
    fn nothing_moves_when_no_range_in_the_way_has_a_free_register() {
        let n = blockers();
        // `%3` now overlaps `%1`: neither can take the other's register.
        let mut f = read(&function(n, true));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        crowd(&mut g, n);
        let before = assignments(&g, n);
        let ao = g.order(VReg(2)).unwrap();
        assert_eq!(try_reassign(&mut g, VReg(2), &ao), None);
        assert_eq!(before, assignments(&g, n));
    }

    #[test]
    fn spill_products_of_the_same_class_stay_where_they_are() {
        let n = blockers();
        let mut f = read(&function(n, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        g.set_stage(VReg(1), Stage::Done);
        let movable = |g: &Greedy<'_, '_, '_>| {
            let iv = g.an.intervals.vreg(VReg(2)).unwrap();
            movable_interference(g, iv, g.func.vreg_class(VReg(2)), order[0])
        };
        assert_eq!(movable(&g), None);
        g.set_stage(VReg(1), Stage::New);
        assert_eq!(movable(&g), Some(vec![VReg(1)]));
        // With both neighbours spill products, nothing can be freed.
        let ao = g.order(VReg(2)).unwrap();
        g.set_stage(VReg(1), Stage::Done);
        g.set_stage(VReg(3), Stage::Done);
        assert_eq!(try_reassign(&mut g, VReg(2), &ao), None);
    }
}
