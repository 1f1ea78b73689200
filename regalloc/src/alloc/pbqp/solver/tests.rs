//! The solver on hand-worked problems, and against exhaustive search on small random ones.

use super::*;

pub(super) const INF: Cost = Cost::INFINITY;

/// A two-register interference matrix between nodes of options
/// `[spill, r0, r1]`: the same register twice is forbidden.
fn two_register_interference() -> Matrix {
    Matrix::from_rows(&[&[0.0, 0.0, 0.0], &[0.0, INF, 0.0], &[0.0, 0.0, INF]])
}

/// `k` registers: the same register twice is forbidden.
pub(super) fn interference(k: usize) -> Matrix {
    let mut m = Matrix::filled(k + 1, k + 1, 0.0);
    for i in 1..=k {
        m.set(i, i, INF);
    }
    m
}

#[test]
fn r1_folds_the_edge_matrix_into_the_neighbours_vector() {
    // x = [2, 0]; for each option j of y, min_i (x[i] + M[i][j]):
    // j = 0: min(2 + 1, 0 + 3) = 3; j = 1: min(2 + 5, 0 + 9) = 7.
    let mut g = Graph::new();
    let x = g.add_node(vec![2.0, 0.0]);
    let y = g.add_node(vec![0.0, 0.0]);
    g.add_edge_costs(x, y, Matrix::from_rows(&[&[1.0, 5.0], &[3.0, 9.0]]));
    g.reduce_r1(x);
    assert_eq!(g.costs(y), &[3.0, 7.0]);
    assert_eq!(g.degree(y), 0, "the edge is taken from y");
    assert_eq!(g.degree(x), 1, "x keeps it for back-propagation");
}

#[test]
fn r1_solution_back_propagates_with_first_index_on_ties() {
    let mut g = Graph::new();
    let x = g.add_node(vec![2.0, 0.0]);
    let y = g.add_node(vec![0.0, 0.0]);
    g.add_edge_costs(x, y, Matrix::from_rows(&[&[1.0, 5.0], &[3.0, 9.0]]));
    let original = g.clone();
    let (s, heuristic) = g.solve_counting();
    assert_eq!(heuristic, 0);
    // y takes 0 (3 < 7); x then sees [2 + 1, 0 + 3] = [3, 3]: the first.
    assert_eq!(s, vec![0, 0]);
    assert_eq!(original.cost_of(&s), 3.0);
}

#[test]
fn r1_on_the_edges_second_node_reads_the_matrix_transposed() {
    let mut g = Graph::new();
    let y = g.add_node(vec![0.0, 0.0]);
    let x = g.add_node(vec![2.0, 0.0]);
    // Rows are y's options now: the transpose of the matrix above.
    g.add_edge_costs(y, x, Matrix::from_rows(&[&[1.0, 3.0], &[5.0, 9.0]]));
    g.reduce_r1(x);
    assert_eq!(g.costs(y), &[3.0, 7.0]);
}

#[test]
fn r2_folds_a_node_into_the_edge_between_its_neighbours() {
    // x = [1, 2], Myx = [[2, 3], [1, 5]], Mzx = [[2, 1], [1, 0]]:
    // D[i][j] = min_k (x[k] + Myx[i][k] + Mzx[j][k]) = [[5, 4], [4, 3]].
    let mut g = Graph::new();
    let x = g.add_node(vec![1.0, 2.0]);
    let y = g.add_node(vec![0.0, 0.0]);
    let z = g.add_node(vec![0.0, 0.0]);
    g.add_edge_costs(y, x, Matrix::from_rows(&[&[2.0, 3.0], &[1.0, 5.0]]));
    // Stored the other way round: rows are x's options.
    g.add_edge_costs(x, z, Matrix::from_rows(&[&[2.0, 1.0], &[1.0, 0.0]]));
    g.reduce_r2(x);
    let (e, y_first) = g.find_edge(y, z).expect("R2 makes the y-z edge");
    assert!(y_first);
    assert_eq!(
        g.edges[e].costs.matrix,
        Matrix::from_rows(&[&[5.0, 4.0], &[4.0, 3.0]])
    );
    assert_eq!((g.degree(y), g.degree(z)), (1, 1));
    assert_eq!(g.degree(x), 2);
}

