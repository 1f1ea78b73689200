//! The dominator tree, by Cooper, Harvey and Kennedy's iterative algorithm over reverse post order.

use super::cfg::Cfg;
use crate::ir::Block;

/// Immediate dominators of the reachable blocks.
#[derive(Clone, Debug)]
pub struct DomTree {
    /// Immediate dominator of each block; the entry's is itself, an
    /// unreachable block's is `None`.
    pub idom: Vec<Option<Block>>,
    /// Depth in the tree (entry 0), for O(depth) dominance queries.
    pub depth: Vec<u32>,
    /// Children of each block in the tree, in RPO order.
    pub children: Vec<Vec<Block>>,
}

impl DomTree {
    /// Computes the tree ("A Simple, Fast Dominance Algorithm", 2001):
    /// iterate `idom(b) = intersect(processed preds)` in RPO until stable;
    /// intersect walks up by RPO number, which is why RPO numbers are used.
    pub fn new(cfg: &Cfg) -> DomTree {
        let n = cfg.num_blocks();
        let mut idom: Vec<Option<u32>> = vec![None; cfg.rpo.len()];
        if !cfg.rpo.is_empty() {
            idom[0] = Some(0);
        }
        let num = |b: Block| cfg.rpo_index[b.index()];
        // Blocks after the entry, in RPO; a block's number is its place.
        let order: Vec<u32> = (1..cfg.rpo.len() as u32).collect();
        super::dataflow::rounds(&order, usize::MAX, |i| {
            let b = cfg.rpo[i as usize];
            let mut new: Option<u32> = None;
            for &p in &cfg.preds[b.index()] {
                let Some(pi) = num(p) else { continue };
                if idom[pi as usize].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => pi,
                    Some(mut a) => {
                        let mut c = pi;
                        while a != c {
                            while a > c {
                                a = idom[a as usize].unwrap_or(0);
                            }
                            while c > a {
                                c = idom[c as usize].unwrap_or(0);
                            }
                        }
                        a
                    }
                });
            }
            let changed = new.is_some() && idom[i as usize] != new;
            if changed {
                idom[i as usize] = new;
            }
            changed
        });
        let mut out = vec![None; n];
        let mut depth = vec![0u32; n];
        let mut children = vec![Vec::new(); n];
        for (i, &b) in cfg.rpo.iter().enumerate() {
            let d = idom[i].map(|k| cfg.rpo[k as usize]);
            out[b.index()] = d;
            if i > 0
                && let Some(d) = d
            {
                depth[b.index()] = depth[d.index()] + 1;
                children[d.index()].push(b);
            }
        }
        DomTree {
            idom: out,
            depth,
            children,
        }
    }

    /// Whether `a` dominates `b` (every block dominates itself); false when
    /// either is unreachable.
    pub fn dominates(&self, a: Block, mut b: Block) -> bool {
        if self.idom[a.index()].is_none() || self.idom[b.index()].is_none() {
            return false;
        }
        while self.depth[b.index()] > self.depth[a.index()] {
            match self.idom[b.index()] {
                Some(p) => b = p,
                None => return false,
            }
        }
        a == b
    }
}
