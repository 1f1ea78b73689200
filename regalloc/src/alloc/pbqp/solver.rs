//! The PBQP solver: LLVM's `RegAllocSolverImpl` (Scholz and Eckstein's reductions R0, R1, R2 with exact back-propagation, and the RN heuristic of Hames and Scholz).
//!
//! A problem is a graph: each node has a cost vector (option 0 is the
//! spill option in register allocation, but nothing here depends on that),
//! each edge a cost matrix whose rows are the first node's options and
//! whose columns are the second's. The solver picks one option per node
//! minimizing the sum of the chosen node costs and edge entries.
//!
//! Reduction removes nodes one at a time onto a stack:
//!
//! - R0, a node without edges: nothing to fold;
//! - R1, a node `x` with one neighbour `y`: for each option `j` of `y`,
//!   `min_i (x[i] + M[i][j])` is added to `y`'s vector, and the edge is
//!   taken from `y` (it stays on `x` for back-propagation);
//! - R2, a node `x` with neighbours `y` and `z`: the matrix
//!   `D[i][j] = min_k (x[k] + Mxy[k][i] + Mxz[k][j])` is added to the
//!   `y`-`z` edge (made if missing), and both edges are taken from `y`
//!   and `z`;
//! - RN, when no node has fewer than three edges: a node that is
//!   *conservatively allocatable* (its neighbours together cannot deny all
//!   its options, or one of its options no neighbour can deny) is taken
//!   first, the smallest-numbered; else the node of least option-0 cost
//!   (ties: fewer edges), LLVM's `SpillCostComparator`. Its edges are
//!   taken from its neighbours, nothing is folded.
//!
//! Back-propagation pops the stack: each node takes the option of least
//! cost given the options its remaining edges' other ends already took
//! (the first such option on ties, as LLVM's `minIndex`). R0, R1 and R2
//! are exact: a graph reduced by them alone gets an optimal solution;
//! RN is where optimality may be lost.
//!
//! Costs are `f32` (LLVM's `PBQPNum`); an infinite entry forbids a pair of
//! options, and the conservative-allocatability test counts them.

pub(crate) mod exact;

use std::collections::BTreeSet;
use std::rc::Rc;

/// A cost (LLVM's `PBQPNum`): infinite forbids.
pub(crate) type Cost = f32;

/// A dense cost matrix, row-major.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<Cost>,
}

impl Matrix {
    /// A `rows` x `cols` matrix of `value`.
    pub(crate) fn filled(rows: usize, cols: usize, value: Cost) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![value; rows * cols],
        }
    }

    /// A matrix from its rows (all of one length).
    #[cfg(test)]
    pub(crate) fn from_rows(rows: &[&[Cost]]) -> Matrix {
        let cols = rows.first().map_or(0, |r| r.len());
        let mut m = Matrix::filled(rows.len(), cols, 0.0);
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.len(), cols, "ragged matrix");
            m.data[i * cols..(i + 1) * cols].copy_from_slice(r);
        }
        m
    }

    /// The number of rows.
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub(crate) fn cols(&self) -> usize {
        self.cols
    }

    /// The entry at row `i`, column `j`.
    pub(crate) fn get(&self, i: usize, j: usize) -> Cost {
        self.data[i * self.cols + j]
    }

    /// Sets the entry at row `i`, column `j`.
    pub(crate) fn set(&mut self, i: usize, j: usize, c: Cost) {
        self.data[i * self.cols + j] = c;
    }

    /// The transpose.
    pub(crate) fn transpose(&self) -> Matrix {
        let mut t = Matrix::filled(self.cols, self.rows, 0.0);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t.set(j, i, self.get(i, j));
            }
        }
        t
    }

    /// Adds `other` (of the same shape) entry by entry.
    pub(crate) fn add(&mut self, other: &Matrix) {
        debug_assert!(self.rows == other.rows && self.cols == other.cols);
        for (a, b) in self.data.iter_mut().zip(&other.data) {
            *a += *b;
        }
    }

    /// Whether every entry is zero (such an edge constrains nothing).
    pub(crate) fn is_zero(&self) -> bool {
        self.data.iter().all(|&c| c == 0.0)
    }
}

