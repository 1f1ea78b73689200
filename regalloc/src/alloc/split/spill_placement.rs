//! Spill placement (LLVM's `SpillPlacement`): a Hopfield-style network over edge bundles deciding where a split live range is in a register and where on the stack.
//!
//! Region splitting asks, for one live range and one candidate physical
//! register: at which edge bundles ([`crate::analysis::bundles`]) should
//! the value be in that register, and at which on the stack? Every bundle
//! the value is live across is a node whose value is `+1` (register), `-1`
//! (stack) or `0` (undecided, treated as stack). Evidence arrives as
//!
//! - biases: a use in a block wants a register at the bundles around it
//!   ([`BorderConstraint::PrefReg`]), interference from the candidate
//!   register wants the stack ([`SpillPlacement::add_pref_spill`]), each
//!   weighted by how often the block runs;
//! - links: a block the value crosses without uses or interference is
//!   free in either state, but switching state inside it would cost a
//!   spill or reload at its frequency, so it pulls its two bundles towards
//!   the same value ([`SpillPlacement::add_links`]).
//!
//! A node's value follows the sign of its positive bias minus its negative
//! bias plus its links weighted by the neighbours' values; nodes are
//! updated until none changes (see [`SpillPlacement::iterate`] for the
//! rule). Links are symmetric and non-negative, so every change lowers the
//! network's energy and the iteration settles; a sweep bound guards
//! against pathological inputs anyway.
//!
//! The use is incremental, as in LLVM's greedy allocator:
//! [`prepare`](SpillPlacement::prepare), add constraints and spill
//! preferences, [`scan_active_bundles`](SpillPlacement::scan_active_bundles)
//! (give up on the candidate if nothing wants the register), then repeatedly
//! add links for transparent blocks next to the bundles that just turned
//! positive ([`recent_positive`](SpillPlacement::recent_positive)) and
//! [`iterate`](SpillPlacement::iterate), finally
//! [`finish`](SpillPlacement::finish) and read the positive bundles.
//!
//! Frequencies are `f64` relative to the entry block
//! ([`BlockFreq::float`](crate::analysis::BlockFreq::float)) where LLVM
//! uses saturating 64-bit integers; every threshold is stated as a fraction
//! of the entry frequency so that both scales give the same decisions.

use crate::analysis::stamp::StampSet;
use crate::analysis::{BitSet, Bundle, EdgeBundles};
use crate::ir::Block;

/// The negative bias of a [`BorderConstraint::MustSpill`] border. Infinity
/// absorbs any finite sum, so no positive bias or link can outweigh it
/// (LLVM saturates its integer frequency to the maximum for the same
/// effect).
pub const MUST_SPILL_BIAS: f64 = f64::INFINITY;

/// The decision threshold as a fraction of the entry frequency (2^-13, as
/// LLVM). A node goes to `+1` or `-1` only when its sum exceeds the
/// threshold in magnitude; nearer ties stay `0`, which keeps rounding noise
/// and exact cancellations from flipping nodes back and forth.
pub const THRESHOLD_FRACTION: f64 = 1.0 / 8192.0;

/// How many times, on average, each active node may be updated in one
/// [`SpillPlacement::iterate`] call: the bound is this times the number
/// of active bundles (LLVM allows 10 per bundle of the function). The
/// network settles much sooner in practice; the bound only makes
/// termination independent of the input.
pub const SWEEPS: usize = 10;

/// Bundles touching more blocks than this (big switches, indirect
/// branches, loops with many `continue`s) start with a small negative
/// bias, so that the region grows through them only when a substantial
/// part of their blocks wants the register. Keeps compile time bounded,
/// as in LLVM.
pub const LARGE_BUNDLE_BLOCKS: usize = 100;

/// The negative bias of a large bundle (see [`LARGE_BUNDLE_BLOCKS`]), as
/// a fraction of the entry frequency.
pub const LARGE_BUNDLE_BIAS_FRACTION: f64 = 1.0 / 16.0;

/// Factor on the block frequency of a strong spill preference
/// ([`SpillPlacement::add_pref_spill`] with `strong`): the interference
/// would need a spill and a reload in the block, so it counts twice.
pub const STRONG_SPILL_FACTOR: f64 = 2.0;

