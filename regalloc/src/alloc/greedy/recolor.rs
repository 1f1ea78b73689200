//! Last-chance recoloring (LLVM's `tryLastChanceRecoloring`): a range that cannot be spilled (a spill product, or a range of infinite weight) and found no free register and nothing to evict moves the ranges in one register's way to other registers, recursively, with the search bounded in depth and breadth.
//!
//! For each register `P` of the order whose only interference is virtual:
//! the interfering ranges are taken out of their registers, the range is
//! put in `P`, and each interfering range, heaviest priority first, must
//! find a register again: a free one, or by recoloring in turn one level
//! deeper. A range recolored in this session is fixed: it is not moved
//! again, which bounds the search together with the depth limit
//! ([`MAX_DEPTH`]) and the cap on interfering ranges per unit
//! ([`MAX_INTERFERENCE`]). An interfering spill product of the same class
//! as the range is in the same plight and cannot help, so such a register
//! is skipped, unless the range has a tied definition and the interference
//! has none. When any range fails to find a register, every assignment
//! changed for this `P` is undone from a log before the next register is
//! tried, so a failed search leaves the allocation exactly as it found it.
//!
//! Unlike LLVM, the ranges moved are only ever assigned (never split,
//! evicted into the queue or spilled) during the search: the search then
//! has no effect beyond the assignments it logs.

use crate::ir::{Operand, RegRef, VReg};
use crate::target::Reg;

use super::super::matrix::Interference;
use super::queue::priority;
use super::{Greedy, Stage};

/// How deep recoloring may recurse (LLVM's `lcr-max-depth`).
pub const MAX_DEPTH: usize = 5;

/// With this many interfering ranges on one unit, give up on the register
/// (LLVM's `lcr-max-interf`).
pub const MAX_INTERFERENCE: usize = 8;

/// One recoloring session: the ranges that may no longer move, and the
/// previous assignment of every range whose assignment changed, in order.
#[derive(Default)]
struct Session {
    fixed: Vec<VReg>,
    log: Vec<(VReg, Option<Reg>)>,
}

impl Session {
    /// Moves `v` to `p` (or out of any register), logging where it was.
    fn set(&mut self, g: &mut Greedy<'_, '_, '_>, v: VReg, p: Option<Reg>) {
        let old = g.vrm.phys(v);
        self.log.push((v, old));
        if old.is_some() {
            g.unassign(v);
        }
        if let Some(p) = p {
            g.assign(v, p);
        }
    }

    /// Undoes every change logged after the first `len`.
    fn undo(&mut self, g: &mut Greedy<'_, '_, '_>, len: usize) {
        while self.log.len() > len {
            let Some((v, old)) = self.log.pop() else {
                break;
            };
            if g.vrm.phys(v).is_some() {
                g.unassign(v);
            }
            if let Some(p) = old {
                g.assign(v, p);
            }
        }
    }
}

/// Finds `v` a register by moving the ranges in the way; `v` itself is left
/// unassigned and the register returned for the caller to assign. The
/// ranges moved keep their new registers. `None` (and nothing changed)
/// when no register can be freed.
pub fn try_last_chance_recoloring(g: &mut Greedy<'_, '_, '_>, v: VReg) -> Option<Reg> {
    let mut s = Session::default();
    let p = recolor(g, v, &mut s, 0)?;
    // The session assigned `v` to `p`; hand it back unassigned.
    g.unassign(v);
    tracing::debug!(vreg = v.0, reg = %g.t.reg(p).name, moved = s.log.len() - 1, "last chance recoloring");
    Some(p)
}

