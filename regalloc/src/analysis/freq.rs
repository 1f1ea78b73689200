//! Block frequency as LLVM 19's `MachineBlockFrequencyInfo` computes it: branch probabilities, then the scaled-mass algorithm over loops.
//!
//! The algorithm (documented in LLVM's `BlockFrequencyInfoImpl.h`) works on
//! blocks numbered in reverse post order. Every loop, innermost first, gets
//! full mass (2^64 - 1) at its header; mass flows through the loop's DAG
//! (sub-loops packaged as single nodes) split by branch weights with
//! dithering, so that no mass is lost to rounding; mass reaching the header
//! again is backedge mass and gives the loop scale `1 / (1 - backedge)`
//! (4096 for a loop that never exits). Irreducible regions are found on the
//! fly as strongly connected components with several headers. The function
//! is then one DAG; unwrapping multiplies each loop's members by the
//! scales of the loops around them. Floating frequencies are finally scaled
//! so that the largest is 2^54 and truncated to integers (at least 1).
//!
//! Masses and probabilities use LLVM's exact integer arithmetic, because
//! dithering order decides low bits that later scales magnify. Scales and
//! floating frequencies use `f64` where LLVM uses a 64-bit-mantissa
//! `ScaledNumber`: the difference is far below the 1% the tests allow.

use super::cfg::Cfg;
use super::loops::LoopInfo;
use crate::ir::{Block, MachineFunction};

/// The denominator of branch probabilities (LLVM's `BranchProbability::D`).
pub const PROB_DENOM: u32 = 1 << 31;

/// Branch probabilities of every edge, numerators over [`PROB_DENOM`],
/// parallel to the successor lists, normalized as LLVM's MIR parser leaves
/// them (`normalizeSuccProbs`).
///
/// Absent probabilities count as 0 when others are present; when all are
/// absent each edge gets `1/n`. This is LLVM's machine-level behaviour:
/// `MachineBranchProbabilityInfo` only reads the successor list, so there
/// are no further static heuristics at this level.
pub fn edge_probabilities(f: &MachineFunction, cfg: &Cfg) -> Vec<Vec<u32>> {
    f.blocks
        .iter()
        .enumerate()
        .map(|(b, data)| {
            let n = cfg.succs[b].len();
            // The given probabilities of the kept edges (the CFG's), read
            // twice rather than gathered into a list of their own.
            let raw = || {
                data.succs
                    .iter()
                    .filter(|s| s.block.index() < f.blocks.len())
                    .map(|s| u64::from(s.prob.unwrap_or(0)))
            };
            let d = u64::from(PROB_DENOM);
            let sum: u64 = raw().sum();
            let mut out = Vec::with_capacity(n);
            if sum == 0 {
                if n > 0 {
                    out.resize(n, ((d + n as u64 / 2) / n as u64) as u32);
                }
            } else if sum == d {
                out.extend(raw().map(|p| p as u32));
            } else {
                out.extend(raw().map(|p| ((p * d + sum / 2) / sum) as u32));
            }
            out
        })
        .collect()
}

/// Block frequencies of one function.
#[derive(Clone, Debug)]
pub struct BlockFreq {
    /// Floating frequency of each block relative to a loop-free entry
    /// (LLVM's "float"); 0 for unreachable blocks.
    pub float: Vec<f64>,
    /// Integer frequency of each block (LLVM's "int"); 0 for unreachable blocks.
    pub int: Vec<u64>,
    /// `1 / entry` in `f32`, the factor of [`BlockFreq::relative`],
    /// computed once: it is asked for every access of every register.
    inv_entry: f32,
}

impl BlockFreq {
    /// Computes the frequencies of `f`.
    pub fn new(f: &MachineFunction, cfg: &Cfg, loops: &LoopInfo) -> BlockFreq {
        let probs = edge_probabilities(f, cfg);
        let mut s = State::new(cfg, loops, &probs);
        s.compute_mass_in_loops();
        s.compute_mass_in_function();
        let freqs = s.unwrap_loops();
        let n = cfg.num_blocks();
        let max = freqs.iter().copied().fold(0.0f64, f64::max);
        let factor = if max > 0.0 { 2f64.powi(54) / max } else { 0.0 };
        let mut float = vec![0.0; n];
        let mut int = vec![0; n];
        for (k, &b) in cfg.rpo.iter().enumerate() {
            float[b.index()] = freqs[k];
            int[b.index()] = ((freqs[k] * factor) as u64).max(1);
        }
        let entry = int.first().copied().unwrap_or(1).max(1);
        BlockFreq {
            float,
            int,
            inv_entry: 1.0f32 / entry as f32,
        }
    }

