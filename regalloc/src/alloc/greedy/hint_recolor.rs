//! Recoloring for broken copy hints (LLVM's `tryHintsRecoloring`): once every range has a register, the ranges joined by COPYs whose two sides ended up in different registers are moved, where they are free to, into one register, so that the copies between them disappear.
//!
//! Allocation assigns ranges one at a time: a range takes its copy
//! partner's register only if the partner already has one and it is free
//! then, so split pieces, and the two sides of a copy between virtual
//! registers, often end up in different registers and keep the copy. Here,
//! for each range with such a broken copy, in decreasing order of the
//! frequency its broken copies execute at, the ranges reachable from it
//! through copies are moved to its register where that register is free
//! for them and in their order (a walk that continues through every range
//! moved or already there), and the moves are kept only if the copies
//! left between different registers, weighted by block frequency, cost
//! less than before. Moving a range never changes spill code: each keeps
//! a register.

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

/// Whether copy `c` moves a value between two different registers (or
/// from a range that has none).
fn broken(g: &Greedy<'_, '_, '_>, c: &Copy) -> bool {
    match (reg_of(g, c.a), reg_of(g, c.b)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// The COPYs of the function as allocation left them (split copies
/// included, copies the spiller turned into spill code or removed left
/// out), and per virtual register the copies touching it.
fn copies(g: &Greedy<'_, '_, '_>) -> (Vec<Copy>, Vec<Vec<usize>>) {
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
    let mut list = Vec::new();
    let mut of = vec![Vec::new(); g.func.vregs.len()];
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
            let k = list.len();
            list.push(Copy { a, b, freq });
            for s in [a, b] {
                if let Side::Virt(v) = s
                    && let Some(l) = of.get_mut(v.index())
                {
                    l.push(k);
                }
            }
        }
    }
    (list, of)
}

/// The frequency of the broken copies among `touched` (indices into
/// `copies`).
fn broken_cost(g: &Greedy<'_, '_, '_>, copies: &[Copy], touched: &[usize]) -> f32 {
    touched
        .iter()
        .map(|&k| &copies[k])
        .filter(|c| broken(g, c))
        .map(|c| c.freq)
        .sum()
}

/// Recolors the copy-related ranges of every range with a broken copy;
/// returns how many ranges moved.
pub fn recolor_broken_hints(g: &mut Greedy<'_, '_, '_>) -> usize {
    let (copies, of) = copies(g);
    // The ranges with broken copies, most expensive first.
    let mut start: Vec<(f32, VReg)> = of
        .iter()
        .enumerate()
        .filter_map(|(v, ks)| {
            let v = VReg::new(v);
            g.vrm.phys(v)?;
            let cost: f32 = ks
                .iter()
                .map(|&k| &copies[k])
                .filter(|c| broken(g, c))
                .map(|c| c.freq)
                .sum();
            (cost > 0.0).then_some((cost, v))
        })
        .collect();
    start.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut moved_total = 0;
    let mut visited = vec![0u32; g.func.vregs.len()];
    let mut stamp = 0u32;
    for (_, v) in start {
        let Some(p) = g.vrm.phys(v) else { continue };
        // The copy may have been mended by an earlier recoloring.
        if !of[v.index()].iter().any(|&k| broken(g, &copies[k])) {
            continue;
        }
        stamp += 1;
        // The walk: ranges reachable through copies, moved to `p` where
        // `p` is free for them and in their order; the copies touched.
        let mut moves: Vec<(VReg, Reg)> = Vec::new();
        let mut touched: Vec<usize> = Vec::new();
        let mut stack = vec![v];
        visited[v.index()] = stamp;
        while let Some(x) = stack.pop() {
            let Some(cur) = g.vrm.phys(x) else { continue };
            if cur != p {
                let allowed = g.order(x).is_ok_and(|o| o.regs.contains(&p));
                if !allowed || g.check(x, p) != Interference::Free {
                    continue;
                }
                g.unassign(x);
                g.assign(x, p);
                moves.push((x, cur));
            }
            for &k in &of[x.index()] {
                touched.push(k);
                let c = &copies[k];
                for s in [c.a, c.b] {
                    if let Side::Virt(y) = s
                        && visited[y.index()] != stamp
                    {
                        visited[y.index()] = stamp;
                        stack.push(y);
                    }
                }
            }
        }
        if moves.is_empty() {
            continue;
        }
        touched.sort_unstable();
        touched.dedup();
        let after = broken_cost(g, &copies, &touched);
        // Undo to measure the cost before, then redo if it pays.
        for &(x, old) in moves.iter().rev() {
            g.unassign(x);
            g.assign(x, old);
        }
        let before = broken_cost(g, &copies, &touched);
        if after < before {
            for &(x, _) in &moves {
                g.unassign(x);
                g.assign(x, p);
            }
            tracing::debug!(vreg = v.0, reg = %g.t.reg(p).name, moved = moves.len(), before, after, "hint recoloring");
            moved_total += moves.len();
        }
    }
    moved_total
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
}
