//! Exact PBQP: the optimum of a problem, by the reductions R0, R1 and R2 (which are exact) and then branch and bound over the core they leave, within a limit on the search nodes explored.
//!
//! The heuristic solution (the one [`Graph::solve`] gives) is computed
//! first. When the heuristic needed no RN step it is already optimal and
//! nothing is searched. Otherwise the graph is reduced by R0, R1 and R2
//! until every node left (the *core*) has three edges or more; the
//! reductions fold the removed nodes' costs into the core's vectors and
//! edges, so the core's optimum, back-propagated through the stack as
//! [`Graph::solve`] does, is the whole problem's optimum.
//!
//! The core is searched depth first in a fixed order: the node of most
//! edges, then repeatedly the node with the most edges into the nodes
//! already ordered (ties: more edges, then the smaller number), so that
//! each choice constrains the next ones early. At each search node the
//! lower bound is the cost of the options chosen (their vectors and the
//! edges between them) plus, for each node not yet chosen, the least over
//! its options of its cost, its edges to chosen nodes, and for each edge
//! to a node later in the order the least entry of that option's row.
//! Every edge is counted once, so the bound never exceeds the cost of any
//! completion. Options are tried cheapest bound first; a branch whose
//! bound is not below the best solution known is cut. The best solution
//! known starts as the heuristic's.
//!
//! The limit counts options tried (search nodes), not time, so that the
//! result never depends on the machine: when it is reached the search
//! stops and the heuristic's solution is kept, and [`ExactRound::optimum`]
//! says `None`. Costs are summed in `f64`; the returned solution is never
//! costlier than the heuristic's (compared on the original problem, so
//! that `f32` rounding in the reductions cannot make it so).

use super::Graph;
use crate::record::PbqpExactRound as ExactRound;

/// An exact solve: the selection the allocator applies and the record.
pub(crate) struct ExactSolve {
    /// One option per node.
    pub(crate) selection: Vec<usize>,
    /// What the solve found.
    pub(crate) round: ExactRound,
}

impl Graph {
    /// Solves the problem exactly when the search ends within
    /// `node_limit` search nodes, else as [`Graph::solve`] does.
    pub(crate) fn solve_exact(self, node_limit: u64) -> ExactSolve {
        let original = self.clone();
        let (heuristic, rn_steps) = self.clone().solve_counting();
        let heuristic_cost = original.total_cost(&heuristic);
        let mut round = ExactRound {
            nodes: original.nodes.len(),
            core_nodes: 0,
            search_nodes: 0,
            heuristic_cost,
            optimum: None,
        };
        if rn_steps == 0 {
            round.optimum = Some(heuristic_cost);
            return ExactSolve {
                selection: heuristic,
                round,
            };
        }
        let mut reduced = self;
        let stack = reduced.reduce_optimally();
        let core = Core::new(&reduced, &stack);
        round.core_nodes = core.order.len();
        let incumbent: Vec<usize> = core.order.iter().map(|&n| heuristic[n]).collect();
        let search = core.search(incumbent, node_limit);
        round.search_nodes = search.explored;
        let Some(best) = search.best else {
            return ExactSolve {
                selection: heuristic,
                round,
            };
        };
        let mut preset = vec![usize::MAX; reduced.nodes.len()];
        for (&n, &option) in core.order.iter().zip(&best) {
            preset[n] = option;
        }
        let exact = reduced.back_propagate_onto(stack, preset);
        let exact_cost = original.total_cost(&exact);
        // The search compares costs summed in another order than the
        // original problem's; keep the heuristic's solution where rounding
        // would make the "optimum" dearer.
        let (selection, optimum) = if exact_cost <= heuristic_cost {
            (exact, exact_cost)
        } else {
            (heuristic, heuristic_cost)
        };
        round.optimum = Some(optimum);
        ExactSolve { selection, round }
    }
}

/// An edge as seen from its earlier end in the search order.
#[derive(Copy, Clone, Debug)]
struct LaterEdge {
    /// The later end's position in the order.
    to: usize,
    /// The edge in the graph.
    edge: usize,
    /// Whether the earlier end is the edge's first node (its options are
    /// the matrix's rows).
    rows: bool,
}

