//! CFG orders: successors and predecessors from the block table, post order and reverse post order from the entry.

use crate::ir::{Block, MachineFunction};

/// The control-flow graph of a function in the shape the analyses want.
///
/// Built from the successor lists alone (the predecessor lists of the IR
/// are derived data and may be stale after editing). Successor lists keep
/// duplicates, because branch probabilities are per edge.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Successors of each block, in edge order, duplicates kept.
    pub succs: Vec<Vec<Block>>,
    /// Predecessors of each block, each once, in layout order.
    pub preds: Vec<Vec<Block>>,
    /// Blocks reachable from the entry, in post order of a depth-first
    /// search that visits successors in edge order (LLVM's `po_iterator`).
    pub post_order: Vec<Block>,
    /// `post_order` reversed.
    pub rpo: Vec<Block>,
    /// Position of each block in `rpo`, `None` when unreachable.
    pub rpo_index: Vec<Option<u32>>,
    /// Whether a reachable block has a reachable predecessor at or after
    /// it in `rpo` (the target of a back edge, typically a loop header):
    /// the only blocks a forward pass in RPO visits before all their
    /// predecessors.
    pub back_pred: Vec<bool>,
    /// The reachable predecessors of every block, block after block
    /// (`reachable_preds_at[b]..reachable_preds_at[b + 1]`): what the
    /// per-register liveness walks, without a reachability test and a
    /// separate list per block.
    reachable_preds: Vec<Block>,
    reachable_preds_at: Vec<u32>,
}

impl Cfg {
    /// The CFG of `f`. Successors that name blocks out of range are dropped,
    /// so a malformed function cannot make later analyses index out of bounds.
    pub fn new(f: &MachineFunction) -> Cfg {
        Cfg::from_succs(
            f.blocks
                .iter()
                .map(|b| b.succs.iter().map(|s| s.block).collect())
                .collect(),
        )
    }

    /// The CFG given by the successor lists of blocks `0..succs.len()` in
    /// layout order, block 0 the entry; for analyses of hand-made graphs
    /// (tests) that have no [`MachineFunction`]. Out-of-range successors are
    /// dropped as in [`Cfg::new`].
    pub fn from_succs(mut succs: Vec<Vec<Block>>) -> Cfg {
        let n = succs.len();
        for ss in &mut succs {
            ss.retain(|s| s.index() < n);
        }
        // Each block's predecessor list sized once: at most one entry per
        // edge into it.
        let mut count = vec![0u32; n];
        for ss in &succs {
            for s in ss {
                count[s.index()] += 1;
            }
        }
        let mut preds: Vec<Vec<Block>> = count
            .iter()
            .map(|&c| Vec::with_capacity(c as usize))
            .collect();
        for (p, ss) in succs.iter().enumerate() {
            for s in ss {
                if preds[s.index()].last() != Some(&Block::new(p)) {
                    preds[s.index()].push(Block::new(p));
                }
            }
        }
        for p in &mut preds {
            // Blocks are visited in layout order: usually sorted already.
            if !p.is_sorted() {
                p.sort();
            }
            p.dedup();
        }
        let mut post_order = Vec::with_capacity(n);
        if n > 0 {
            // Iterative DFS: (block, next successor position).
            let mut seen = vec![false; n];
            let mut stack = vec![(0usize, 0usize)];
            seen[0] = true;
            while let Some(&mut (b, ref mut k)) = stack.last_mut() {
                if let Some(&s) = succs[b].get(*k) {
                    *k += 1;
                    if !seen[s.index()] {
                        seen[s.index()] = true;
                        stack.push((s.index(), 0));
                    }
                } else {
                    post_order.push(Block::new(b));
                    stack.pop();
                }
            }
        }
        let rpo: Vec<Block> = post_order.iter().rev().copied().collect();
        let mut rpo_index = vec![None; n];
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[b.index()] = Some(i as u32);
        }
        let back_pred = (0..n)
            .map(|b| {
                rpo_index[b].is_some_and(|i| {
                    preds[b]
                        .iter()
                        .any(|p| rpo_index[p.index()].is_some_and(|j| j >= i))
                })
            })
            .collect();
        let mut reachable_preds = Vec::new();
        let mut reachable_preds_at = Vec::with_capacity(n + 1);
        reachable_preds_at.push(0);
        for ps in &preds {
            reachable_preds.extend(ps.iter().filter(|p| rpo_index[p.index()].is_some()));
            reachable_preds_at.push(reachable_preds.len() as u32);
        }
        Cfg {
            succs,
            preds,
            post_order,
            rpo,
            rpo_index,
            back_pred,
            reachable_preds,
            reachable_preds_at,
        }
    }

    /// Number of blocks (reachable or not).
    pub fn num_blocks(&self) -> usize {
        self.succs.len()
    }

    /// The predecessors of `b` reachable from the entry, in layout order.
    #[inline]
    pub fn reachable_preds(&self, b: Block) -> &[Block] {
        let k = b.index();
        &self.reachable_preds
            [self.reachable_preds_at[k] as usize..self.reachable_preds_at[k + 1] as usize]
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_index.get(b.index()).is_some_and(|i| i.is_some())
    }
}
