//! Spill placement on hand-made CFGs: loops, chains, forced spills, query reset, termination on conflicting cycles.

use super::*;
use crate::analysis::Cfg;
use BorderConstraint::{DontCare, MustSpill, PrefBoth, PrefReg, PrefSpill};

fn cfg(succs: &[&[u32]]) -> Cfg {
    Cfg::from_succs(
        succs
            .iter()
            .map(|ss| ss.iter().map(|&s| Block(s)).collect())
            .collect(),
    )
}

fn constraint(
    block: u32,
    entry: BorderConstraint,
    exit: BorderConstraint,
    change_state: bool,
) -> BlockConstraint {
    BlockConstraint {
        block: Block(block),
        entry,
        exit,
        change_state,
    }
}

const EB0: Bundle = Bundle(0);
const EB1: Bundle = Bundle(1);
const EB2: Bundle = Bundle(2);
const EB3: Bundle = Bundle(3);

/// bb0 (entry, freq 1) -> bb1 (loop header, 8); bb1 -> bb2 (loop body, 7),
/// bb3 (exit, 1); bb2 -> bb1 (back edge).
fn loop_network() -> (EdgeBundles, SpillPlacement) {
    let eb = EdgeBundles::new(&cfg(&[&[1], &[2, 3], &[1], &[]]));
    let sp = SpillPlacement::new(&eb, &[1.0, 8.0, 7.0, 1.0]);
    (eb, sp)
}

#[test]
fn loop_bundles_are_eb0_to_eb3() {
    let (eb, sp) = loop_network();
    assert_eq!(sp.num_bundles(), 4);
    let b = |blk, out| eb.bundle(Block(blk), out);
    assert_eq!(b(0, false), EB0);
    // The back edge bb2 -> bb1 joins bb2's exit to the preheader edge.
    assert_eq!([b(0, true), b(1, false), b(2, true)], [EB1; 3]);
    // The header's exit feeds both the body and the loop exit.
    assert_eq!([b(1, true), b(2, false), b(3, false)], [EB2; 3]);
    assert_eq!(b(3, true), EB3);
    assert_eq!(sp.get_block_frequency(Block(1)), 8.0);
    assert_eq!(sp.threshold(), 1.0 / 8192.0);
}

#[test]
fn loop_carried_value_stays_in_register_across_the_loop() {
    let (_, mut sp) = loop_network();
    sp.prepare();
    // Defined in bb0, used in the body bb2 and carried around the back
    // edge; the header bb1 is transparent. Dead after the loop.
    sp.add_constraints(&[
        constraint(0, DontCare, PrefReg, true),
        constraint(2, PrefReg, PrefReg, true),
    ]);
    assert!(sp.scan_active_bundles());
    sp.add_links(&[Block(1)]);
    sp.iterate();
    assert!(sp.is_stable());
    assert!(sp.is_positive(EB1) && sp.is_positive(EB2));
    assert!(!sp.is_positive(EB0) && !sp.is_positive(EB3));
    assert_eq!(sp.positive_bundles(), [EB1, EB2]);
    assert!(sp.finish(), "every touched bundle wants the register");
}

#[test]
fn loop_outweighs_a_stack_preference_before_it() {
    let (_, mut sp) = loop_network();
    sp.prepare();
    // As above, but the value arrives on the stack from bb0 (freq 1): the
    // loop's frequency (7 at the body, 8 across the header) wins, so the
    // reload goes before the loop, not inside it.
    sp.add_constraints(&[
        constraint(0, DontCare, PrefSpill, true),
        constraint(2, PrefReg, PrefReg, true),
    ]);
    assert!(sp.scan_active_bundles());
    sp.add_links(&[Block(1)]);
    sp.iterate();
    assert_eq!([sp.value(EB1), sp.value(EB2)], [1, 1]);
    assert!(sp.finish());
}

