//! Natural loops (LLVM's `MachineLoopInfo`): headers, nesting, depth, innermost loop of each block.

use super::cfg::Cfg;
use super::dom::DomTree;
use crate::ir::Block;

/// A loop: an index into [`LoopInfo::loops`].
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct LoopId(pub u32);

impl LoopId {
    /// The index as a `usize`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// One natural loop.
#[derive(Clone, Debug)]
pub struct Loop {
    /// The header, which dominates every block of the loop.
    pub header: Block,
    /// The enclosing loop.
    pub parent: Option<LoopId>,
    /// Loops immediately inside this one, in RPO order of their headers.
    pub children: Vec<LoopId>,
    /// 1 for an outermost loop.
    pub depth: u32,
}

/// All natural loops of a function.
#[derive(Clone, Debug, Default)]
pub struct LoopInfo {
    /// The loops, outer loops before the loops they contain.
    pub loops: Vec<Loop>,
    /// The innermost loop of each block.
    pub block_loop: Vec<Option<LoopId>>,
    /// Outermost loops, in RPO order of their headers.
    pub top_level: Vec<LoopId>,
}

impl LoopInfo {
    /// Finds the loops: a back edge is an edge to a block that dominates its
    /// source; a loop's body is everything that reaches a back-edge source
    /// backwards without passing its header. Headers are taken inner first
    /// (post order of the dominator tree), so that an outer loop's walk can
    /// step over a finished inner loop from its header.
    pub fn new(cfg: &Cfg, dom: &DomTree) -> LoopInfo {
        let mut found = Found {
            parent: Vec::new(),
            headers: Vec::new(),
            block_loop: vec![None; cfg.num_blocks()],
        };
        for h in dom_post_order(cfg, dom) {
            found.add_loop_at(cfg, dom, h);
        }
        found.numbered(cfg)
    }

    /// The loop `l`.
    pub fn get(&self, l: LoopId) -> &Loop {
        &self.loops[l.index()]
    }

    /// The innermost loop containing `b`.
    pub fn loop_for(&self, b: Block) -> Option<LoopId> {
        self.block_loop.get(b.index()).copied().flatten()
    }

    /// Loop depth of `b` (0 outside loops).
    pub fn depth(&self, b: Block) -> u32 {
        self.loop_for(b).map_or(0, |l| self.get(l).depth)
    }

    /// Whether `b` is inside `l` (or a loop nested in it).
    pub fn contains(&self, l: LoopId, b: Block) -> bool {
        let mut cur = self.loop_for(b);
        while let Some(c) = cur {
            if c == l {
                return true;
            }
            cur = self.get(c).parent;
        }
        false
    }

    /// Whether `b` is a loop header.
    pub fn is_header(&self, b: Block) -> bool {
        self.loop_for(b).is_some_and(|l| self.get(l).header == b)
    }