/// What a block border wants of the value's location.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum BorderConstraint {
    /// No preference; also used when the value is not live across the
    /// border. The border's bundle is left untouched.
    #[default]
    DontCare,
    /// The value should be in the register: adds the block frequency to
    /// the positive bias.
    PrefReg,
    /// The value should be on the stack: adds the block frequency to the
    /// negative bias.
    PrefSpill,
    /// The value is live across the border and either location is as good
    /// (the block will be split around its uses anyway): takes part in the
    /// network without a bias. Region split never says this; the tests
    /// use it to activate a bundle without biasing it.
    #[cfg(test)]
    PrefBoth,
    /// The value cannot be in the register here (the register is clobbered
    /// across the border): the bundle is forced to the stack.
    MustSpill,
}

/// The constraints one block puts on the bundles at its borders.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockConstraint {
    /// The block.
    pub block: Block,
    /// Constraint on the entry bundle (where the value is live-in).
    pub entry: BorderConstraint,
    /// Constraint on the exit bundle (where the value is live-out).
    pub exit: BorderConstraint,
    /// Whether the value may change between register and stack inside the
    /// block (the split will put a reload or a spill there, typically
    /// around its uses). When `false` and the value is live across both
    /// borders (neither is [`DontCare`](BorderConstraint::DontCare)), the
    /// block leaves in the state it entered, so its two bundles are linked
    /// with the block frequency as for a transparent block. LLVM never
    /// links constrained blocks; `true` gives its behaviour.
    pub change_state: bool,
}

/// One bundle of the network.
#[derive(Clone, Debug, Default)]
struct Node {
    /// Accumulated frequency of borders preferring the register.
    bias_p: f64,
    /// Accumulated frequency of borders preferring the stack, possibly
    /// [`MUST_SPILL_BIAS`].
    bias_n: f64,
    /// Links to other bundles with their weights, one entry per neighbour.
    links: Vec<(f64, Bundle)>,
    /// Sum of the link weights: the most the neighbours can ever add.
    sum_link_weights: f64,
}

impl Node {
    /// Forgets the previous query; keeps the link vector's allocation.
    fn clear(&mut self) {
        self.bias_p = 0.0;
        self.bias_n = 0.0;
        self.links.clear();
        self.sum_link_weights = 0.0;
    }

    #[inline]
    fn add_bias(&mut self, freq: f64, c: BorderConstraint) {
        match c {
            BorderConstraint::DontCare => {}
            #[cfg(test)]
            BorderConstraint::PrefBoth => {}
            BorderConstraint::PrefReg => self.bias_p += freq,
            BorderConstraint::PrefSpill => self.bias_n += freq,
            BorderConstraint::MustSpill => self.bias_n = MUST_SPILL_BIAS,
        }
    }

    #[inline(always)]
    fn add_link(&mut self, to: Bundle, w: f64) {
        self.sum_link_weights += w;
        // Parallel transparent blocks between the same two bundles add up
        // into one link, so updates cost one term per neighbour.
        match self.links.iter_mut().find(|l| l.1 == to) {
            Some(l) => l.0 += w,
            None => self.links.push((w, to)),
        }
    }

    /// [`Node::add_link`] for a neighbour known not to be linked yet.
    #[inline(always)]
    fn add_new_link(&mut self, to: Bundle, w: f64) {
        self.sum_link_weights += w;
        self.links.push((w, to));
    }

    /// Whether the node is `-1` whatever its neighbours do: even all of
    /// them positive cannot lift its sum above `-threshold`.
    fn must_spill(&self, threshold: f64) -> bool {
        self.bias_n >= self.bias_p + self.sum_link_weights + threshold
    }
}

/// What the network knows of one block, side by side: the innermost loops
/// read all of it per block, with one bounds check.
#[derive(Copy, Clone, Debug)]
struct BlockInfo {
    /// Entry and exit bundle.
    bundles: [Bundle; 2],
    /// Frequency relative to the entry.
    freq: f64,
    /// Another block has the same two bundles at its borders, so linking
    /// it may find the link already there.
    pair_shared: bool,
}