#[test]
fn interference_in_the_loop_sends_loop_bundles_to_the_stack() {
    let (_, mut sp) = loop_network();
    sp.prepare();
    // Defined in bb0, used in bb3 after the loop, live through the loop,
    // where the candidate register is busy.
    sp.add_constraints(&[
        constraint(0, DontCare, PrefReg, true),
        constraint(3, PrefReg, DontCare, true),
    ]);
    sp.add_pref_spill(&[Block(1), Block(2)], true);
    // Nothing can be positive: the caller gives up on this register.
    assert!(!sp.scan_active_bundles());
    assert!(sp.recent_positive().is_empty());
    sp.iterate();
    assert_eq!([sp.value(EB1), sp.value(EB2)], [-1, -1]);
    assert_eq!(sp.positive_bundles().len(), 0);
    assert!(!sp.finish());
}

#[test]
fn weak_interference_counts_half_of_strong() {
    let (_, mut sp) = loop_network();
    // EB2 gets PrefReg 8 (header exit, 8) against the body's spill
    // preference: 7 weak loses, 14 strong wins.
    for (strong, want) in [(false, 1), (true, -1)] {
        sp.prepare();
        sp.add_constraints(&[constraint(1, DontCare, PrefReg, true)]);
        sp.add_pref_spill(&[Block(2)], strong);
        sp.scan_active_bundles();
        sp.iterate();
        assert_eq!(sp.value(EB2), want, "strong = {strong}");
    }
}

#[test]
fn must_spill_wins_over_any_bias_and_link() {
    let (_, mut sp) = loop_network();
    sp.prepare();
    // The register is clobbered at bb0's exit; the loop wants it badly.
    sp.add_constraints(&[constraint(0, DontCare, MustSpill, true)]);
    for _ in 0..100 {
        sp.add_constraints(&[constraint(2, PrefReg, PrefReg, true)]);
    }
    // Adding to an infinite bias keeps it infinite.
    sp.add_constraints(&[constraint(0, DontCare, PrefSpill, true)]);
    assert!(sp.scan_active_bundles());
    // EB1 must spill, so only EB2 counts as newly positive.
    assert_eq!(sp.recent_positive(), [EB2]);
    sp.add_links(&[Block(1)]);
    sp.iterate();
    assert!(sp.is_stable());
    assert_eq!(sp.value(EB1), -1);
    assert_eq!(sp.value(EB2), 1);
    assert!(!sp.finish(), "EB1 is on the stack");
}

/// bb0 -> bb1 -> ... -> bb(n-1), all frequency 1: bundle k (0 < k < n) is
/// bb(k-1)'s exit and bbk's entry.
fn chain(n: usize) -> SpillPlacement {
    let succs: Vec<Vec<Block>> = (0..n)
        .map(|b| {
            if b + 1 < n {
                vec![Block::new(b + 1)]
            } else {
                vec![]
            }
        })
        .collect();
    let eb = EdgeBundles::new(&Cfg::from_succs(succs));
    assert_eq!(eb.bundle(Block(2), false), Bundle(2));
    SpillPlacement::new(&eb, &vec![1.0; n])
}

#[test]
fn chain_of_transparent_blocks_propagates_forward() {
    let mut sp = chain(6);
    sp.prepare();
    sp.add_constraints(&[
        constraint(0, DontCare, PrefReg, true),
        constraint(5, PrefBoth, DontCare, true),
    ]);
    assert!(sp.scan_active_bundles());
    sp.add_links(&[Block(1), Block(2), Block(3), Block(4)]);
    sp.iterate();
    assert!(sp.is_stable());
    let positive: Vec<_> = sp.positive_bundles();
    assert_eq!(positive, (1..=5).map(Bundle).collect::<Vec<_>>());
    assert!(sp.finish());
}

