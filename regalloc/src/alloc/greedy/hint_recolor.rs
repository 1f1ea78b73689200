//! Recoloring for broken copy hints (LLVM's `tryHintsRecoloring`): once every range has a register, the ranges joined by COPYs whose two sides ended up in different registers are moved, where they are free to, into one register, so that the copies between them disappear.
//!
//! Allocation assigns ranges one at a time: a range takes its copy
//! partner's register only if the partner already has one and it is free
//! then, so split pieces, and the two sides of a copy between virtual
//! registers, often end up in different registers and keep the copy. Here,
//! for each range with such a broken copy, in decreasing order of the
//! frequency its broken copies execute at, the ranges reachable from it
//! through copies are moved to one target register where it is free for
//! them and in their order (a walk that continues through every range
//! moved or already there): the range's own register, as LLVM does, or a
//! physical register it is copied to or from (an argument or a return
//! value's register). The target whose moves leave the fewest copies
//! between different registers, weighted by block frequency, is taken if
//! that is fewer than before. Moving a range never changes spill code:
//! each keeps a register.

use crate::analysis::stamp::StampSet;
use crate::ir::{Operand, RegRef, VReg};
use crate::target::Reg;

use super::super::matrix::Interference;
use super::Greedy;

/// One side of a full-register COPY.
#[derive(Copy, Clone, PartialEq, Debug)]
enum Side {
    Virt(VReg),
    Phys(Reg),
}

/// A COPY between two whole registers, at least one of them virtual.
#[derive(Copy, Clone, Debug)]
struct Copy {
    a: Side,
    b: Side,
    freq: f32,
}

/// The register holding `s`, if any.
fn reg_of(g: &Greedy<'_, '_, '_>, s: Side) -> Option<Reg> {
    match s {
        Side::Virt(v) => g.vrm.phys(v),
        Side::Phys(p) => Some(p),
    }
}