    /// The entry block's integer frequency.
    pub fn entry(&self) -> u64 {
        self.int.first().copied().unwrap_or(1).max(1)
    }

    /// `freq(b) / freq(entry)` in `f32`, as LLVM's
    /// `getBlockFreqRelativeToEntryBlock` computes it for spill weights.
    pub fn relative(&self, b: Block) -> f32 {
        self.int.get(b.index()).copied().unwrap_or(0) as f32 * self.inv_entry
    }
}

/// Formats a frequency as LLVM prints `ScaledNumber`s with 5 significant
/// digits (`1.0`, `0.3125`, `0.097656`, `2.0312`).
pub fn format_float(v: f64) -> String {
    if v == 0.0 {
        return "0.0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    let decimals = (4 - mag).max(0) as usize;
    let mut s = format!("{v:.decimals$}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.push('0');
        }
    } else {
        s.push_str(".0");
    }
    s
}

const FULL: u64 = u64::MAX;

/// `mass * prob(n / d)` with LLVM's rounding: the probability is first
/// rounded to a numerator over 2^31, the product truncated.
fn take(mass: u64, n: u32, d: u32) -> u64 {
    let p = if d == PROB_DENOM {
        u64::from(n)
    } else {
        (u64::from(n) * u64::from(PROB_DENOM) + u64::from(d) / 2) / u64::from(d)
    };
    if p >= u64::from(PROB_DENOM) {
        return mass;
    }
    ((u128::from(mass) * u128::from(p)) >> 31) as u64
}