    /// Whether `b` has a successor outside its innermost loop (LLVM's
    /// `isLoopExiting` on the block's own loop).
    pub fn is_exiting(&self, cfg: &Cfg, b: Block) -> bool {
        match self.loop_for(b) {
            Some(l) => cfg.succs[b.index()].iter().any(|&s| !self.contains(l, s)),
            None => false,
        }
    }
}

/// The blocks of the dominator tree in post order (children before their
/// parent): inner loop headers before the headers of loops around them.
fn dom_post_order(cfg: &Cfg, dom: &DomTree) -> Vec<Block> {
    let mut order = Vec::new();
    if !cfg.rpo.is_empty() {
        let mut stack = vec![(cfg.rpo[0], 0usize)];
        while let Some(&mut (b, ref mut k)) = stack.last_mut() {
            if let Some(&c) = dom.children[b.index()].get(*k) {
                *k += 1;
                stack.push((c, 0));
            } else {
                order.push(b);
                stack.pop();
            }
        }
    }
    order
}

/// The loops found so far, numbered in the order their headers were
/// found.
struct Found {
    /// Per loop: the loop around it, once found.
    parent: Vec<Option<usize>>,
    /// Per loop: its header.
    headers: Vec<Block>,
    /// Per block: the innermost loop holding it.
    block_loop: Vec<Option<usize>>,
}

/// The outermost loop found so far around loop `l`.
fn outermost(mut l: usize, parent: &[Option<usize>]) -> usize {
    while let Some(p) = parent[l] {
        l = p;
    }
    l
}

impl Found {
    /// Adds the loop headed by `h` if an edge into `h` is a back edge:
    /// its body is what reaches a back edge's source backwards without
    /// passing `h`, stepping over each finished inner loop from its
    /// header.
    fn add_loop_at(&mut self, cfg: &Cfg, dom: &DomTree, h: Block) {
        let is_back = |h: Block, p: Block| cfg.is_reachable(p) && dom.dominates(h, p);
        // Most blocks head no loop: asked before a list is made.
        if !cfg.preds[h.index()].iter().any(|&p| is_back(h, p)) {
            return;
        }
        let back: Vec<Block> = cfg.preds[h.index()]
            .iter()
            .copied()
            .filter(|&p| is_back(h, p))
            .collect();
        let Found {
            parent,
            headers,
            block_loop,
        } = self;
        let l = headers.len();
        headers.push(h);
        parent.push(None);
        if let Some(inner) = block_loop[h.index()] {
            // Cannot happen for a header found first in dominator post
            // order; kept safe for malformed input.
            let o = outermost(inner, parent);
            if o != l {
                parent[o] = Some(l);
            }
        }
        block_loop[h.index()] = Some(l);
        let mut work = back;
        while let Some(b) = work.pop() {
            match block_loop[b.index()] {
                None => {
                    block_loop[b.index()] = Some(l);
                    work.extend(
                        cfg.preds[b.index()]
                            .iter()
                            .copied()
                            .filter(|&p| cfg.is_reachable(p)),
                    );
                }
                Some(inner) => {
                    let sub = outermost(inner, parent);
                    if sub == l {
                        continue;
                    }
                    parent[sub] = Some(l);
                    let sh = headers[sub];
                    for &p in &cfg.preds[sh.index()] {
                        let in_sub =
                            block_loop[p.index()].is_some_and(|q| outermost(q, parent) == sub);
                        if cfg.is_reachable(p) && !in_sub {
                            work.push(p);
                        }
                    }
                }
            }
        }
    }

    /// The loops renumbered so that parents come first (sorted by depth,
    /// then by the RPO number of the header), with their children.
    fn numbered(self, cfg: &Cfg) -> LoopInfo {
        let Found {
            parent,
            headers,
            block_loop,
        } = self;
        let m = headers.len();
        let depth_of = |mut l: usize| {
            let mut d = 1;
            while let Some(p) = parent[l] {
                d += 1;
                l = p;
            }
            d
        };
        let mut ids: Vec<usize> = (0..m).collect();
        ids.sort_by_key(|&l| (depth_of(l), cfg.rpo_index[headers[l].index()]));
        let mut new_id = vec![0u32; m];
        for (k, &l) in ids.iter().enumerate() {
            new_id[l] = k as u32;
        }
        let mut loops: Vec<Loop> = ids
            .iter()
            .map(|&l| Loop {
                header: headers[l],
                parent: parent[l].map(|p| LoopId(new_id[p])),
                children: Vec::new(),
                depth: depth_of(l),
            })
            .collect();
        let mut top_level = Vec::new();
        // Children in RPO order of headers: visit loops sorted by header RPO.
        let mut by_rpo: Vec<usize> = (0..m).collect();
        by_rpo.sort_by_key(|&k| cfg.rpo_index[loops[k].header.index()]);
        for k in by_rpo {
            match loops[k].parent {
                Some(p) => loops[p.index()].children.push(LoopId(k as u32)),
                None => top_level.push(LoopId(k as u32)),
            }
        }
        LoopInfo {
            loops,
            block_loop: block_loop
                .into_iter()
                .map(|l| l.map(|l| LoopId(new_id[l])))
                .collect(),
            top_level,
        }
    }
}
