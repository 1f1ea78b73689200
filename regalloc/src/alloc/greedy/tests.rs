//! Unit tests of the greedy allocator on small BPF functions: eviction and its cascades, splitting around a loop, termination of the stages, allocation checked by the symbolic checker.

use std::fmt::Write as _;

use super::evict::{EvictionCost, can_evict_interference, evict_interference};
use super::{Greedy, GreedyOptions, Stage};
use crate::ir::VReg;
use crate::record::Edit;
use crate::target::fixtures::bpf;
use crate::{Allocator, Options, allocate_recorded};

use crate::target::fixtures::read_bpf_function as read;

fn reg(name: &str) -> crate::target::Reg {
    bpf().find_reg(name).unwrap()
}

/// `%1` is used four times, `%2` once; both are live over the same
/// instructions, so they interfere.
const TWO: &str = "---
name: two
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = LDD %0, 0
    %2:gpr = LDD %0, 8
    %0:gpr = ADD_rr %0, %1
    %0:gpr = ADD_rr %0, %1
    %0:gpr = ADD_rr %0, %1
    %0:gpr = ADD_rr %0, %2
    %0:gpr = ADD_rr %0, %1
    $r0 = COPY %0
    RET implicit $r0
...
";

#[test]
fn heavier_range_evicts_and_cascade_stops_the_way_back() {
    let mut f = read(TWO);
    let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
    let (heavy, light) = (VReg(1), VReg(2));
    assert!(g.weight(heavy) > g.weight(light));
    let r6 = reg("r6");
    g.assign(light, r6);
    // No cascade yet: the heavier range may evict the lighter one.
    let mut cost = EvictionCost::MAX;
    assert!(can_evict_interference(&mut g, heavy, r6, false, &mut cost));
    assert_eq!(cost.broken_hints, 0);
    assert_eq!(cost.max_weight, g.weight(light));
    evict_interference(&mut g, heavy, r6);
    g.assign(heavy, r6);
    assert_eq!(g.vrm.phys(light), None, "evicted");
    let c = g.cascade(heavy);
    assert!(c > 0, "the evictor got a cascade");
    assert_eq!(
        g.cascade(light),
        c,
        "the evicted range took the evictor's cascade"
    );
    // The lighter range cannot evict back: lighter, and of the same
    // cascade even when the register is its hint.
    let mut cost = EvictionCost::MAX;
    assert!(!can_evict_interference(&mut g, light, r6, false, &mut cost));
    let mut cost = EvictionCost::MAX;
    assert!(!can_evict_interference(&mut g, light, r6, true, &mut cost));
    // A spill product is never evicted.
    g.unassign(heavy);
    g.assign(light, r6);
    g.set_cascade(light, 0);
    g.set_cascade(heavy, 0);
    g.set_stage(light, Stage::Done);
    let mut cost = EvictionCost::MAX;
    assert!(!can_evict_interference(&mut g, heavy, r6, false, &mut cost));
    // An older cascade (a lower number) cannot evict a younger one unless
    // urgent; a younger one can evict an older one.
    g.set_stage(light, Stage::Assign);
    g.set_cascade(light, 7);
    g.set_cascade(heavy, 3);
    let mut cost = EvictionCost::MAX;
    assert!(!can_evict_interference(&mut g, heavy, r6, false, &mut cost));
    g.set_cascade(heavy, 9);
    let mut cost = EvictionCost::MAX;
    assert!(can_evict_interference(&mut g, heavy, r6, false, &mut cost));
}

#[test]
fn eviction_cost_prefers_fewer_broken_hints_then_lighter() {
    let a = EvictionCost {
        broken_hints: 0,
        max_weight: 5.0,
    };
    let b = EvictionCost {
        broken_hints: 1,
        max_weight: 0.1,
    };
    let c = EvictionCost {
        broken_hints: 0,
        max_weight: 6.0,
    };
    assert!(a.less(&b) && a.less(&c) && !b.less(&a) && !a.less(&a));
    assert!(b.less(&EvictionCost::MAX));
}