/// A node's options denied by an edge, counted as LLVM's `MatrixMetadata`
/// counts them: infinite entries among the non-spill options (row and
/// column 0 aside).
#[derive(Clone, Debug, Default)]
struct Denials {
    /// The most options of the column node one row option denies.
    worst_row: u32,
    /// The most options of the row node one column option denies.
    worst_col: u32,
    /// Per row option (from 1): whether some column option forbids it.
    unsafe_rows: Vec<bool>,
    /// Per column option (from 1): whether some row option forbids it.
    unsafe_cols: Vec<bool>,
}

impl Denials {
    fn of(m: &Matrix) -> Denials {
        let rows = m.rows().saturating_sub(1);
        let cols = m.cols().saturating_sub(1);
        let mut d = Denials {
            unsafe_rows: vec![false; rows],
            unsafe_cols: vec![false; cols],
            ..Denials::default()
        };
        let mut col_counts = vec![0u32; cols];
        for i in 0..rows {
            let mut row_count = 0;
            for (j, count) in col_counts.iter_mut().enumerate() {
                if m.get(i + 1, j + 1) == Cost::INFINITY {
                    row_count += 1;
                    *count += 1;
                    d.unsafe_rows[i] = true;
                    d.unsafe_cols[j] = true;
                }
            }
            d.worst_row = d.worst_row.max(row_count);
        }
        d.worst_col = col_counts.into_iter().max().unwrap_or(0);
        d
    }
}

/// An edge's matrix with its denials counted, shared between the edges
/// that have the same one (LLVM pools them likewise: most interference
/// matrices are one of a few, by the pair of allowed sets).
#[derive(Clone, Debug)]
pub(crate) struct EdgeCosts {
    matrix: Matrix,
    denials: Denials,
}

impl EdgeCosts {
    /// `matrix` with its denials counted, to share.
    pub(crate) fn new(matrix: Matrix) -> Rc<EdgeCosts> {
        let denials = Denials::of(&matrix);
        Rc::new(EdgeCosts { matrix, denials })
    }
}

/// An edge: its two nodes and its costs (rows: `n1`'s options).
#[derive(Clone, Debug)]
struct Edge {
    n1: usize,
    n2: usize,
    costs: Rc<EdgeCosts>,
}

/// Which worklist a node is on while the graph is reduced.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum State {
    /// Not yet placed (before setup) or already on the stack.
    None,
    OptimallyReducible,
    ConservativelyAllocatable,
    NotProvablyAllocatable,
}

/// A node: costs, the edges still attached to it, and what the heuristic
/// knows of it (LLVM's `NodeMetadata`).
#[derive(Clone, Debug)]
struct Node {
    costs: Vec<Cost>,
    /// Edges attached to this node. A reduced node keeps its edges (for
    /// back-propagation); its neighbours lose them.
    edges: Vec<usize>,
    /// Options the neighbours may deny in the worst case, summed.
    denied: u32,
    /// Per non-spill option: how many edges may forbid it.
    unsafe_edges: Vec<u32>,
    state: State,
}

impl Node {
    fn options(&self) -> u32 {
        self.costs.len().saturating_sub(1) as u32
    }

    /// LLVM's `isConservativelyAllocatable`: the neighbours together deny
    /// fewer options than there are, or some option no edge can forbid.
    fn conservatively_allocatable(&self) -> bool {
        self.denied < self.options() || self.unsafe_edges.contains(&0)
    }

    /// Counts `d` in (or out, `sign` -1) as seen from this node, which is
    /// the edge's column node when `transposed`.
    fn account(&mut self, d: &Denials, transposed: bool, add: bool) {
        let (worst, unsafe_opts) = if transposed {
            (d.worst_row, &d.unsafe_cols)
        } else {
            (d.worst_col, &d.unsafe_rows)
        };
        if add {
            self.denied += worst;
        } else {
            self.denied -= worst;
        }
        for (u, &x) in self.unsafe_edges.iter_mut().zip(unsafe_opts) {
            if x {
                if add {
                    *u += 1;
                } else {
                    *u -= 1;
                }
            }
        }
    }
}