#[test]
fn r2_adds_to_an_existing_edge() {
    let mut g = Graph::new();
    let x = g.add_node(vec![1.0, 2.0]);
    let y = g.add_node(vec![0.0, 0.0]);
    let z = g.add_node(vec![0.0, 0.0]);
    g.add_edge_costs(y, x, Matrix::from_rows(&[&[2.0, 3.0], &[1.0, 5.0]]));
    g.add_edge_costs(x, z, Matrix::from_rows(&[&[2.0, 1.0], &[1.0, 0.0]]));
    // An edge z-y already there (rows: z).
    g.add_edge_costs(z, y, Matrix::from_rows(&[&[10.0, 20.0], &[30.0, 40.0]]));
    g.reduce_r2(x);
    let (e, y_first) = g.find_edge(y, z).unwrap();
    let m = if y_first {
        g.edges[e].costs.matrix.clone()
    } else {
        g.edges[e].costs.matrix.transpose()
    };
    assert_eq!(m, Matrix::from_rows(&[&[15.0, 34.0], &[24.0, 43.0]]));
    // The solution: min over (i, j) of D + existing = 15 at (0, 0); x
    // then sees [1 + 2 + 2, 2 + 3 + 1] = [5, 6]: option 0.
    let mut g = Graph::new();
    let x = g.add_node(vec![1.0, 2.0]);
    let y = g.add_node(vec![0.0, 0.0]);
    let z = g.add_node(vec![0.0, 0.0]);
    g.add_edge_costs(y, x, Matrix::from_rows(&[&[2.0, 3.0], &[1.0, 5.0]]));
    g.add_edge_costs(x, z, Matrix::from_rows(&[&[2.0, 1.0], &[1.0, 0.0]]));
    g.add_edge_costs(z, y, Matrix::from_rows(&[&[10.0, 20.0], &[30.0, 40.0]]));
    let original = g.clone();
    let (s, heuristic) = g.solve_counting();
    assert_eq!(heuristic, 0);
    assert_eq!(original.cost_of(&s), 15.0);
    assert_eq!(s, vec![0, 0, 0]);
}

#[test]
fn rn_takes_the_cheapest_spill_when_nothing_is_provably_allocatable() {
    // K4, two registers each: every node has three edges, each able to
    // deny one option, so none is conservatively allocatable.
    let mut g = Graph::new();
    let spill = [5.0, 3.0, 4.0, 6.0];
    let n: Vec<usize> = spill
        .iter()
        .map(|&s| g.add_node(vec![s, 0.0, 0.0]))
        .collect();
    for a in 0..4 {
        for b in a + 1..4 {
            g.add_edge_costs(n[a], n[b], two_register_interference());
        }
    }
    for &x in &n {
        assert!(!g.nodes[x].conservatively_allocatable());
    }
    let original = g.clone();
    let mut reduced = g.clone();
    let stack = reduced.reduce();
    assert_eq!(stack[0], n[1], "the least spill cost goes first");
    let (s, heuristic) = g.solve_counting();
    assert_eq!(heuristic, 1, "then the triangle reduces by R2 and R1");
    // Two of four must spill: the two cheapest, 3 + 4.
    assert_eq!(original.cost_of(&s), 7.0);
    assert_eq!((s[n[1]], s[n[2]]), (0, 0));
}

#[test]
fn rn_prefers_a_conservatively_allocatable_node() {
    // K4 where node 3 has four registers: its three neighbours can deny
    // at most three, so it is conservatively allocatable and goes first,
    // though its spill cost is the highest.
    let mut g = Graph::new();
    let mut n: Vec<usize> = [1.0, 2.0, 3.0]
        .iter()
        .map(|&s| g.add_node(vec![s, 0.0, 0.0, 0.0]))
        .collect();
    n.push(g.add_node(vec![9.0, 0.0, 0.0, 0.0, 0.0]));
    for a in 0..4 {
        for b in a + 1..4 {
            let mut m = Matrix::filled(g.costs(n[a]).len(), g.costs(n[b]).len(), 0.0);
            for r in 1..m.rows().min(m.cols()) {
                m.set(r, r, INF);
            }
            g.add_edge_costs(n[a], n[b], m);
        }
    }
    assert!(g.nodes[n[3]].conservatively_allocatable());
    assert!(!g.nodes[n[0]].conservatively_allocatable());
    let mut reduced = g.clone();
    assert_eq!(reduced.reduce()[0], n[3]);
    let original = g.clone();
    let s = g.solve();
    // Three registers for the triangle, the fourth for node 3: no spill.
    assert_eq!(original.cost_of(&s), 0.0);
    assert!(s.iter().all(|&o| o != 0));
}

