//! The exact solver against exhaustive search: on random problems, and on register-allocation shaped ones where the RN heuristic is taken and may lose.

use super::super::tests::{INF, Rng, brute_force, interference, random_graph};
use super::super::{Cost, Graph, Matrix};

/// Solves `g` exactly with `limit` and checks the record against the
/// selection and the heuristic; returns (heuristic cost, optimum).
fn solve_and_check(g: &Graph, limit: u64) -> (f64, Option<f64>, Vec<usize>) {
    let (heuristic, _) = g.clone().solve_counting();
    let solved = g.clone().solve_exact(limit);
    let r = &solved.round;
    assert_eq!(r.nodes, g.len());
    assert_eq!(solved.selection.len(), g.len());
    assert_eq!(r.heuristic_cost, g.total_cost(&heuristic));
    match r.optimum {
        Some(opt) => {
            assert_eq!(opt, g.total_cost(&solved.selection));
            assert!(opt <= r.heuristic_cost, "the optimum is never dearer");
        }
        None => assert_eq!(
            solved.selection, heuristic,
            "the limit keeps the heuristic's"
        ),
    }
    (r.heuristic_cost, r.optimum, solved.selection)
}

#[test]
fn exact_equals_exhaustive_search_on_random_graphs() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (mut searched, mut better) = (0, 0);
    for case in 0..20_000 {
        let g = random_graph(&mut rng);
        let (heuristic, optimum, _) = solve_and_check(&g, u64::MAX);
        let best = f64::from(brute_force(&g));
        assert_eq!(optimum, Some(best), "case {case}: {g:?}");
        let solved = g.clone().solve_exact(u64::MAX);
        if solved.round.core_nodes > 0 {
            searched += 1;
        }
        if best < heuristic {
            better += 1;
        }
    }
    // The generator must reach the search and cases the heuristic loses.
    assert!(
        searched > 1_000 && better > 100,
        "{searched} searched, {better} better than the heuristic"
    );
}

/// A register-allocation shaped problem: `nodes` registers, each with a
/// spill cost and `k` register options of cost 0 or 1 (callee-saved), an
/// interference edge between about a third of the pairs, and some
/// coalescing edges (negative costs on equal registers).
fn allocation_graph(rng: &mut Rng, nodes: usize, k: usize) -> Graph {
    let mut g = Graph::new();
    for _ in 0..nodes {
        let mut costs = vec![1.0 + rng.below(20) as Cost];
        costs.extend((0..k).map(|_| rng.below(2) as Cost));
        g.add_node(costs);
    }
    for a in 0..nodes {
        for b in a + 1..nodes {
            match rng.below(9) {
                0..=3 => g.add_edge_costs(a, b, interference(k)),
                4 => {
                    let mut m = Matrix::filled(k + 1, k + 1, 0.0);
                    for r in 1..=k {
                        m.set(r, r, -(1.0 + rng.below(4) as Cost));
                    }
                    g.add_edge_costs(a, b, m);
                }
                _ => {}
            }
        }
    }
    g
}

#[test]
fn exact_equals_exhaustive_search_where_the_heuristic_is_taken() {
    let mut rng = Rng(7);
    let (mut rn_cases, mut better) = (0, 0);
    for case in 0..600 {
        let nodes = 5 + rng.below(4) as usize;
        let k = 2 + rng.below(2) as usize;
        let g = allocation_graph(&mut rng, nodes, k);
        let (_, rn_steps) = g.clone().solve_counting();
        let (heuristic, optimum, selection) = solve_and_check(&g, u64::MAX);
        let best = f64::from(brute_force(&g));
        assert_eq!(optimum, Some(best), "case {case}: {g:?}");
        assert!(best.is_finite(), "spilling is always possible");
        assert!(selection.iter().all(|&s| s < k + 1));
        if rn_steps > 0 {
            rn_cases += 1;
            if best < heuristic {
                better += 1;
            }
        }
    }
    assert!(
        rn_cases > 100 && better > 10,
        "{rn_cases} took RN, in {better} the optimum beat it"
    );
}

#[test]
fn a_problem_the_reductions_solve_needs_no_search() {
    // The two-register cycle X-Y-Z-W: R2 and R1 alone.
    let mut g = Graph::new();
    let n: Vec<usize> = (0..4).map(|_| g.add_node(vec![10.0, 0.0, 1.0])).collect();
    for k in 0..4 {
        g.add_edge_costs(n[k], n[(k + 1) % 4], interference(2));
    }
    let solved = g.solve_exact(0);
    assert_eq!(solved.round.core_nodes, 0);
    assert_eq!(solved.round.search_nodes, 0);
    assert_eq!(solved.round.optimum, Some(2.0));
}

/// K5 over two registers: every node has four edges, so the reductions
/// leave all five to the search.
fn k5_over_two_registers() -> Graph {
    let mut g = Graph::new();
    for s in [4.0, 5.0, 5.0, 100.0, 100.0] {
        g.add_node(vec![s, 0.0, 0.0]);
    }
    for a in 0..5 {
        for b in a + 1..5 {
            g.add_edge_costs(a, b, interference(2));
        }
    }
    g
}

#[test]
fn the_search_proves_the_optimum_and_counts_its_nodes() {
    let g = k5_over_two_registers();
    let (_, optimum, selection) = solve_and_check(&g, u64::MAX);
    // Three of five must spill: 4 + 5 + 5.
    assert_eq!(optimum, Some(14.0));
    assert_eq!(&selection[..3], &[0, 0, 0]);
    let solved = g.solve_exact(u64::MAX);
    assert_eq!(solved.round.core_nodes, 5);
    assert!(solved.round.search_nodes > 0);
}

#[test]
fn the_limit_keeps_the_heuristic_solution() {
    let mut rng = Rng(99);
    let mut stopped = 0;
    for _ in 0..200 {
        let g = allocation_graph(&mut rng, 8, 3);
        let full = g.clone().solve_exact(u64::MAX);
        let (_, optimum, _) = solve_and_check(&g, 1);
        if full.round.search_nodes > 1 {
            stopped += 1;
            assert_eq!(optimum, None, "one search node cannot prove more");
            let cut = g.clone().solve_exact(1);
            assert_eq!(cut.round.search_nodes, 1);
        }
        // A limit the search stays within gives the same answer.
        let exactly = g.clone().solve_exact(full.round.search_nodes);
        assert_eq!(exactly.round, full.round);
        assert_eq!(exactly.selection, full.selection);
    }
    assert!(stopped > 20, "{stopped} searches stopped");
}

#[test]
fn an_infeasible_problem_keeps_an_infinite_cost() {
    // Two nodes that may not take any pair of options together.
    let mut g = Graph::new();
    let a = g.add_node(vec![0.0, 0.0]);
    let b = g.add_node(vec![0.0, 0.0]);
    g.add_edge_costs(a, b, Matrix::filled(2, 2, INF));
    let (heuristic, optimum, _) = solve_and_check(&g, u64::MAX);
    assert_eq!(heuristic, f64::INFINITY);
    assert_eq!(optimum, Some(f64::INFINITY));
}