/// A PBQP problem.
#[derive(Clone, Debug, Default)]
pub(crate) struct Graph {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// How many nodes the RN heuristic took (0: the solution is optimal).
    heuristic_nodes: usize,
}

impl Graph {
    /// An empty problem.
    pub(crate) fn new() -> Graph {
        Graph::default()
    }

    /// Adds a node with option costs `costs` (at least one option);
    /// returns its number.
    pub(crate) fn add_node(&mut self, costs: Vec<Cost>) -> usize {
        debug_assert!(!costs.is_empty());
        let options = costs.len().saturating_sub(1);
        self.nodes.push(Node {
            costs,
            edges: Vec::new(),
            denied: 0,
            unsafe_edges: vec![0; options],
            state: State::None,
        });
        self.nodes.len() - 1
    }

    #[cfg(test)]
    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    #[cfg(test)]
    /// Node `n`'s cost vector.
    pub(crate) fn costs(&self, n: usize) -> &[Cost] {
        &self.nodes[n].costs
    }

    /// Node `n`'s cost vector, to change before solving.
    pub(crate) fn costs_mut(&mut self, n: usize) -> &mut [Cost] {
        &mut self.nodes[n].costs
    }

    /// The edge between `a` and `b`, if any, and whether `a` is its first
    /// node.
    pub(crate) fn find_edge(&self, a: usize, b: usize) -> Option<(usize, bool)> {
        let (small, other) = if self.nodes[a].edges.len() <= self.nodes[b].edges.len() {
            (a, b)
        } else {
            (b, a)
        };
        self.nodes[small].edges.iter().find_map(|&e| {
            let ed = &self.edges[e];
            (ed.n1 == other || ed.n2 == other).then_some((e, ed.n1 == a))
        })
    }

    /// Adds `costs` (rows: `a`'s options, columns: `b`'s) to the edge
    /// between `a` and `b`, making it if there is none.
    pub(crate) fn add_edge_costs(&mut self, a: usize, b: usize, costs: Matrix) {
        match self.find_edge(a, b) {
            Some(_) => self.add_edge_shared(
                a,
                b,
                Rc::new(EdgeCosts {
                    matrix: costs,
                    denials: Denials::default(),
                }),
            ),
            None => self.add_edge_shared(a, b, EdgeCosts::new(costs)),
        }
    }

    /// [`Graph::add_edge_costs`] with costs that other edges may share
    /// (a new edge takes them as they are).
    pub(crate) fn add_edge_shared(&mut self, a: usize, b: usize, costs: Rc<EdgeCosts>) {
        debug_assert!(a != b);
        debug_assert_eq!(costs.matrix.rows(), self.nodes[a].costs.len());
        debug_assert_eq!(costs.matrix.cols(), self.nodes[b].costs.len());
        match self.find_edge(a, b) {
            Some((e, a_first)) => {
                let add = if a_first {
                    costs.matrix.clone()
                } else {
                    costs.matrix.transpose()
                };
                let mut new = self.edges[e].costs.matrix.clone();
                new.add(&add);
                self.update_edge_costs(e, new);
            }
            None => {
                self.connect_new_edge(a, b, costs);
            }
        }
    }

    /// Makes an edge and attaches it to both nodes, counting its denials.
    fn connect_new_edge(&mut self, a: usize, b: usize, costs: Rc<EdgeCosts>) -> usize {
        let e = self.edges.len();
        self.nodes[a].account(&costs.denials, false, true);
        self.nodes[b].account(&costs.denials, true, true);
        self.edges.push(Edge {
            n1: a,
            n2: b,
            costs,
        });
        self.nodes[a].edges.push(e);
        self.nodes[b].edges.push(e);
        e
    }