/// Assigns `v` to a register of its order, moving interference as needed;
/// the assignment is logged in `s`. `None` (nothing changed) on failure.
fn recolor(g: &mut Greedy<'_, '_, '_>, v: VReg, s: &mut Session, depth: usize) -> Option<Reg> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let order = g.order(v).ok()?;
    s.fixed.push(v);
    for &p in &order.regs {
        match g.check(v, p) {
            Interference::Free => {
                s.set(g, v, Some(p));
                return Some(p);
            }
            Interference::Virt => {}
            Interference::RegUnit | Interference::RegMask => continue,
        }
        let Some(mut candidates) = recolorable_interference(g, v, p, &s.fixed) else {
            continue;
        };
        let start = s.log.len();
        for &c in &candidates {
            s.set(g, c, None);
        }
        s.set(g, v, Some(p));
        // The most constrained ranges (highest priority) choose first.
        candidates.sort_by_key(|&c| std::cmp::Reverse(priority(g, c)));
        if candidates
            .iter()
            .all(|&c| recolor(g, c, s, depth + 1).is_some())
        {
            return Some(p);
        }
        s.undo(g, start);
    }
    None
}

/// The ranges assigned to registers overlapping `p` that interfere with
/// `v`, if every one of them may be moved: none is fixed in this session,
/// none is a spill product of `v`'s class (unless `v` has a tied definition
/// and it has none), and no unit holds [`MAX_INTERFERENCE`] or more.
fn recolorable_interference(
    g: &Greedy<'_, '_, '_>,
    v: VReg,
    p: Reg,
    fixed: &[VReg],
) -> Option<Vec<VReg>> {
    let iv = g.an.intervals.vreg(v)?;
    for &u in g.t.units(p) {
        if g.matrix
            .interfering_on_unit(u, &iv.range, MAX_INTERFERENCE)
            .len()
            >= MAX_INTERFERENCE
        {
            return None;
        }
    }
    let out = g.matrix.interfering_vregs(g.t, iv, p);
    let class = g.func.vreg_class(v);
    let tied = has_tied_def(g, v);
    for &x in &out {
        // A tied definition the interference lacks may still find a
        // register the interference could not.
        let stuck = g.stage(x) == Stage::Done
            && g.func.vreg_class(x) == class
            && (!tied || has_tied_def(g, x));
        if stuck || fixed.contains(&x) {
            return None;
        }
    }
    Some(out)
}