/// The spill placement network of one function, reused across queries.
///
/// Nodes, link vectors and work lists keep their allocations from query to
/// query; [`prepare`](SpillPlacement::prepare) costs time proportional to
/// the bundles the previous query touched, not to the function.
#[derive(Clone, Debug)]
pub struct SpillPlacement {
    /// Bundles, frequency and link sharing of every block.
    blocks: Vec<BlockInfo>,
    /// Bundles with more than [`LARGE_BUNDLE_BLOCKS`] blocks.
    large: BitSet,
    /// The blocks this query linked the bundles of. A block that shares
    /// its bundles with no other block and is linked for the first time in
    /// a query adds a link that cannot exist yet: no search of its
    /// bundles' links.
    linked: StampSet,
    /// The entry frequency the fractions are taken of.
    entry_freq: f64,
    /// [`THRESHOLD_FRACTION`] of the entry frequency.
    threshold: f64,
    /// One node per bundle; only active ones hold this query's state.
    nodes: Vec<Node>,
    /// The value of each node: `+1` register, `-1` stack, `0` undecided
    /// (and inactive: [`prepare`](SpillPlacement::prepare) resets the
    /// previous query's nodes).
    /// Apart from the nodes because an update reads its neighbours'
    /// values only: a byte each keeps them in few cache lines.
    values: Vec<i8>,
    /// The bundles this query touched, the active ones (LLVM's
    /// `ActiveNodes`). Stamped rather than a bit set: activating a bundle
    /// is one compare and one store, and a new query forgets them all by
    /// counting on.
    active: StampSet,
    /// The active bundles in activation order.
    active_list: Vec<Bundle>,
    /// Nodes to update (LLVM's `TodoList`), each at most once.
    todo: Vec<Bundle>,
    /// Membership of `todo`.
    /// A byte per bundle rather than a bit: it is tested and set once per
    /// link and per update, where the bit arithmetic showed.
    in_todo: Vec<bool>,
    /// Bundles that turned positive in the last scan or iteration.
    recent_positive: Vec<Bundle>,
}