    /// Replaces edge `e`'s matrix, recounting its denials on both nodes
    /// (LLVM's `handleUpdateCosts`, which may promote them).
    fn update_edge_costs(&mut self, e: usize, costs: Matrix) {
        let new = EdgeCosts::new(costs);
        let (n1, n2) = (self.edges[e].n1, self.edges[e].n2);
        let old = std::mem::replace(&mut self.edges[e].costs, new.clone());
        self.nodes[n1].account(&old.denials, false, false);
        self.nodes[n2].account(&old.denials, true, false);
        self.nodes[n1].account(&new.denials, false, true);
        self.nodes[n2].account(&new.denials, true, true);
        self.promote(n1);
        self.promote(n2);
    }

    #[cfg(test)]
    /// The number of edges attached to `n`.
    pub(crate) fn degree(&self, n: usize) -> usize {
        self.nodes[n].edges.len()
    }

    /// Takes edge `e` from node `n` only (the other end keeps it),
    /// recounting `n`'s denials (LLVM's `disconnectEdge`).
    fn disconnect(&mut self, e: usize, n: usize) {
        let transposed = self.edges[e].n2 == n;
        let costs = self.edges[e].costs.clone();
        self.nodes[n].account(&costs.denials, transposed, false);
        // Promotion looks at the degree before the edge goes.
        self.promote(n);
        let edges = &mut self.nodes[n].edges;
        if let Some(k) = edges.iter().position(|&x| x == e) {
            edges.swap_remove(k);
        }
    }

    /// Moves `n` to a better worklist where its edges now allow (LLVM's
    /// `promote`): about to fall below three edges, or newly
    /// conservatively allocatable.
    fn promote(&mut self, n: usize) {
        let node = &self.nodes[n];
        if node.state == State::None {
            return;
        }
        if node.edges.len() == 3 {
            self.nodes[n].state = State::OptimallyReducible;
        } else if node.state == State::NotProvablyAllocatable && node.conservatively_allocatable() {
            self.nodes[n].state = State::ConservativelyAllocatable;
        }
    }

    /// The other end of edge `e` from `n`.
    fn other(&self, e: usize, n: usize) -> usize {
        let ed = &self.edges[e];
        if ed.n1 == n { ed.n2 } else { ed.n1 }
    }

    /// Solves the problem: one option per node. Consumes the graph's
    /// reduction state (solve a graph once).
    pub(crate) fn solve(self) -> Vec<usize> {
        self.solve_counting().0
    }

    /// [`Graph::solve`], also saying how many nodes the RN heuristic
    /// reduced: when none, the solution is optimal.
    pub(crate) fn solve_counting(mut self) -> (Vec<usize>, usize) {
        let stack = self.reduce();
        (self.back_propagate(stack), self.heuristic_nodes)
    }

    /// Reduces every node onto a stack (LLVM's `reduce`).
    fn reduce(&mut self) -> Vec<usize> {
        self.reduce_until(true)
    }

    /// Reduces by R0, R1 and R2 alone, onto a stack, until every node
    /// left has three edges or more: the core, which [`exact`] solves.
    /// The nodes not on the stack are the core's; their edges join core
    /// nodes only (a reduced node's edges were taken from its neighbours).
    pub(crate) fn reduce_optimally(&mut self) -> Vec<usize> {
        self.reduce_until(false)
    }

    /// Reduces nodes onto a stack: every node when `heuristic` (taking
    /// RN when nothing else applies), else only by R0, R1 and R2.
    fn reduce_until(&mut self, heuristic: bool) -> Vec<usize> {
        for n in 0..self.nodes.len() {
            let node = &self.nodes[n];
            self.nodes[n].state = if node.edges.len() < 3 {
                State::OptimallyReducible
            } else if node.conservatively_allocatable() {
                State::ConservativelyAllocatable
            } else {
                State::NotProvablyAllocatable
            };
        }
        // The worklists are sets ordered by node number, as LLVM's
        // `std::set`s; states say which set a node is on, and a node is
        // re-filed when its state changes.
        let mut lists = Worklists::default();
        for n in 0..self.nodes.len() {
            lists.file(n, self.nodes[n].state);
        }
        let mut stack = Vec::with_capacity(self.nodes.len());
        while let Some(n) = lists.next(&self.nodes, heuristic) {
            let state = self.nodes[n].state;
            self.nodes[n].state = State::None;
            stack.push(n);
            let neighbours: Vec<usize> = self.nodes[n]
                .edges
                .iter()
                .map(|&e| self.other(e, n))
                .collect();
            let old: Vec<State> = neighbours.iter().map(|&m| self.nodes[m].state).collect();
            match state {
                State::OptimallyReducible => match self.nodes[n].edges.len() {
                    0 => {}
                    1 => self.reduce_r1(n),
                    2 => self.reduce_r2(n),
                    d => unreachable!("node of degree {d} on the optimal worklist"),
                },
                _ => {
                    self.heuristic_nodes += 1;
                    self.disconnect_all(n);
                }
            }
            // Re-file the neighbours whose state changed (R2 may also have
            // promoted them through the edge between them).
            for (&m, &was) in neighbours.iter().zip(&old) {
                let now = self.nodes[m].state;
                if now != was {
                    lists.move_to(m, was, now);
                }
            }
        }
        stack
    }