/// The core of a reduced graph, in search order.
struct Core<'g> {
    graph: &'g Graph,
    /// Core nodes (graph numbers) in the order they are chosen.
    order: Vec<usize>,
    /// Per position: the node's cost vector as the reductions left it.
    costs: Vec<Vec<f64>>,
    /// Per position: its edges to later positions.
    later: Vec<Vec<LaterEdge>>,
    /// Per position and option: the sum over its later edges of the least
    /// entry of that option's row.
    future: Vec<Vec<f64>>,
}

/// The end of a search.
struct Search {
    /// The best selection found (per position), or `None` when the limit
    /// stopped the search.
    best: Option<Vec<usize>>,
    /// Search nodes explored.
    explored: u64,
}

impl<'g> Core<'g> {
    /// The core of `graph`, reduced by R0, R1 and R2 onto `stack`.
    fn new(graph: &'g Graph, stack: &[usize]) -> Core<'g> {
        let mut on_stack = vec![false; graph.nodes.len()];
        for &n in stack {
            on_stack[n] = true;
        }
        let members: Vec<usize> = (0..graph.nodes.len()).filter(|&n| !on_stack[n]).collect();
        let order = search_order(graph, &members);
        let mut position = vec![usize::MAX; graph.nodes.len()];
        for (p, &n) in order.iter().enumerate() {
            position[n] = p;
        }
        let costs: Vec<Vec<f64>> = order
            .iter()
            .map(|&n| graph.nodes[n].costs.iter().map(|&c| f64::from(c)).collect())
            .collect();
        let later: Vec<Vec<LaterEdge>> = order
            .iter()
            .enumerate()
            .map(|(p, &n)| {
                graph.nodes[n]
                    .edges
                    .iter()
                    .filter_map(|&e| {
                        let to = position[graph.other(e, n)];
                        (to > p).then_some(LaterEdge {
                            to,
                            edge: e,
                            rows: graph.edges[e].n1 == n,
                        })
                    })
                    .collect()
            })
            .collect();
        let mut core = Core {
            graph,
            order,
            costs,
            later,
            future: Vec::new(),
        };
        core.future = (0..core.order.len()).map(|p| core.row_minima(p)).collect();
        core
    }

    /// Edge `e`'s entry for option `mine` of its earlier end and option
    /// `theirs` of its later end.
    fn entry(&self, e: LaterEdge, mine: usize, theirs: usize) -> f64 {
        let m = &self.graph.edges[e.edge].costs.matrix;
        f64::from(if e.rows {
            m.get(mine, theirs)
        } else {
            m.get(theirs, mine)
        })
    }

    /// Per option of position `p`: the sum over its later edges of the
    /// least entry the option meets.
    fn row_minima(&self, p: usize) -> Vec<f64> {
        (0..self.costs[p].len())
            .map(|a| {
                self.later[p]
                    .iter()
                    .map(|&e| {
                        let options = self.costs[e.to].len();
                        (0..options)
                            .map(|b| self.entry(e, a, b))
                            .fold(f64::INFINITY, f64::min)
                    })
                    .sum()
            })
            .collect()
    }

    /// The cost of a whole selection (per position) of the core.
    fn cost(&self, selection: &[usize]) -> f64 {
        let mut total = 0.0;
        for (p, &a) in selection.iter().enumerate() {
            total += self.costs[p][a];
            for &e in &self.later[p] {
                total += self.entry(e, a, selection[e.to]);
            }
        }
        total
    }

    /// Branch and bound from `incumbent` (per position), exploring at most
    /// `limit` search nodes.
    fn search(&self, incumbent: Vec<usize>, limit: u64) -> Search {
        let n = self.order.len();
        let mut best_cost = self.cost(&incumbent);
        let mut best = incumbent;
        let mut state = State {
            effective: self.costs.clone(),
            bounds: Vec::new(),
        };
        state.bounds = (0..n)
            .map(|p| self.node_bound(&state.effective, p))
            .collect();
        let mut chosen = vec![0usize; n];
        let mut explored = 0u64;
        let mut frames = vec![Frame::new(self, &state, 0, 0.0, best_cost)];
        while let Some(depth) = frames.len().checked_sub(1) {
            let frame = &mut frames[depth];
            for (p, effective, bound) in frame.saved.drain(..) {
                state.effective[p] = effective;
                state.bounds[p] = bound;
            }
            let Some(&(key, a)) = frame.candidates.get(frame.next) else {
                frames.pop();
                continue;
            };
            frame.next += 1;
            if key >= best_cost {
                // Candidates are in bound order: none after this is better.
                frames.pop();
                continue;
            }
            explored += 1;
            if explored > limit {
                return Search {
                    best: None,
                    explored: limit,
                };
            }
            let cost = frame.cost_before + state.effective[depth][a];
            for &e in &self.later[depth] {
                let mut row = state.effective[e.to].clone();
                for (b, c) in row.iter_mut().enumerate() {
                    *c += self.entry(e, a, b);
                }
                let old = std::mem::replace(&mut state.effective[e.to], row);
                let bound = self.node_bound(&state.effective, e.to);
                let old_bound = std::mem::replace(&mut state.bounds[e.to], bound);
                frame.saved.push((e.to, old, old_bound));
            }
            chosen[depth] = a;
            if depth + 1 == n {
                if cost < best_cost {
                    best_cost = cost;
                    best.copy_from_slice(&chosen);
                }
                continue;
            }
            let child = Frame::new(self, &state, depth + 1, cost, best_cost);
            if !child.candidates.is_empty() {
                frames.push(child);
            }
        }
        Search {
            best: Some(best),
            explored,
        }
    }

    /// The least cost position `p` can add: over its options, its
    /// effective cost plus its later edges' least entries.
    fn node_bound(&self, effective: &[Vec<f64>], p: usize) -> f64 {
        effective[p]
            .iter()
            .zip(&self.future[p])
            .map(|(c, f)| c + f)
            .fold(f64::INFINITY, f64::min)
    }
}

/// What the search knows of the positions not yet chosen.
struct State {
    /// Per position: its cost vector plus its edges to chosen positions.
    effective: Vec<Vec<f64>>,
    /// Per position: [`Core::node_bound`] of its effective vector.
    bounds: Vec<f64>,
}

/// One depth of the search: the options of its node still to try, and
/// the effective vectors its current option changed (to restore).
struct Frame {
    /// (lower bound, option), by bound, then option.
    candidates: Vec<(f64, usize)>,
    /// The next candidate to try.
    next: usize,
    /// The cost of the options chosen above this depth.
    cost_before: f64,
    /// Effective vectors and bounds as they were before this depth's
    /// option.
    saved: Vec<(usize, Vec<f64>, f64)>,
}

impl Frame {
    /// The frame of position `depth`, the positions above it chosen at
    /// `cost_before`: its options whose bound is below `best_cost`.
    fn new(
        core: &Core<'_>,
        state: &State,
        depth: usize,
        cost_before: f64,
        best_cost: f64,
    ) -> Frame {
        let rest: f64 = state.bounds[depth + 1..].iter().sum();
        let mut candidates: Vec<(f64, usize)> = state.effective[depth]
            .iter()
            .zip(&core.future[depth])
            .enumerate()
            .map(|(a, (c, f))| (cost_before + c + f + rest, a))
            .filter(|&(bound, _)| bound < best_cost)
            .collect();
        candidates.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        Frame {
            candidates,
            next: 0,
            cost_before,
            saved: Vec::new(),
        }
    }
}

/// The order in which the core's nodes are chosen: the node of most
/// edges first, then repeatedly the one with most edges into those
/// ordered (ties: more edges, then the smaller number).
fn search_order(graph: &Graph, members: &[usize]) -> Vec<usize> {
    let mut placed = vec![false; graph.nodes.len()];
    let mut into_placed = vec![0usize; graph.nodes.len()];
    let degree = |n: usize| graph.nodes[n].edges.len();
    let mut order = Vec::with_capacity(members.len());
    while order.len() < members.len() {
        let next = members
            .iter()
            .copied()
            .filter(|&n| !placed[n])
            .max_by(|&a, &b| {
                (into_placed[a], degree(a))
                    .cmp(&(into_placed[b], degree(b)))
                    .then(b.cmp(&a))
            })
            .expect("a node is left to order");
        placed[next] = true;
        order.push(next);
        for &e in &graph.nodes[next].edges {
            into_placed[graph.other(e, next)] += 1;
        }
    }
    order
}

#[cfg(test)]
mod tests;