impl SpillPlacement {
    /// A network over `bundles` with per-block frequencies `freq` (indexed
    /// by block; missing entries count as 0). The entry frequency is
    /// `freq[0]`, or 1 when that is not positive.
    pub fn new(bundles: &EdgeBundles, freq: &[f64]) -> SpillPlacement {
        let nb = bundles.num_blocks();
        let n = bundles.num_bundles();
        let block_bundles: Vec<[Bundle; 2]> = (0..nb)
            .map(|b| {
                let b = Block::new(b);
                [bundles.bundle(b, false), bundles.bundle(b, true)]
            })
            .collect();
        let mut large = BitSet::new(n);
        for k in 0..n {
            if bundles.blocks(Bundle::new(k)).len() > LARGE_BUNDLE_BLOCKS {
                large.insert(k);
            }
        }
        let mut pairs: Vec<(Bundle, Bundle, usize)> = block_bundles
            .iter()
            .enumerate()
            .filter(|(_, bb)| bb[0] != bb[1])
            .map(|(b, &[i, o])| (i.min(o), i.max(o), b))
            .collect();
        pairs.sort_unstable();
        let mut pair_shared = vec![false; nb];
        for w in pairs.windows(2) {
            if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
                pair_shared[w[0].2] = true;
                pair_shared[w[1].2] = true;
            }
        }
        let mut freq = freq.to_vec();
        freq.resize(nb, 0.0);
        let entry_freq = match freq.first() {
            Some(&f) if f > 0.0 => f,
            _ => 1.0,
        };
        let blocks = block_bundles
            .iter()
            .zip(&freq)
            .zip(&pair_shared)
            .map(|((&bundles, &freq), &pair_shared)| BlockInfo {
                bundles,
                freq,
                pair_shared,
            })
            .collect();
        SpillPlacement {
            blocks,
            large,
            linked: StampSet::new(nb),
            entry_freq,
            threshold: entry_freq * THRESHOLD_FRACTION,
            nodes: vec![Node::default(); n],
            values: vec![0; n],
            active: StampSet::new(n),
            active_list: Vec::new(),
            todo: Vec::new(),
            in_todo: vec![false; n],
            recent_positive: Vec::new(),
        }
    }

    /// Starts a new query: no bundle is active any more. Nodes are cleared
    /// when a later call activates them again, so this costs only the size
    /// of the previous query.
    pub fn prepare(&mut self) {
        self.active.clear();
        self.linked.clear();
        // Inactive bundles keep the value 0, so that reading a value needs
        // no activity test.
        for &b in &self.active_list {
            self.values[b.index()] = 0;
        }
        self.active_list.clear();
        for &b in &self.todo {
            self.in_todo[b.index()] = false;
        }
        self.todo.clear();
        self.recent_positive.clear();
    }

    /// Adds the border constraints of blocks where the value is live: each
    /// non-[`DontCare`](BorderConstraint::DontCare) border activates its
    /// bundle and biases it with the block frequency; blocks that cannot
    /// change state link their bundles (see
    /// [`BlockConstraint::change_state`]).
    pub fn add_constraints(&mut self, constraints: &[BlockConstraint]) {
        let (blocks, mut net) = self.net();
        for c in constraints {
            let BlockInfo {
                bundles: [ib, ob],
                freq: f,
                ..
            } = blocks[c.block.index()];
            if c.entry != BorderConstraint::DontCare {
                net.activate(ib);
                net.nodes[ib.index()].add_bias(f, c.entry);
            }
            if c.exit != BorderConstraint::DontCare {
                net.activate(ob);
                net.nodes[ob.index()].add_bias(f, c.exit);
            }
            if !c.change_state
                && c.entry != BorderConstraint::DontCare
                && c.exit != BorderConstraint::DontCare
            {
                net.linked.insert(c.block.index());
                net.link(ib, ob, f);
            }
        }
    }

    /// Adds a stack preference at both borders of each block, for blocks
    /// where the candidate register is used by something else while the
    /// value is live. `strong` weighs the frequency by
    /// [`STRONG_SPILL_FACTOR`], for interference that would need both a
    /// spill and a reload in the block.
    pub fn add_pref_spill(&mut self, blocks: &[Block], strong: bool) {
        let (info, mut net) = self.net();
        for &b in blocks {
            let BlockInfo {
                bundles: [ib, ob],
                freq: mut f,
                ..
            } = info[b.index()];
            if strong {
                f *= STRONG_SPILL_FACTOR;
            }
            net.activate(ib);
            net.activate(ob);
            // A block whose borders share a bundle biases it twice: both
            // borders carry the value.
            net.nodes[ib.index()].add_bias(f, BorderConstraint::PrefSpill);
            net.nodes[ob.index()].add_bias(f, BorderConstraint::PrefSpill);
        }
    }

    /// Links the entry and exit bundles of each transparent block (the
    /// value is live through it with no uses and no interference) with the
    /// block frequency. A block whose borders are in one bundle has
    /// nothing to link and is skipped.
    pub fn add_links(&mut self, blocks: &[Block]) {
        let (info, mut net) = self.net();
        for &b in blocks {
            let BlockInfo {
                bundles: [ib, ob],
                freq: f,
                pair_shared,
            } = info[b.index()];
            let fresh = !pair_shared && net.linked.insert(b.index());
            if fresh {
                net.link_new(ib, ob, f);
            } else {
                net.link(ib, ob, f);
            }
        }
    }

    /// Updates every active bundle once and collects the positive ones
    /// into [`recent_positive`](SpillPlacement::recent_positive).
    /// Returns whether any bundle is positive. When none is after the
    /// constraints, links from transparent blocks could only relay
    /// preferences that are not there, so the caller drops the candidate
    /// register early, as LLVM does.
    pub fn scan_active_bundles(&mut self) -> bool {
        let mut recent = std::mem::take(&mut self.recent_positive);
        recent.clear();
        let threshold = self.threshold;
        let (_, mut net) = self.net();
        for k in 0..net.active_list.len() {
            let b = net.active_list[k];
            net.update(b, threshold);
            // A node that must spill is settled for good; it is never a
            // reason to grow the region.
            if net.nodes[b.index()].must_spill(threshold) {
                continue;
            }
            if net.values[b.index()] > 0 {
                recent.push(b);
            }
        }
        recent.sort_unstable();
        self.recent_positive = recent;
        !self.recent_positive.is_empty()
    }

    /// Updates nodes until the network is stable, starting from the ones
    /// touched since the last call, or until [`SWEEPS`] updates per active
    /// node have been spent.
    ///
    /// The rule for a node: `sum = bias_p - bias_n + Σ weight · value(neighbour)`;
    /// its value becomes `+1` when `sum >= threshold`, `-1` when
    /// `sum <= -threshold`, `0` otherwise, with threshold
    /// [`THRESHOLD_FRACTION`] of the entry frequency. When a node changes,
    /// the neighbours that could follow it (those not already at the
    /// extreme it moved towards) are queued again.
    pub fn iterate(&mut self) {
        let mut recent = std::mem::take(&mut self.recent_positive);
        recent.clear();
        let threshold = self.threshold;
        let (_, mut net) = self.net();
        let mut budget = SWEEPS * net.active_list.len();
        while budget > 0 {
            let Some(b) = net.todo.pop() else { break };
            net.in_todo[b.index()] = false;
            budget -= 1;
            if net.update(b, threshold) && net.values[b.index()] > 0 {
                recent.push(b);
            }
        }
        // A node can flip more than once; report each bundle once, and
        // only if it is still positive.
        let values = &net.values;
        recent.retain(|b| values[b.index()] > 0);
        recent.sort_unstable();
        recent.dedup();
        self.recent_positive = recent;
    }

    /// Ends the query. Returns whether the placement is perfect: every
    /// active bundle wants the register, so the value never needs to go
    /// to the stack at any bundle the query touched.
    pub fn finish(&mut self) -> bool {
        self.active_list.iter().all(|b| self.values[b.index()] > 0)
    }

    /// Whether `bundle` wants the register: it is active in this query and
    /// its value is `+1`.
    #[cfg(test)]
    pub fn is_positive(&self, bundle: Bundle) -> bool {
        self.values[bundle.index()] > 0
    }

    /// Whether the entry and the exit bundle of `block` want the register.
    #[inline]
    pub fn positive_at(&self, block: Block) -> (bool, bool) {
        let [entry, exit] = self.blocks[block.index()].bundles;
        (
            self.values[entry.index()] > 0,
            self.values[exit.index()] > 0,
        )
    }

    /// The value of `bundle`: `+1` register, `-1` stack, `0` undecided or
    /// not active in this query.
    #[cfg(test)]
    pub fn value(&self, bundle: Bundle) -> i8 {
        self.values[bundle.index()]
    }

    /// Whether any bundle wants the register.
    pub fn any_positive(&self) -> bool {
        self.active_list.iter().any(|b| self.values[b.index()] > 0)
    }

    /// Replaces the contents of `out` by the bundles that want the
    /// register, in increasing order; `out` keeps its allocation.
    pub fn positive_bundles_into(&self, out: &mut Vec<Bundle>) {
        self.positive_bundles_unordered_into(out);
        out.sort_unstable();
    }

    /// [`positive_bundles_into`](SpillPlacement::positive_bundles_into) in
    /// the order the query activated them, for callers that only mark
    /// them: no sort.
    pub fn positive_bundles_unordered_into(&self, out: &mut Vec<Bundle>) {
        out.clear();
        out.extend(
            self.active_list
                .iter()
                .copied()
                .filter(|b| self.values[b.index()] > 0),
        );
    }

    /// The bundles that want the register, in increasing order.
    pub fn positive_bundles(&self) -> Vec<Bundle> {
        let mut out = Vec::new();
        self.positive_bundles_into(&mut out);
        out
    }

    /// The bundles touched by this query, in increasing order.
    #[cfg(test)]
    pub fn active_bundles(&self) -> Vec<Bundle> {
        let mut out = self.active_list.clone();
        out.sort_unstable();
        out
    }

    /// The bundles touched by this query, in activation order, with
    /// their positive and negative biases and their values (for the
    /// allocation's event log).
    pub fn active_nodes(&self) -> impl Iterator<Item = (Bundle, f64, f64, i8)> + '_ {
        self.active_list.iter().map(|&b| {
            let n = &self.nodes[b.index()];
            (b, n.bias_p, n.bias_n, self.values[b.index()])
        })
    }

    /// The bundles that turned positive in the last
    /// [`scan_active_bundles`](SpillPlacement::scan_active_bundles) or
    /// [`iterate`](SpillPlacement::iterate), in increasing order: where
    /// the caller should look for transparent blocks to grow the region.
    pub fn recent_positive(&self) -> &[Bundle] {
        &self.recent_positive
    }

    /// The frequency of `block` the network weighs it with (0 for blocks
    /// out of range).
    #[cfg(test)]
    pub fn get_block_frequency(&self, block: Block) -> f64 {
        self.blocks.get(block.index()).map_or(0.0, |i| i.freq)
    }

    /// The decision threshold: [`THRESHOLD_FRACTION`] of the entry frequency.
    #[cfg(test)]
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Number of bundles (nodes) of the network.
    #[cfg(test)]
    pub fn num_bundles(&self) -> usize {
        self.nodes.len()
    }

    /// The block tables and the network's state as separate borrows, so
    /// that the innermost loops keep every slice's bounds in registers
    /// across the pushes onto the work lists.
    fn net(&mut self) -> (&[BlockInfo], Net<'_>) {
        (
            &self.blocks,
            Net {
                nodes: &mut self.nodes,
                values: &mut self.values,
                in_todo: &mut self.in_todo,
                todo: &mut self.todo,
                active: &mut self.active,
                active_list: &mut self.active_list,
                large: &self.large,
                large_bias: self.entry_freq * LARGE_BUNDLE_BIAS_FRACTION,
                linked: &mut self.linked,
            },
        )
    }

    /// The value `b` should take given its neighbours now.
    #[cfg(test)]
    fn target_value(&self, b: Bundle) -> i8 {
        target_value(&self.nodes[b.index()], &self.values, self.threshold)
    }

    /// Whether every active node already has the value the rule gives it.
    #[cfg(test)]
    fn is_stable(&self) -> bool {
        self.active_list
            .iter()
            .all(|&b| self.target_value(b) == self.values[b.index()])
    }
}