    /// R1: folds `x`'s only edge into its neighbour's vector.
    fn reduce_r1(&mut self, x: usize) {
        let e = self.nodes[x].edges[0];
        let y = self.other(e, x);
        let x_first = self.edges[e].n1 == x;
        let m = &self.edges[e].costs.matrix;
        let xc = &self.nodes[x].costs;
        let ylen = self.nodes[y].costs.len();
        let mut fold = vec![0.0; ylen];
        for (j, f) in fold.iter_mut().enumerate() {
            let entry = |i: usize| if x_first { m.get(i, j) } else { m.get(j, i) };
            let mut min = entry(0) + xc[0];
            for (i, &c) in xc.iter().enumerate().skip(1) {
                let v = entry(i) + c;
                if v < min {
                    min = v;
                }
            }
            *f = min;
        }
        for (c, f) in self.nodes[y].costs.iter_mut().zip(fold) {
            *c += f;
        }
        self.disconnect(e, y);
    }

    /// R2: folds `x` into the edge between its two neighbours.
    fn reduce_r2(&mut self, x: usize) {
        let (e1, e2) = (self.nodes[x].edges[0], self.nodes[x].edges[1]);
        let (y, z) = (self.other(e1, x), self.other(e2, x));
        // Matrices with `x`'s options as columns: [y][x] and [z][x].
        let yx = oriented(&self.edges[e1], y);
        let zx = oriented(&self.edges[e2], z);
        let xc = &self.nodes[x].costs;
        let (ylen, zlen) = (yx.rows(), zx.rows());
        let mut delta = Matrix::filled(ylen, zlen, 0.0);
        for i in 0..ylen {
            for j in 0..zlen {
                let mut min = yx.get(i, 0) + zx.get(j, 0) + xc[0];
                for (k, &c) in xc.iter().enumerate().skip(1) {
                    let v = yx.get(i, k) + zx.get(j, k) + c;
                    if v < min {
                        min = v;
                    }
                }
                delta.set(i, j, min);
            }
        }
        self.add_edge_costs(y, z, delta);
        self.disconnect(e1, y);
        self.disconnect(e2, z);
    }

    /// RN: takes every edge of `x` from its neighbours, folding nothing.
    fn disconnect_all(&mut self, x: usize) {
        let edges = self.nodes[x].edges.clone();
        for e in edges {
            let m = self.other(e, x);
            self.disconnect(e, m);
        }
    }

    /// Pops the stack, each node taking its cheapest option given its
    /// solved neighbours (LLVM's `backpropagate`).
    fn back_propagate(&self, stack: Vec<usize>) -> Vec<usize> {
        self.back_propagate_onto(stack, vec![usize::MAX; self.nodes.len()])
    }

    /// [`Graph::back_propagate`] onto `selection`, where the nodes not on
    /// the stack already have their options.
    pub(crate) fn back_propagate_onto(
        &self,
        mut stack: Vec<usize>,
        mut selection: Vec<usize>,
    ) -> Vec<usize> {
        while let Some(n) = stack.pop() {
            let mut v = self.nodes[n].costs.clone();
            for &e in &self.nodes[n].edges {
                let ed = &self.edges[e];
                if ed.n1 == n {
                    let s = selection[ed.n2];
                    for (i, c) in v.iter_mut().enumerate() {
                        *c += ed.costs.matrix.get(i, s);
                    }
                } else {
                    let s = selection[ed.n1];
                    for (j, c) in v.iter_mut().enumerate() {
                        *c += ed.costs.matrix.get(s, j);
                    }
                }
            }
            selection[n] = min_index(&v);
        }
        selection
    }