/// Whether an instruction defines `v` through an operand tied to a use.
fn has_tied_def(g: &Greedy<'_, '_, '_>, v: VReg) -> bool {
    g.spiller.users(v).iter().any(|&i| {
        g.func.inst(i).operands.iter().any(|o| {
            matches!(o, Operand::Reg(r) if r.reg == RegRef::Virt(v) && r.is_def() && r.tied_to.is_some())
        })
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    use super::super::GreedyOptions;

    /// The MIR lines of `blockers` ranges `%10...` live over a whole
    /// function: their register declarations, definitions and uses.
    pub(in super::super) fn blocker_lines(blockers: usize) -> [String; 3] {
        let mut lines = [String::new(), String::new(), String::new()];
        for id in 10..10 + blockers {
            lines[0].push_str(&format!("  - {{ id: {id}, class: gpr }}\n"));
            lines[1].push_str(&format!("    %{id}:gpr = LD_imm64 {id}\n"));
            lines[2].push_str(&format!("    STD %{id}, %{id}, 0\n"));
        }
        lines
    }

    /// `%2` (the range to place) lives from its definition to the end;
    /// `%1` overlaps its start, `%3` its end (or, with `overlap`, all of
    /// it); `blockers` ranges `%10...` live over everything.
    pub(in super::super) fn function(blockers: usize, overlap: bool) -> String {
        let [regs, defs, uses] = blocker_lines(blockers);
        let (y_def, y_late) = if overlap {
            ("    %3:gpr = LD_imm64 3\n", "")
        } else {
            ("", "    %3:gpr = LD_imm64 3\n")
        };
        format!(
            "---
name: recolor
tracksRegLiveness: true
registers:
  - {{ id: 1, class: gpr }}
  - {{ id: 2, class: gpr }}
  - {{ id: 3, class: gpr }}
{regs}body: |
  bb.0:
{defs}{y_def}    %1:gpr = LD_imm64 1
    %2:gpr = LD_imm64 2
    STD %1, %2, 0
{y_late}    STD %3, %2, 0
    STD %2, %2, 8
{uses}    RET
...
"
        )
    }

    /// Blocks every register but the first two of `%2`'s order with spill
    /// products of its class, and puts `%1` and `%3` in those two.
    pub(in super::super) fn crowd(g: &mut Greedy<'_, '_, '_>, blockers: usize) -> Vec<Reg> {
        let order = g.order(VReg(2)).unwrap().regs;
        assert_eq!(order.len(), blockers + 2);
        fill_with_spill_products(g, &order[2..], blockers);
        g.assign(VReg(1), order[0]);
        g.assign(VReg(3), order[1]);
        g.set_stage(VReg(2), Stage::Done);
        order
    }

    /// Makes the `blockers` ranges `%10...` spill products in `regs`, one
    /// each.
    pub(in super::super) fn fill_with_spill_products(
        g: &mut Greedy<'_, '_, '_>,
        regs: &[Reg],
        blockers: usize,
    ) {
        for (k, &r) in regs.iter().take(blockers).enumerate() {
            let b = VReg(10 + k as u32);
            g.set_stage(b, Stage::Done);
            g.assign(b, r);
        }
    }

    /// Where each of the registers of [`function`] with `blockers` is.
    pub(in super::super) fn assignments(
        g: &Greedy<'_, '_, '_>,
        blockers: usize,
    ) -> Vec<Option<Reg>> {
        (0..10 + blockers as u32)
            .map(|v| g.vrm.phys(VReg(v)))
            .collect()
    }

    pub(in super::super) fn blockers() -> usize {
        let mut f = read(&function(0, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        g.order(VReg(2)).unwrap().regs.len() - 2
    }

    #[test]
    fn a_range_in_the_way_moves_to_a_register_free_for_it() {
        let n = blockers();
        let mut f = read(&function(n, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        // Every register interferes with `%2`.
        for &p in &order {
            assert_ne!(g.check(VReg(2), p), Interference::Free);
        }
        // `%1` moves next to `%3`, which lives after it, and `%2` takes
        // `%1`'s register.
        assert_eq!(try_last_chance_recoloring(&mut g, VReg(2)), Some(order[0]));
        assert_eq!(g.vrm.phys(VReg(1)), Some(order[1]));
        assert_eq!(g.vrm.phys(VReg(3)), Some(order[1]));
        assert_eq!(g.vrm.phys(VReg(2)), None, "left for the caller to assign");
        assert_eq!(g.check(VReg(2), order[0]), Interference::Free);
    }

    #[test]
    fn a_failed_search_leaves_every_assignment_as_it_was() {
        let n = blockers();
        let mut f = read(&function(n, true));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        let before = assignments(&g, n);
        assert_eq!(try_last_chance_recoloring(&mut g, VReg(2)), None);
        assert_eq!(before, assignments(&g, n));
        assert_eq!(g.matrix.assignment(VReg(1)), Some(order[0]));
        assert_eq!(g.matrix.assignment(VReg(3)), Some(order[1]));
    }

    #[test]
    fn spill_products_of_the_same_class_are_not_moved() {
        let n = blockers();
        let mut f = read(&function(n, false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = crowd(&mut g, n);
        g.set_stage(VReg(1), Stage::Done);
        g.set_stage(VReg(3), Stage::Done);
        assert_eq!(recolorable_interference(&g, VReg(2), order[0], &[]), None);
        g.set_stage(VReg(1), Stage::New);
        assert_eq!(
            recolorable_interference(&g, VReg(2), order[0], &[]),
            Some(vec![VReg(1)])
        );
        // A range fixed in this session is not moved either.
        assert_eq!(
            recolorable_interference(&g, VReg(2), order[0], &[VReg(1)]),
            None
        );
    }
}