/// The state of the network one query changes, borrowed apart from the
/// block tables.
struct Net<'a> {
    nodes: &'a mut [Node],
    values: &'a mut [i8],
    in_todo: &'a mut [bool],
    todo: &'a mut Vec<Bundle>,
    active: &'a mut StampSet,
    active_list: &'a mut Vec<Bundle>,
    large: &'a BitSet,
    /// The negative bias a large bundle starts with.
    large_bias: f64,
    linked: &'a mut StampSet,
}

impl Net<'_> {
    /// Makes `b` part of this query (clearing what a previous query left
    /// in its node) and queues it for an update.
    // Called per bundle and per link in the innermost loops; a call
    // costs more than the body.
    #[inline(always)]
    fn activate(&mut self, b: Bundle) {
        if !std::mem::replace(&mut self.in_todo[b.index()], true) {
            self.todo.push(b);
        }
        if !self.active.insert(b.index()) {
            return;
        }
        self.active_list.push(b);
        let node = &mut self.nodes[b.index()];
        node.clear();
        if self.large.contains(b.index()) {
            node.bias_n = self.large_bias;
        }
    }

    /// Links `a` and `b` both ways with weight `w`, activating them; a
    /// link of a bundle to itself would only add the same term to both
    /// sides of its sum, so it is dropped.
    #[inline(always)]
    fn link(&mut self, a: Bundle, b: Bundle, w: f64) {
        if a == b {
            return;
        }
        self.activate(a);
        self.activate(b);
        self.nodes[a.index()].add_link(b, w);
        self.nodes[b.index()].add_link(a, w);
    }

    /// [`Net::link`] for two bundles not linked yet in this query.
    #[inline(always)]
    fn link_new(&mut self, a: Bundle, b: Bundle, w: f64) {
        if a == b {
            return;
        }
        self.activate(a);
        self.activate(b);
        self.nodes[a.index()].add_new_link(b, w);
        self.nodes[b.index()].add_new_link(a, w);
    }

    /// Recomputes `b`'s value; when it changes, queues the neighbours it
    /// may drag along and returns `true`.
    // Called per bundle and per link in the innermost loops; a call
    // costs more than the body.
    #[inline(always)]
    fn update(&mut self, b: Bundle, threshold: f64) -> bool {
        let node = &self.nodes[b.index()];
        let new = target_value(node, self.values, threshold);
        let old = self.values[b.index()];
        if new == old {
            return false;
        }
        self.values[b.index()] = new;
        // A rise can only raise neighbours' sums: those already at +1 stay.
        // Likewise a fall cannot move a neighbour already at -1.
        let settled = if new > old { 1 } else { -1 };
        for &(_, n) in &node.links {
            if self.values[n.index()] != settled
                && !std::mem::replace(&mut self.in_todo[n.index()], true)
            {
                self.todo.push(n);
            }
        }
        true
    }
}

/// The value a node should take given its neighbours' `values` now:
/// `sum = bias_p - bias_n + Σ weight · value(neighbour)` against the
/// threshold.
#[inline(always)]
fn target_value(node: &Node, values: &[i8], threshold: f64) -> i8 {
    let mut sum = node.bias_p - node.bias_n;
    for &(w, n) in &node.links {
        sum += w * f64::from(values[n.index()]);
    }
    if sum >= threshold {
        1
    } else if sum <= -threshold {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests;