#[test]
fn chain_of_transparent_blocks_propagates_backward() {
    let mut sp = chain(6);
    sp.prepare();
    // The preference is at the far end: a single scan cannot carry it
    // back, iteration must.
    sp.add_constraints(&[
        constraint(0, DontCare, PrefBoth, true),
        constraint(5, PrefReg, DontCare, true),
    ]);
    sp.add_links(&[Block(1), Block(2), Block(3), Block(4)]);
    assert!(sp.scan_active_bundles());
    assert!(!sp.is_positive(Bundle(1)));
    sp.iterate();
    assert!(sp.is_stable());
    assert_eq!(sp.positive_bundles().len(), 5);
    assert!(sp.recent_positive().contains(&Bundle(1)));
    assert!(sp.finish());
}

#[test]
fn growing_the_region_link_by_link() {
    // The caller's loop: link the transparent blocks next to the bundles
    // that just turned positive, iterate, repeat until nothing new.
    let mut sp = chain(6);
    sp.prepare();
    sp.add_constraints(&[constraint(0, DontCare, PrefReg, true)]);
    assert!(sp.scan_active_bundles());
    let mut rounds = 0;
    while let Some(&b) = sp.recent_positive().last() {
        rounds += 1;
        // Bundle k's transparent neighbour block is bbk (its entry side).
        if b.index() >= 5 {
            break;
        }
        sp.add_links(&[Block::new(b.index())]);
        sp.iterate();
    }
    assert_eq!(rounds, 5);
    assert_eq!(sp.positive_bundles().len(), 5);
}

#[test]
fn blocks_that_keep_their_state_link_their_bundles() {
    for (change_state, want) in [(false, 1), (true, 0)] {
        let mut sp = chain(3);
        sp.prepare();
        // bb1 has a use (entry wants a register) and keeps the value live
        // out without a preference.
        sp.add_constraints(&[constraint(1, PrefReg, PrefBoth, change_state)]);
        sp.scan_active_bundles();
        sp.iterate();
        assert_eq!(sp.value(Bundle(1)), 1);
        assert_eq!(sp.value(Bundle(2)), want, "change_state = {change_state}");
    }
}

#[test]
fn prepare_resets_every_node_between_queries() {
    let (eb, mut sp) = loop_network();
    // Query A: forced spill, heavy biases, links.
    sp.prepare();
    sp.add_constraints(&[
        constraint(0, DontCare, MustSpill, true),
        constraint(2, PrefReg, PrefReg, false),
    ]);
    sp.add_pref_spill(&[Block(3)], true);
    sp.add_links(&[Block(1)]);
    sp.scan_active_bundles();
    sp.iterate();
    sp.finish();
    // Query B: a use at the body's entry; bb0's exit live without
    // preference. Left-over links from A would drag EB1 up, a left-over
    // infinite bias would hold it down: it must stay undecided.
    let query_b = |sp: &mut SpillPlacement| {
        sp.prepare();
        sp.add_constraints(&[
            constraint(0, DontCare, PrefBoth, true),
            constraint(2, PrefReg, DontCare, true),
        ]);
        let any = sp.scan_active_bundles();
        sp.iterate();
        let perfect = sp.finish();
        let values: Vec<i8> = (0..4).map(|k| sp.value(Bundle(k))).collect();
        let active: Vec<Bundle> = sp.active_bundles();
        (any, perfect, values, active, sp.recent_positive().to_vec())
    };
    let reused = query_b(&mut sp);
    let fresh = query_b(&mut SpillPlacement::new(&eb, &[1.0, 8.0, 7.0, 1.0]));
    assert_eq!(reused, fresh);
    assert_eq!(reused.2, [0, 0, 1, 0]);
    assert_eq!(reused.3, [EB1, EB2]);
    assert!(!reused.1, "EB1 is undecided");
}