/// `n` values live at once in a loop body with a call, and `%outer`
/// defined before the loop, used before and after it: `%outer` should
/// live in a register outside the loop and on the stack inside it.
fn loop_with_pressure(n: usize) -> String {
    let mut s = String::from("---\nname: l\ntracksRegLiveness: true\nregisters:\n");
    for k in 0..n + 3 {
        let _ = writeln!(s, "  - {{ id: {k}, class: gpr }}");
    }
    let outer = n + 1;
    let acc = n + 2;
    s.push_str("liveins:\n  - { reg: '$r1', virtual-reg: '%0' }\nbody: |\n");
    s.push_str("  bb.0:\n    successors: %bb.1\n    liveins: $r1\n    %0:gpr = COPY $r1\n");
    let _ = writeln!(s, "    %{outer}:gpr = LDD %0, 0");
    let _ = writeln!(s, "    %{acc}:gpr = COPY %{outer}");
    s.push_str("    JMP %bb.1\n");
    s.push_str("  bb.1:\n    successors: %bb.1, %bb.2\n");
    for k in 1..=n {
        let _ = writeln!(s, "    %{k}:gpr = LDD %0, {}", 8 * k);
    }
    // Each loop value is used twice: they outweigh the outer value.
    for _ in 0..2 {
        for k in 1..=n {
            let _ = writeln!(s, "    %{acc}:gpr = ADD_rr %{acc}, %{k}");
        }
    }
    s.push_str("    %0:gpr = ADD_ri %0, 64\n    JNE_ri %0, 0, %bb.1\n    JMP %bb.2\n");
    s.push_str("  bb.2:\n");
    let _ = writeln!(s, "    %{acc}:gpr = ADD_rr %{acc}, %{outer}");
    let _ = writeln!(s, "    $r0 = COPY %{acc}\n    RET implicit $r0\n...");
    s
}

#[test]
fn a_value_crossing_a_crowded_loop_is_split_around_it() {
    let mut f = read(&loop_with_pressure(8));
    let original = f.clone();
    let opts = Options {
        allocator: Allocator::Greedy,
        check: true,
    };
    let (stats, rec) = allocate_recorded(bpf(), &mut f, &opts).expect("allocates and checks");
    // Spill code for the outer value sits outside the loop: no store or
    // reload in bb.1 of any value defined outside it.
    let loop_block = &f.blocks[1];
    let in_loop = loop_block
        .insts
        .iter()
        .filter(|i| {
            matches!(
                rec.edit(**i),
                Some(Edit::Spill { .. } | Edit::Reload { .. })
            )
        })
        .count();
    assert_eq!(
        in_loop,
        0,
        "no spill code in the loop: {}",
        crate::mir::write_function(bpf(), &f)
    );
    assert!(
        stats.spills + stats.reloads > 0,
        "the loop is too crowded for the outer value"
    );
    assert_eq!(original.blocks.len(), f.blocks.len());
}

#[test]
fn high_pressure_terminates_and_checks() {
    // Far more values than registers, in straight-line code and in loops:
    // every range goes through assign, split and spill at most once per
    // stage; the checker accepts the result.
    for n in [4, 10, 11, 16, 30] {
        let text = loop_with_pressure(n);
        let mut f = read(&text);
        let opts = Options {
            allocator: Allocator::Greedy,
            check: true,
        };
        allocate_recorded(bpf(), &mut f, &opts).unwrap_or_else(|e| panic!("n = {n}: {e}"));
    }
}

#[test]
fn stages_only_move_forward_and_split_products_are_queued() {
    let mut f = read(&loop_with_pressure(12));
    let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
    let mut seen = 0;
    let mut last: Vec<Stage> = g.stage.clone();
    while let Some(v) = g.queue.pop() {
        if g.vrm.phys(v).is_some() || g.an.intervals.vreg(v).is_none() {
            continue;
        }
        g.select_or_split(v).expect("allocates");
        for (k, s) in g.stage.iter().enumerate() {
            if let Some(&before) = last.get(k) {
                assert!(*s >= before, "%{k} went back from {before:?} to {s:?}");
            }
        }
        last = g.stage.clone();
        seen += 1;
        assert!(seen < 10_000, "the queue does not drain");
    }
    // Everything with an interval ended in a register.
    for (v, iv) in g.an.intervals.vregs.iter().enumerate() {
        if iv.is_some() {
            assert!(g.vrm.phys(VReg::new(v)).is_some(), "%{v} unassigned");
        }
    }
}

/// `%2` is a split piece of `%1` (a constant) brought by a copy.
const PIECE: &str = "---
name: piece
tracksRegLiveness: true
registers:
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
body: |
  bb.0:
    %1:gpr = LD_imm64 7
    %2:gpr = COPY %1
    STD %2, %2, 0
    STD %2, %2, 8
    RET
...
";

#[test]
fn a_source_left_without_use_by_a_recomputed_piece_is_removed() {
    let mut f = read(PIECE);
    let mut g = Greedy::new(bpf(), &mut f, GreedyOptions::default());
    let (source, piece) = (VReg(1), VReg(2));
    let range = g.an.intervals.vreg(source).unwrap().range.clone();
    g.an.intervals.keep_original(source, &range);
    g.vrm.set_original(piece, source);
    let r6 = reg("r6");
    g.assign(source, r6);
    g.spill(piece).unwrap();
    // Both uses recompute the constant: the copy is dead, and with it the
    // constant's definition, whose register is free again.
    let [def, copy] = [0, 1].map(|k| g.func.blocks[0].insts[k]);
    assert!(g.spiller.code.removed.contains(&copy));
    assert!(g.spiller.code.removed.contains(&def));
    assert_eq!(g.vrm.phys(source), None);
    assert!(g.an.intervals.vreg(source).is_none());
}