#[test]
fn two_register_cycle_alternates_registers() {
    // X-Y-Z-W-X with two registers, r1 costing 1 (a callee-saved
    // register): two nodes take r0, two r1, nothing spills.
    let mut g = Graph::new();
    let n: Vec<usize> = (0..4).map(|_| g.add_node(vec![10.0, 0.0, 1.0])).collect();
    for k in 0..4 {
        g.add_edge_costs(n[k], n[(k + 1) % 4], two_register_interference());
    }
    let original = g.clone();
    let (s, heuristic) = g.solve_counting();
    assert_eq!(heuristic, 0);
    assert_eq!(original.cost_of(&s), 2.0);
    for k in 0..4 {
        assert_ne!(s[n[k]], 0);
        assert_ne!(s[n[k]], s[n[(k + 1) % 4]]);
    }
}

#[test]
fn two_register_triangle_spills_the_cheapest() {
    let mut g = Graph::new();
    let n: Vec<usize> = [7.0, 2.0, 5.0]
        .iter()
        .map(|&c| g.add_node(vec![c, 0.0, 0.0]))
        .collect();
    for (a, b) in [(0, 1), (1, 2), (0, 2)] {
        g.add_edge_costs(n[a], n[b], interference(2));
    }
    let s = g.solve();
    assert_eq!(s[n[1]], 0);
    assert!(s[n[0]] != 0 && s[n[2]] != 0 && s[n[0]] != s[n[2]]);
}

/// A small deterministic generator (xorshift64*), so that failures repeat.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A small integer cost (sums stay exact in `f32`), sometimes infinite.
    pub(super) fn cost(&mut self, inf_one_in: u64) -> Cost {
        if self.below(inf_one_in) == 0 {
            INF
        } else {
            self.below(10) as Cost
        }
    }
}

/// The least total cost over every selection.
pub(super) fn brute_force(g: &Graph) -> Cost {
    let lens: Vec<usize> = (0..g.len()).map(|n| g.costs(n).len()).collect();
    let mut sel = vec![0; g.len()];
    let mut best = INF;
    loop {
        best = best.min(g.cost_of(&sel));
        let mut k = 0;
        loop {
            if k == sel.len() {
                return best;
            }
            sel[k] += 1;
            if sel[k] < lens[k] {
                break;
            }
            sel[k] = 0;
            k += 1;
        }
    }
}

pub(super) fn random_graph(rng: &mut Rng) -> Graph {
    let mut g = Graph::new();
    let nodes = 1 + rng.below(7) as usize;
    for _ in 0..nodes {
        let options = 1 + rng.below(4) as usize;
        let costs = (0..options).map(|_| rng.cost(8)).collect();
        g.add_node(costs);
    }
    let density = 1 + rng.below(4);
    for a in 0..nodes {
        for b in a + 1..nodes {
            if rng.below(6) < density {
                let (r, c) = (g.costs(a).len(), g.costs(b).len());
                let mut m = Matrix::filled(r, c, 0.0);
                for i in 0..r {
                    for j in 0..c {
                        m.set(i, j, rng.cost(4));
                    }
                }
                g.add_edge_costs(a, b, m);
            }
        }
    }
    g
}

#[test]
fn reductions_alone_find_the_optimum_of_random_graphs() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut exact = 0;
    let mut heuristic = 0;
    for case in 0..20_000 {
        let g = random_graph(&mut rng);
        let original = g.clone();
        let (s, rn) = g.solve_counting();
        assert_eq!(s.len(), original.len());
        let got = original.cost_of(&s);
        let best = brute_force(&original);
        if rn == 0 {
            exact += 1;
            assert_eq!(got, best, "case {case}: {original:?} solved as {s:?}");
        } else {
            heuristic += 1;
            assert!(got >= best, "case {case}: cheaper than the optimum?");
        }
    }
    // The generator must exercise both paths.
    assert!(
        exact > 5_000 && heuristic > 500,
        "{exact} exact, {heuristic} heuristic"
    );
}

#[test]
fn random_interference_graphs_never_give_two_neighbours_one_register() {
    // Register-allocation shaped: spill option finite, interference
    // matrices infinite on shared registers; whatever the heuristic does,
    // no edge's infinite entry is chosen.
    let mut rng = Rng(42);
    for case in 0..5_000 {
        let mut g = Graph::new();
        let nodes = 2 + rng.below(12) as usize;
        let k = 1 + rng.below(4) as usize;
        for _ in 0..nodes {
            let mut costs = vec![1.0 + rng.below(20) as Cost];
            costs.extend((0..k).map(|_| rng.below(2) as Cost));
            g.add_node(costs);
        }
        for a in 0..nodes {
            for b in a + 1..nodes {
                if rng.below(3) == 0 {
                    g.add_edge_costs(a, b, interference(k));
                }
            }
        }
        let original = g.clone();
        let s = g.solve();
        assert!(original.cost_of(&s).is_finite(), "case {case}");
    }
}