    /// The total cost of `selection` (one option per node), summed in
    /// `f64` so that two selections compare without `f32` rounding.
    pub(crate) fn total_cost(&self, selection: &[usize]) -> f64 {
        let nodes: f64 = self
            .nodes
            .iter()
            .zip(selection)
            .map(|(n, &s)| f64::from(n.costs[s]))
            .sum();
        let edges: f64 = self
            .edges
            .iter()
            .map(|e| f64::from(e.costs.matrix.get(selection[e.n1], selection[e.n2])))
            .sum();
        nodes + edges
    }

    #[cfg(test)]
    /// The total cost of `selection` (one option per node): node costs
    /// plus every edge's entry.
    pub(crate) fn cost_of(&self, selection: &[usize]) -> Cost {
        let nodes: Cost = self
            .nodes
            .iter()
            .zip(selection)
            .map(|(n, &s)| n.costs[s])
            .sum();
        let edges: Cost = self
            .edges
            .iter()
            .map(|e| e.costs.matrix.get(selection[e.n1], selection[e.n2]))
            .sum();
        nodes + edges
    }
}

/// Edge `e`'s matrix with `first`'s options as rows.
fn oriented(e: &Edge, first: usize) -> Matrix {
    if e.n1 == first {
        e.costs.matrix.clone()
    } else {
        e.costs.matrix.transpose()
    }
}

/// The first index of the least entry (LLVM's `minIndex`).
fn min_index(v: &[Cost]) -> usize {
    let mut best = 0;
    for (i, &c) in v.iter().enumerate().skip(1) {
        if c < v[best] {
            best = i;
        }
    }
    best
}

/// The three worklists of the reduction.
#[derive(Default)]
struct Worklists {
    optimal: BTreeSet<usize>,
    conservative: BTreeSet<usize>,
    not_provable: BTreeSet<usize>,
}

impl Worklists {
    fn list(&mut self, s: State) -> Option<&mut BTreeSet<usize>> {
        match s {
            State::OptimallyReducible => Some(&mut self.optimal),
            State::ConservativelyAllocatable => Some(&mut self.conservative),
            State::NotProvablyAllocatable => Some(&mut self.not_provable),
            State::None => None,
        }
    }

    fn file(&mut self, n: usize, s: State) {
        if let Some(l) = self.list(s) {
            l.insert(n);
        }
    }

    fn move_to(&mut self, n: usize, from: State, to: State) {
        if let Some(l) = self.list(from) {
            l.remove(&n);
        }
        self.file(n, to);
    }

    /// The next node to reduce, taken off its list: an optimally
    /// reducible one, else a conservatively allocatable one (the
    /// smallest-numbered of either), else the one of least option-0
    /// cost, fewer edges first on ties (LLVM's `SpillCostComparator`).
    /// Without `heuristic`, only optimally reducible nodes are taken.
    fn next(&mut self, nodes: &[Node], heuristic: bool) -> Option<usize> {
        if let Some(n) = self.optimal.pop_first() {
            return Some(n);
        }
        if !heuristic {
            return None;
        }
        if let Some(n) = self.conservative.pop_first() {
            return Some(n);
        }
        let mut best: Option<usize> = None;
        for &n in &self.not_provable {
            let better = match best {
                None => true,
                Some(b) => {
                    let (cn, cb) = (nodes[n].costs[0], nodes[b].costs[0]);
                    if cn == cb {
                        nodes[n].edges.len() < nodes[b].edges.len()
                    } else {
                        cn < cb
                    }
                }
            };
            if better {
                best = Some(n);
            }
        }
        let n = best?;
        self.not_provable.remove(&n);
        Some(n)
    }
}

#[cfg(test)]
mod tests;