/// A mass as a fraction of the full mass.
fn to_scaled(m: u64) -> f64 {
    if m == FULL {
        1.0
    } else {
        (m as f64 + 1.0) / 2f64.powi(64)
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Kind {
    Local,
    Backedge,
    Exit,
}

/// Successor weights of one node, LLVM's `Distribution`.
#[derive(Default)]
struct Dist {
    weights: Vec<(Kind, u32, u64)>,
    total: u64,
    overflow: bool,
}

impl Dist {
    /// Empties the distribution, keeping its storage.
    fn clear(&mut self) {
        self.weights.clear();
        self.total = 0;
        self.overflow = false;
    }

    fn add(&mut self, kind: Kind, node: u32, amount: u64) {
        let (t, o) = self.total.overflowing_add(amount);
        self.overflow |= o;
        self.total = t;
        self.weights.push((kind, node, amount));
    }

    /// Combines edges to the same node and scales weights into 32 bits.
    fn normalize(&mut self) {
        if self.weights.is_empty() {
            return;
        }
        if self.weights.len() > 1 {
            self.weights.sort_by_key(|w| w.1);
            // Merged in place: each weight joins the last one kept when
            // both go to the same node.
            self.weights.dedup_by(|w, last| {
                if last.1 == w.1 {
                    last.2 = last.2.saturating_add(w.2);
                    true
                } else {
                    false
                }
            });
        }
        if self.weights.len() == 1 {
            self.total = 1;
            self.weights[0].2 = 1;
            return;
        }
        let shift = if self.overflow {
            33
        } else if self.total > u64::from(u32::MAX) {
            33 - self.total.leading_zeros()
        } else {
            0
        };
        if shift == 0 {
            return;
        }
        self.total = 0;
        for w in &mut self.weights {
            let rounded = (w.2 >> shift) + ((w.2 >> (shift - 1)) & 1);
            w.2 = rounded.max(1);
            self.total += w.2;
        }
    }
}

struct LoopData {
    parent: Option<usize>,
    packaged: bool,
    num_headers: usize,
    /// Headers first (sorted when irreducible), then members in RPO.
    nodes: Vec<u32>,
    backedge: Vec<u64>,
    exits: Vec<(u32, u64)>,
    scale: f64,
    mass: u64,
}

impl LoopData {
    fn is_header(&self, n: u32) -> bool {
        if self.num_headers == 1 {
            self.nodes[0] == n
        } else {
            self.nodes[..self.num_headers].binary_search(&n).is_ok()
        }
    }

    fn header_index(&self, n: u32) -> usize {
        if self.num_headers == 1 {
            0
        } else {
            self.nodes[..self.num_headers].partition_point(|&h| h < n)
        }
    }
}

struct State<'a> {
    cfg: &'a Cfg,
    probs: &'a [Vec<u32>],
    loops: Vec<LoopData>,
    /// Loops in LLVM's list order: parents before children.
    order: Vec<usize>,
    node_loop: Vec<Option<usize>>,
    mass: Vec<u64>,
    /// Scratch distribution for [`State::propagate`], whose storage is
    /// reused from node to node.
    dist: Dist,
}

impl<'a> State<'a> {
    fn new(cfg: &'a Cfg, li: &LoopInfo, probs: &'a [Vec<u32>]) -> State<'a> {
        let n = cfg.rpo.len();
        let rpo = |b: Block| cfg.rpo_index[b.index()].unwrap_or(0);
        // Breadth-first from the outermost loops, as LLVM lists them.
        let mut order_li = Vec::new();
        let mut queue: std::collections::VecDeque<_> = li.top_level.iter().copied().collect();
        while let Some(l) = queue.pop_front() {
            order_li.push(l);
            queue.extend(li.get(l).children.iter().copied());
        }
        let mut arena_of = vec![0usize; li.loops.len()];
        let mut loops = Vec::new();
        let mut node_loop = vec![None; n];
        for &l in &order_li {
            let data = li.get(l);
            arena_of[l.index()] = loops.len();
            loops.push(LoopData {
                parent: data.parent.map(|p| arena_of[p.index()]),
                packaged: false,
                num_headers: 1,
                nodes: vec![rpo(data.header)],
                backedge: vec![0],
                exits: Vec::new(),
                scale: 0.0,
                mass: 0,
            });
            node_loop[rpo(data.header) as usize] = Some(loops.len() - 1);
        }
        let mut s = State {
            cfg,
            probs,
            order: (0..loops.len()).collect(),
            loops,
            node_loop,
            mass: vec![0; n],
            dist: Dist::default(),
        };
        for k in 0..n as u32 {
            if s.is_loop_header(k) {
                if let Some(c) = s.containing_loop(k) {
                    s.loops[c].nodes.push(k);
                }
                continue;
            }
            if let Some(l) = li.loop_for(cfg.rpo[k as usize]) {
                let a = arena_of[l.index()];
                s.node_loop[k as usize] = Some(a);
                s.loops[a].nodes.push(k);
            }
        }
        s
    }

    fn is_loop_header(&self, n: u32) -> bool {
        self.node_loop[n as usize].is_some_and(|l| self.loops[l].is_header(n))
    }

    fn is_double_header(&self, n: u32) -> bool {
        self.is_loop_header(n)
            && self.node_loop[n as usize]
                .and_then(|l| self.loops[l].parent)
                .is_some_and(|p| self.loops[p].num_headers > 1 && self.loops[p].is_header(n))
    }

    fn containing_loop(&self, n: u32) -> Option<usize> {
        let l = self.node_loop[n as usize]?;
        if !self.is_loop_header(n) {
            return Some(l);
        }
        let p = self.loops[l].parent;
        if !self.is_double_header(n) {
            return p;
        }
        p.and_then(|p| self.loops[p].parent)
    }

    fn is_a_package(&self, n: u32) -> bool {
        self.is_loop_header(n) && self.node_loop[n as usize].is_some_and(|l| self.loops[l].packaged)
    }

    fn mass_mut(&mut self, n: u32) -> &mut u64 {
        if !self.is_a_package(n) {
            return &mut self.mass[n as usize];
        }
        let l = self.node_loop[n as usize].unwrap_or(0);
        let double = self.is_double_header(n)
            && self.loops[l].parent.is_some_and(|p| self.loops[p].packaged);
        match (double, self.loops[l].parent) {
            (true, Some(p)) => &mut self.loops[p].mass,
            _ => &mut self.loops[l].mass,
        }
    }

    fn packaged_loop(&self, n: u32) -> Option<usize> {
        let mut l = self.node_loop[n as usize]?;
        if !self.loops[l].packaged {
            return None;
        }
        while let Some(p) = self.loops[l].parent {
            if !self.loops[p].packaged {
                break;
            }
            l = p;
        }
        Some(l)
    }

    fn resolved(&self, n: u32) -> u32 {
        self.packaged_loop(n).map_or(n, |l| self.loops[l].nodes[0])
    }

    fn is_packaged(&self, n: u32) -> bool {
        self.resolved(n) != n
    }

    /// Classifies an edge; `false` on an irreducible backedge.
    fn add_to_dist(
        &self,
        d: &mut Dist,
        outer: Option<usize>,
        pred: u32,
        succ: u32,
        w: u64,
    ) -> bool {
        let w = w.max(1);
        let is_outer_header = |n: u32| outer.is_some_and(|o| self.loops[o].is_header(n));
        let r = self.resolved(succ);
        if is_outer_header(r) {
            d.add(Kind::Backedge, r, w);
            return true;
        }
        if self.containing_loop(r) != outer {
            d.add(Kind::Exit, r, w);
            return true;
        }
        if r < pred && !is_outer_header(pred) {
            return false;
        }
        d.add(Kind::Local, r, w);
        true
    }

    fn propagate(&mut self, outer: Option<usize>, n: u32) -> bool {
        let mut d = std::mem::take(&mut self.dist);
        d.clear();
        let ok = self.fill_dist(&mut d, outer, n);
        if ok {
            let mass = *self.mass_mut(n);
            self.distribute(mass, outer, &mut d, false);
        }
        self.dist = d;
        ok
    }

    /// The successor weights of node `n` into `d` ([`State::propagate`]);
    /// `false` at an edge that cannot be followed.
    fn fill_dist(&self, d: &mut Dist, outer: Option<usize>, n: u32) -> bool {
        if let Some(l) = self.packaged_loop(n) {
            let h = self.loops[l].nodes[0];
            for &(t, m) in &self.loops[l].exits {
                if !self.add_to_dist(d, outer, h, t, m) {
                    return false;
                }
            }
        } else {
            let b = self.cfg.rpo[n as usize].index();
            for (k, &s) in self.cfg.succs[b].iter().enumerate() {
                let Some(si) = self.cfg.rpo_index[s.index()] else {
                    continue;
                };
                let w = u64::from(self.probs[b].get(k).copied().unwrap_or(0));
                if !self.add_to_dist(d, outer, n, si, w) {
                    return false;
                }
            }
        }
        true
    }

    /// Splits `mass` by the weights, dithering: each share is taken from what
    /// remains, so rounding errors never lose mass. With `assign`, local
    /// shares replace the target's mass instead of adding to it.
    fn distribute(&mut self, mass: u64, outer: Option<usize>, d: &mut Dist, assign: bool) {
        d.normalize();
        let mut rem_w = d.total;
        let mut rem_m = mass;
        for &(kind, t, w) in &d.weights {
            let taken = take(rem_m, w as u32, rem_w as u32);
            rem_w -= w;
            rem_m = rem_m.saturating_sub(taken);
            match (kind, outer) {
                (Kind::Local, _) => {
                    let m = self.mass_mut(t);
                    *m = if assign {
                        taken
                    } else {
                        m.saturating_add(taken)
                    };
                }
                (Kind::Backedge, Some(o)) => {
                    let i = self.loops[o].header_index(t);
                    if let Some(b) = self.loops[o].backedge.get_mut(i) {
                        *b = b.saturating_add(taken);
                    }
                }
                (Kind::Exit, Some(o)) => self.loops[o].exits.push((t, taken)),
                _ => {}
            }
        }
    }

    fn compute_mass_in_loop(&mut self, l: usize) -> bool {
        let nh = self.loops[l].num_headers;
        if nh > 1 {
            let mut d = Dist::default();
            for h in 0..nh {
                d.add(Kind::Local, self.loops[l].nodes[h], 1);
            }
            self.distribute(FULL, None, &mut d, true);
            for k in 0..self.loops[l].nodes.len() {
                let m = self.loops[l].nodes[k];
                self.propagate(Some(l), m);
            }
            // No header weights in MIR: split the loop's mass among the
            // headers by the backedge mass each receives.
            let mut d = Dist::default();
            for h in 0..nh {
                let be = self.loops[l].backedge[h];
                if be > 0 {
                    d.add(Kind::Local, self.loops[l].nodes[h], be);
                }
            }
            self.distribute(FULL, None, &mut d, true);
        } else {
            let h = self.loops[l].nodes[0];
            *self.mass_mut(h) = FULL;
            self.propagate(Some(l), h);
            for k in 1..self.loops[l].nodes.len() {
                let m = self.loops[l].nodes[k];
                if !self.propagate(Some(l), m) {
                    return false;
                }
            }
        }
        let back = self.loops[l]
            .backedge
            .iter()
            .fold(0u64, |a, &b| a.saturating_add(b));
        let exit = FULL - back;
        self.loops[l].scale = if exit == 0 {
            4096.0
        } else {
            1.0 / to_scaled(exit)
        };
        for k in 0..self.loops[l].nodes.len() {
            let m = self.loops[l].nodes[k];
            if let Some(p) = self.packaged_loop(m) {
                self.loops[p].exits.clear();
            }
        }
        self.loops[l].packaged = true;
        true
    }

    fn compute_mass_in_loops(&mut self) {
        let mut i = self.order.len();
        while i > 0 {
            i -= 1;
            let l = self.order[i];
            if self.compute_mass_in_loop(l) {
                continue;
            }
            self.compute_irreducible_mass(Some(l), i + 1);
            // Irreducible control flow that survives packaging its SCCs
            // cannot come from a valid CFG; LLVM stops there. Go on.
            self.compute_mass_in_loop(l);
        }
    }

    fn try_mass_in_function(&mut self) -> bool {
        if self.mass.is_empty() {
            return true;
        }
        *self.mass_mut(0) = FULL;
        for n in 0..self.mass.len() as u32 {
            if self.is_packaged(n) {
                continue;
            }
            if !self.propagate(None, n) {
                return false;
            }
        }
        true
    }

    fn compute_mass_in_function(&mut self) {
        if self.try_mass_in_function() {
            return;
        }
        self.compute_irreducible_mass(None, 0);
        self.try_mass_in_function();
    }

    /// Packages the irreducible SCCs of `outer` (or the function) as loops
    /// with several headers, computes their mass, and inserts them into the
    /// loop list at `insert`.
    fn compute_irreducible_mass(&mut self, outer: Option<usize>, mut insert: usize) {
        let (nodes, succs, preds) = self.irreducible_graph(outer);
        let mut created = Vec::new();
        for scc in tarjan(&succs, 0) {
            if scc.len() < 2 {
                continue;
            }
            let (headers, others) = scc_headers(&scc, &nodes, &preds);
            let id = self.add_irreducible_loop(outer, insert, headers, others);
            insert += 1;
            created.push(id);
        }
        for l in created {
            self.compute_mass_in_loop(l);
        }
        if let Some(o) = outer {
            self.forget_packaged(o);
        }
    }

    /// The graph [`Self::compute_irreducible_mass`] looks for SCCs in: the
    /// nodes of `outer` (or of the function) not packaged into a loop,
    /// their masses reset, with successor and predecessor lists by
    /// position in the node list (edges into `outer`'s headers left out).
    #[allow(clippy::type_complexity)]
    fn irreducible_graph(
        &mut self,
        outer: Option<usize>,
    ) -> (Vec<u32>, Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let nodes: Vec<u32> = match outer {
            Some(o) => self.loops[o].nodes.clone(),
            None => (0..self.mass.len() as u32)
                .filter(|&n| !self.is_packaged(n))
                .collect(),
        };
        let mut lookup = std::collections::HashMap::new();
        for (k, &n) in nodes.iter().enumerate() {
            lookup.insert(n, k);
            *self.mass_mut(n) = 0;
        }
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        for (k, &n) in nodes.iter().enumerate() {
            let targets: Vec<u32> = if self.is_a_package(n) {
                let l = self.node_loop[n as usize].unwrap_or(0);
                self.loops[l].exits.iter().map(|e| e.0).collect()
            } else {
                let b = self.cfg.rpo[n as usize].index();
                self.cfg.succs[b]
                    .iter()
                    .filter_map(|s| self.cfg.rpo_index[s.index()])
                    .collect()
            };
            for t in targets {
                if outer.is_some_and(|o| self.loops[o].is_header(t)) {
                    continue;
                }
                if let Some(&j) = lookup.get(&t) {
                    succs[k].push(j);
                    preds[j].push(k);
                }
            }
        }
        (nodes, succs, preds)
    }

    /// Adds the irreducible loop of `headers` and `others` (nodes, sorted)
    /// inside `outer` at `insert` in the loop order, taking its members'
    /// loops (or the members) in; returns its id.
    fn add_irreducible_loop(
        &mut self,
        outer: Option<usize>,
        insert: usize,
        headers: Vec<u32>,
        others: Vec<u32>,
    ) -> usize {
        let nh = headers.len();
        let id = self.loops.len();
        let mut members = headers;
        members.extend(others);
        self.loops.push(LoopData {
            parent: outer,
            packaged: false,
            num_headers: nh,
            nodes: members.clone(),
            backedge: vec![0; nh],
            exits: Vec::new(),
            scale: 0.0,
            mass: 0,
        });
        self.order.insert(insert, id);
        for n in members {
            if self.is_loop_header(n) {
                if let Some(l) = self.node_loop[n as usize] {
                    self.loops[l].parent = Some(id);
                }
            } else {
                self.node_loop[n as usize] = Some(id);
            }
        }
        id
    }

    /// Loop `o` after its irreducible parts were packaged: no exits or
    /// back-edge masses yet, and its nodes its header and those not
    /// packaged.
    fn forget_packaged(&mut self, o: usize) {
        self.loops[o].exits.clear();
        self.loops[o].backedge.iter_mut().for_each(|b| *b = 0);
        let head = self.loops[o].nodes[0];
        let rest: Vec<u32> = self.loops[o].nodes[1..]
            .iter()
            .copied()
            .filter(|&n| !self.is_packaged(n))
            .collect();
        self.loops[o].nodes = std::iter::once(head).chain(rest).collect();
    }

    /// Frequencies per RPO node: each node's local mass times the scales
    /// of the loops around it, loops visited outermost first.
    fn unwrap_loops(&mut self) -> Vec<f64> {
        let mut freqs: Vec<f64> = self.mass.iter().map(|&m| to_scaled(m)).collect();
        for k in 0..self.order.len() {
            let l = self.order[k];
            self.loops[l].scale *= to_scaled(self.loops[l].mass);
            self.loops[l].packaged = false;
            let scale = self.loops[l].scale;
            for j in 0..self.loops[l].nodes.len() {
                let n = self.loops[l].nodes[j];
                if self.is_a_package(n) {
                    if let Some(p) = self.packaged_loop(n) {
                        self.loops[p].scale *= scale;
                    }
                } else {
                    freqs[n as usize] *= scale;
                }
            }
        }
        freqs
    }
}