/// Whether copy `c` moves a value between two different registers. A
/// copy with a side that has no register (a spilled range) is not
/// broken: no recoloring can remove it.
fn broken(g: &Greedy<'_, '_, '_>, c: &Copy) -> bool {
    match (reg_of(g, c.a), reg_of(g, c.b)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// The copies touching each virtual register: one flat list of copy
/// indexes grouped by register (a counting sort), instead of one small
/// vector per register, most of them never used.
struct CopiesOf {
    /// Register `v`'s copies are `list[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    list: Vec<u32>,
}

impl CopiesOf {
    /// The indexes (into the copy list) of the copies touching `v`.
    fn of(&self, v: VReg) -> &[u32] {
        match (self.start.get(v.index()), self.start.get(v.index() + 1)) {
            (Some(&a), Some(&b)) => &self.list[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// The COPYs of the function as allocation left them (split copies
/// included, copies the spiller turned into spill code or removed left
/// out), and per virtual register the copies touching it.
fn copies(g: &Greedy<'_, '_, '_>) -> (Vec<Copy>, CopiesOf) {
    let mut removed = vec![false; g.func.insts.len()];
    for &i in &g.spiller.code.removed {
        if let Some(r) = removed.get_mut(i.index()) {
            *r = true;
        }
    }
    let side = |o: Option<&Operand>| match o.and_then(Operand::as_reg) {
        Some(r) if r.sub.is_none() => match r.reg {
            RegRef::Virt(v) => Some(Side::Virt(v)),
            RegRef::Phys(p) => Some(Side::Phys(p)),
            RegRef::NoReg => None,
        },
        _ => None,
    };
    let nv = g.func.vregs.len();
    let mut list = Vec::new();
    // Per register, the number of copies touching it (shifted by one,
    // then summed into each register's start).
    let mut start = vec![0u32; nv + 1];
    for b in g.func.block_ids() {
        let freq = g.an.flow.freq.relative(b);
        for &i in &g.func.block(b).insts {
            let inst = g.func.inst(i);
            if !inst.op.is_copy() || removed.get(i.index()).copied().unwrap_or(true) {
                continue;
            }
            let (Some(a), Some(b)) = (side(inst.operands.first()), side(inst.operands.get(1)))
            else {
                continue;
            };
            if matches!((a, b), (Side::Phys(_), Side::Phys(_))) || a == b {
                continue;
            }
            list.push(Copy { a, b, freq });
            for s in [a, b] {
                if let Side::Virt(v) = s
                    && v.index() < nv
                {
                    start[v.index() + 1] += 1;
                }
            }
        }
    }
    for v in 0..nv {
        start[v + 1] += start[v];
    }
    let mut next = start.clone();
    let mut of = vec![0u32; start[nv] as usize];
    for (k, c) in list.iter().enumerate() {
        for s in [c.a, c.b] {
            if let Side::Virt(v) = s
                && v.index() < nv
            {
                of[next[v.index()] as usize] = k as u32;
                next[v.index()] += 1;
            }
        }
    }
    (list, CopiesOf { start, list: of })
}

/// The frequency of the broken copies among `touched` (indices into
/// `copies`).
fn broken_cost(g: &Greedy<'_, '_, '_>, copies: &[Copy], touched: &[u32]) -> f32 {
    touched
        .iter()
        .map(|&k| &copies[k as usize])
        .filter(|c| broken(g, c))
        .map(|c| c.freq)
        .sum()
}

/// Recolors the copy-related ranges of every range with a broken copy;
/// returns how many ranges moved.
pub fn recolor_broken_hints(g: &mut Greedy<'_, '_, '_>) -> usize {
    let (copies, of) = copies(g);
    // The ranges with broken copies, most expensive first.
    let mut start: Vec<(f32, VReg)> = (0..g.func.vregs.len())
        .filter_map(|v| {
            let v = VReg::new(v);
            let ks = of.of(v);
            if ks.is_empty() {
                return None;
            }
            g.vrm.phys(v)?;
            let cost = broken_cost(g, &copies, ks);
            (cost > 0.0).then_some((cost, v))
        })
        .collect();
    start.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut moved_total = 0;
    let mut walk = Walk {
        visited: StampSet::new(g.func.vregs.len()),
        moves: Vec::new(),
        touched: Vec::new(),
        stack: Vec::new(),
    };
    let mut targets: Vec<Reg> = Vec::new();
    for (_, v) in start {
        let Some(p) = g.vrm.phys(v) else { continue };
        // The copy may have been mended by an earlier recoloring.
        if !of.of(v).iter().any(|&k| broken(g, &copies[k as usize])) {
            continue;
        }
        // Its own register, and the physical registers it is copied to or
        // from (a callee-saved one only if already in use).
        targets.clear();
        targets.push(p);
        for &k in of.of(v) {
            let k = k as usize;
            for s in [copies[k].a, copies[k].b] {
                if let Side::Phys(q) = s
                    && q != p
                    && !targets.contains(&q)
                    && !g.is_unused_csr(q)
                {
                    targets.push(q);
                }
            }
        }
        let mut best: Option<(f32, Reg)> = None;
        for &q in &targets {
            let gain = walk.gain(g, &copies, &of, v, q);
            if gain > 0.0 && best.is_none_or(|b| gain > b.0) {
                best = Some((gain, q));
            }
        }
        if let Some((gain, q)) = best {
            // The walk holds the moves of the last target measured; measure
            // the best again only if it was not that one.
            if targets.last() != Some(&q) {
                walk.gain(g, &copies, &of, v, q);
            }
            walk.apply(g, q);
            tracing::debug!(vreg = v.0, reg = %g.t.reg(q).name, moved = walk.moves.len(), gain, "hint recoloring");
            moved_total += walk.moves.len();
        }
    }
    moved_total
}

/// The walk over copy-related ranges from one range, with its scratch.
struct Walk {
    /// The virtual registers the current walk reached.
    visited: StampSet,
    /// The ranges the last walk moved, with their registers before.
    moves: Vec<(VReg, Reg)>,
    /// The copies it touched.
    touched: Vec<u32>,
    /// The ranges still to visit.
    stack: Vec<VReg>,
}

impl Walk {
    /// Moves the ranges reachable from `v` through copies to `p` where `p`
    /// is free for them and in their order (continuing through every range
    /// moved or already there), measures how much less often the touched
    /// copies then join different registers, and undoes the moves (kept
    /// in `moves` for [`Walk::apply`]).
    fn gain(
        &mut self,
        g: &mut Greedy<'_, '_, '_>,
        copies: &[Copy],
        of: &CopiesOf,
        v: VReg,
        p: Reg,
    ) -> f32 {
        self.visited.clear();
        self.moves.clear();
        self.touched.clear();
        self.stack.clear();
        self.stack.push(v);
        self.visited.insert(v.index());
        while let Some(x) = self.stack.pop() {
            let Some(cur) = g.vrm.phys(x) else { continue };
            if cur != p {
                // `p` is in `x`'s allocation order exactly when it is in its
                // class's base order (hints outside it are left out): asked
                // of the base directly, without building the order.
                let allowed = g
                    .func
                    .vreg_class(x)
                    .filter(|c| c.index() < g.t.classes.len())
                    .is_some_and(|c| g.orders.base(g.t, c).contains(&p));
                if !allowed || g.check(x, p) != Interference::Free {
                    continue;
                }
                g.unassign(x);
                g.assign(x, p);
                self.moves.push((x, cur));
            }
            for &k in of.of(x) {
                self.touched.push(k);
                let c = &copies[k as usize];
                for s in [c.a, c.b] {
                    if let Side::Virt(y) = s
                        && self.visited.insert(y.index())
                    {
                        self.stack.push(y);
                    }
                }
            }
        }
        if self.moves.is_empty() {
            return 0.0;
        }
        self.touched.sort_unstable();
        self.touched.dedup();
        let after = broken_cost(g, copies, &self.touched);
        for &(x, old) in self.moves.iter().rev() {
            g.unassign(x);
            g.assign(x, old);
        }
        broken_cost(g, copies, &self.touched) - after
    }

    /// Makes the moves the last [`Walk::gain`] measured.
    fn apply(&self, g: &mut Greedy<'_, '_, '_>, p: Reg) {
        for &(x, _) in &self.moves {
            g.unassign(x);
            g.assign(x, p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    use super::super::GreedyOptions;

    /// `%2` is a copy of `%1`. `%4` overlaps `%1` only and `%3` overlaps
    /// `%2` only, when `blockers`.
    fn function(blockers: bool) -> String {
        let line = |s: &str| {
            if blockers {
                s.to_string()
            } else {
                String::new()
            }
        };
        format!(
            "---
name: hints
tracksRegLiveness: true
registers:
  - {{ id: 1, class: gpr }}
  - {{ id: 2, class: gpr }}
  - {{ id: 3, class: gpr }}
  - {{ id: 4, class: gpr }}
body: |
  bb.0:
{}    %1:gpr = LD_imm64 1
{}    STD %1, %1, 0
    %2:gpr = COPY %1
{}    STD %2, %2, 8
{}    RET
...
",
            line("    %4:gpr = LD_imm64 4\n"),
            line("    STD %4, %4, 0\n"),
            line("    %3:gpr = LD_imm64 3\n"),
            line("    STD %3, %3, 0\n"),
        )
    }

    #[test]
    fn copy_related_ranges_join_one_register() {
        let mut f = read(&function(false));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = g.order(VReg(1)).unwrap().regs;
        g.assign(VReg(1), order[0]);
        g.assign(VReg(2), order[1]);
        assert_eq!(recolor_broken_hints(&mut g), 1);
        assert_eq!(g.vrm.phys(VReg(1)), Some(order[0]));
        assert_eq!(g.vrm.phys(VReg(2)), Some(order[0]));
    }

    #[test]
    fn no_range_moves_into_a_register_taken_where_it_lives() {
        let mut f = read(&function(true));
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let order = g.order(VReg(1)).unwrap().regs;
        g.assign(VReg(1), order[0]);
        g.assign(VReg(4), order[1]);
        g.assign(VReg(2), order[1]);
        g.assign(VReg(3), order[0]);
        // `%3` holds `%1`'s register where `%2` lives, `%4` holds `%2`'s
        // register where `%1` lives: neither can join the other.
        assert_eq!(recolor_broken_hints(&mut g), 0);
        assert_eq!(g.vrm.phys(VReg(1)), Some(order[0]));
        assert_eq!(g.vrm.phys(VReg(2)), Some(order[1]));

        // Without `%3`, `%2` joins `%1`.
        g.unassign(VReg(3));
        assert_eq!(recolor_broken_hints(&mut g), 1);
        assert_eq!(g.vrm.phys(VReg(2)), Some(order[0]));
    }

    #[test]
    fn a_range_copied_to_a_physical_register_moves_into_it() {
        let mut f = read(
            "---
name: ret
tracksRegLiveness: true
registers:
  - { id: 1, class: gpr }
body: |
  bb.0:
    %1:gpr = LD_imm64 1
    STD %1, %1, 0
    $r0 = COPY %1
    RET implicit $r0
...
",
        );
        let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
        let r0 = bpf().find_reg("r0").unwrap();
        let other = *g
            .order(VReg(1))
            .unwrap()
            .regs
            .iter()
            .find(|&&r| r != r0)
            .unwrap();
        g.assign(VReg(1), other);
        assert_eq!(recolor_broken_hints(&mut g), 1);
        assert_eq!(g.vrm.phys(VReg(1)), Some(r0));
    }
}