#[test]
fn iterate_terminates_on_a_cycle_with_conflicting_biases() {
    // A ring bb0 -> bb1 -> bb2 -> bb0: three bundles linked in a triangle
    // by the three transparent blocks, pulled apart by their biases.
    let eb = EdgeBundles::new(&cfg(&[&[1], &[2], &[0]]));
    assert_eq!(eb.num_bundles(), 3);
    let mut sp = SpillPlacement::new(&eb, &[4.0, 4.0, 4.0]);
    sp.prepare();
    sp.add_constraints(&[
        constraint(0, PrefReg, DontCare, true),
        constraint(1, PrefSpill, DontCare, true),
        constraint(2, PrefReg, DontCare, true),
    ]);
    sp.add_pref_spill(&[Block(1)], true);
    sp.add_links(&[Block(0), Block(1), Block(2)]);
    sp.scan_active_bundles();
    sp.iterate();
    assert!(sp.is_stable());

    // A long ring with alternating strong preferences and links heavier
    // than any bias, so every node is torn between its neighbours.
    let n = 64;
    let succs: Vec<Vec<Block>> = (0..n).map(|b| vec![Block::new((b + 1) % n)]).collect();
    let eb = EdgeBundles::new(&Cfg::from_succs(succs));
    assert_eq!(eb.num_bundles(), n);
    let freq: Vec<f64> = (0..n).map(|b| 1.0 + (b % 3) as f64).collect();
    let mut sp = SpillPlacement::new(&eb, &freq);
    sp.prepare();
    let constraints: Vec<BlockConstraint> = (0..n as u32)
        .map(|b| {
            let c = if b % 2 == 0 { PrefReg } else { PrefSpill };
            constraint(b, c, DontCare, true)
        })
        .collect();
    sp.add_constraints(&constraints);
    let all: Vec<Block> = (0..n).map(Block::new).collect();
    sp.add_links(&all);
    sp.add_links(&all);
    sp.add_links(&all);
    sp.scan_active_bundles();
    sp.iterate();
    assert!(sp.is_stable());
    // Every node has a value in range and the query ends cleanly.
    assert!((0..n).all(|k| (-1..=1).contains(&sp.value(Bundle::new(k)))));
    sp.finish();
}

#[test]
fn large_bundles_lean_to_the_stack() {
    // bb0 branches to 101 blocks that all return to bb102: bb0's exit
    // bundle touches 102 blocks.
    let n = 103;
    let mut succs: Vec<Vec<Block>> = vec![(1..=101).map(Block::new).collect()];
    succs.extend((1..=101).map(|_| vec![Block::new(102)]));
    succs.push(vec![]);
    let eb = EdgeBundles::new(&Cfg::from_succs(succs));
    let big = eb.bundle(Block(0), true);
    assert_eq!(eb.blocks(big).len(), 102);
    let mut sp = SpillPlacement::new(&eb, &vec![1.0; n]);
    for (c, want) in [(PrefBoth, -1), (PrefReg, 1)] {
        sp.prepare();
        sp.add_constraints(&[constraint(0, DontCare, c, true)]);
        sp.scan_active_bundles();
        sp.iterate();
        assert_eq!(sp.value(big), want, "{c:?}");
    }
    // A small bundle with no bias stays undecided.
    sp.prepare();
    sp.add_constraints(&[constraint(102, DontCare, PrefBoth, true)]);
    sp.scan_active_bundles();
    sp.iterate();
    assert_eq!(sp.value(eb.bundle(Block(102), true)), 0);
}

#[test]
fn near_ties_stay_undecided() {
    let mut sp = chain(3);
    sp.prepare();
    // bb0's exit is wanted in the register and on the stack with equal
    // weight: the tie leaves the bundle undecided, which is not perfect.
    sp.add_constraints(&[
        constraint(0, DontCare, PrefReg, true),
        constraint(0, DontCare, PrefSpill, true),
    ]);
    sp.scan_active_bundles();
    sp.iterate();
    assert_eq!(sp.value(Bundle(1)), 0);
    assert!(!sp.finish());
}