/// The headers of irreducible SCC `scc` (positions in `nodes`), as LLVM
/// picks them: members entered from outside the SCC, and, unless every
/// member is one, members entered from a later or equal node that is not
/// such a header; and the other members. Both as nodes, sorted.
fn scc_headers(scc: &[usize], nodes: &[u32], preds: &[Vec<usize>]) -> (Vec<u32>, Vec<u32>) {
    let mut in_scc = std::collections::HashMap::new();
    for &x in scc {
        in_scc.insert(x, false);
    }
    let mut headers = Vec::new();
    for &x in scc {
        if preds[x].iter().any(|p| !in_scc.contains_key(p)) {
            in_scc.insert(x, true);
            headers.push(nodes[x]);
        }
    }
    let mut others = Vec::new();
    if headers.len() != scc.len() {
        for &x in scc {
            if in_scc[&x] {
                continue;
            }
            let extra = preds[x]
                .iter()
                .any(|&p| nodes[p] >= nodes[x] && !in_scc.get(&p).copied().unwrap_or(false));
            if extra {
                headers.push(nodes[x]);
            } else {
                others.push(nodes[x]);
            }
        }
    }
    headers.sort_unstable();
    others.sort_unstable();
    (headers, others)
}

/// Strongly connected components reachable from `start`, in the order
/// Tarjan's algorithm completes them (successors before predecessors).
fn tarjan(succs: &[Vec<usize>], start: usize) -> Vec<Vec<usize>> {
    let n = succs.len();
    let mut out = Vec::new();
    if start >= n {
        return out;
    }
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut call: Vec<(usize, usize)> = vec![(start, 0)];
    index[start] = next;
    low[start] = next;
    next += 1;
    stack.push(start);
    on_stack[start] = true;
    while let Some(&mut (v, ref mut k)) = call.last_mut() {
        if let Some(&w) = succs[v].get(*k) {
            *k += 1;
            if index[w] == usize::MAX {
                index[w] = next;
                low[w] = next;
                next += 1;
                stack.push(w);
                on_stack[w] = true;
                call.push((w, 0));
            } else if on_stack[w] {
                low[v] = low[v].min(index[w]);
            }
        } else {
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}
