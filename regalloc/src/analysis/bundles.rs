//! Edge bundles (LLVM's `EdgeBundles`): the classes of block borders that CFG edges tie together, the nodes of spill placement.
//!
//! Every block has two borders: its entry (where values arrive) and its
//! exit (where they leave). An edge `A -> B` makes `A`'s exit and `B`'s
//! entry the same point as far as the location of a value is concerned: a
//! value cannot be in a register on one end of an edge and on the stack on
//! the other without code on the edge. Closing "joined by an edge" under
//! transitivity gives equivalence classes of borders, the bundles. All
//! the edges of one bundle must agree on where a value lives, so region
//! splitting decides register-or-stack once per bundle
//! ([`crate::alloc::split::spill_placement`]).

use super::cfg::Cfg;
use crate::ir::Block;

/// An edge bundle: an index into the bundles of an [`EdgeBundles`],
/// numbered densely from 0.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Bundle(pub u32);

impl Bundle {
    /// The index as a `usize`, for indexing a table.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The bundle numbered `i`.
    #[inline]
    pub const fn new(i: usize) -> Self {
        Self(i as u32)
    }
}

/// The edge bundles of a CFG: which bundle each block border belongs to,
/// and which blocks touch each bundle.
///
/// Bundles are numbered in order of first appearance when the borders are
/// scanned in block layout order, entry border before exit border, so the
/// numbering depends only on the CFG (the same as LLVM's, which numbers
/// the classes of border `2 * block + out` by their smallest member).
#[derive(Clone, Debug)]
pub struct EdgeBundles {
    /// Bundle of border `2 * block + out` (`out` 0 for the entry border).
    border_bundle: Vec<Bundle>,
    /// `blocks[block_start[b]..block_start[b + 1]]` are the blocks of bundle `b`.
    block_start: Vec<u32>,
    /// The blocks of every bundle, concatenated; see `block_start`.
    blocks: Vec<Block>,
}

impl EdgeBundles {
    /// The bundles of `cfg`, unreachable blocks included (they take part in
    /// no edge from the entry but may still have edges among themselves).
    pub fn new(cfg: &Cfg) -> EdgeBundles {
        let n = cfg.num_blocks();
        // Union-find over borders. The root of a class is always its
        // smallest border, which makes the numbering below the
        // first-appearance order without a separate pass.
        let mut parent: Vec<u32> = (0..2 * n as u32).collect();
        for (a, succs) in cfg.succs.iter().enumerate() {
            let exit = 2 * a as u32 + 1;
            for s in succs {
                let entry = 2 * s.0;
                let (ra, rb) = (find(&mut parent, exit), find(&mut parent, entry));
                if ra != rb {
                    parent[ra.max(rb) as usize] = ra.min(rb);
                }
            }
        }
        let mut border_bundle = vec![Bundle(0); 2 * n];
        let mut num = 0u32;
        for i in 0..2 * n {
            let r = find(&mut parent, i as u32) as usize;
            if r == i {
                border_bundle[i] = Bundle(num);
                num += 1;
            } else {
                // `r < i`, so its number is already assigned.
                border_bundle[i] = border_bundle[r];
            }
        }
        // Blocks per bundle, as one flat table indexed by offsets. Scanning
        // blocks in layout order keeps each list sorted; a block whose
        // entry and exit share a bundle (a self-loop or a loop through
        // it) is listed once.
        let mut count = vec![0u32; num as usize + 1];
        for b in 0..n {
            let (i, o) = (border_bundle[2 * b], border_bundle[2 * b + 1]);
            count[i.index()] += 1;
            if o != i {
                count[o.index()] += 1;
            }
        }
        let mut block_start = vec![0u32; num as usize + 1];
        for k in 0..num as usize {
            block_start[k + 1] = block_start[k] + count[k];
        }
        let mut fill: Vec<u32> = block_start[..num as usize].to_vec();
        let mut blocks = vec![Block(0); block_start[num as usize] as usize];
        for b in 0..n {
            let (i, o) = (border_bundle[2 * b], border_bundle[2 * b + 1]);
            blocks[fill[i.index()] as usize] = Block::new(b);
            fill[i.index()] += 1;
            if o != i {
                blocks[fill[o.index()] as usize] = Block::new(b);
                fill[o.index()] += 1;
            }
        }
        EdgeBundles {
            border_bundle,
            block_start,
            blocks,
        }
    }

    /// The bundle of `b`'s exit border when `out`, of its entry border otherwise.
    #[inline]
    pub fn bundle(&self, b: Block, out: bool) -> Bundle {
        self.border_bundle[2 * b.index() + usize::from(out)]
    }

    /// Number of bundles; they are `0..num_bundles()`.
    pub fn num_bundles(&self) -> usize {
        self.block_start.len() - 1
    }

    /// Number of blocks of the CFG the bundles were computed for.
    pub fn num_blocks(&self) -> usize {
        self.border_bundle.len() / 2
    }

    /// The blocks having `bundle` on their entry or exit border, each once,
    /// in layout order.
    pub fn blocks(&self, bundle: Bundle) -> &[Block] {
        let k = bundle.index();
        &self.blocks[self.block_start[k] as usize..self.block_start[k + 1] as usize]
    }
}

/// The root of `x`'s class, halving paths on the way so later finds are short.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let grand = parent[parent[x as usize] as usize];
        parent[x as usize] = grand;
        x = grand;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(succs: &[&[u32]]) -> Cfg {
        Cfg::from_succs(
            succs
                .iter()
                .map(|ss| ss.iter().map(|&s| Block(s)).collect())
                .collect(),
        )
    }

    fn blocks(ids: &[u32]) -> Vec<Block> {
        ids.iter().map(|&b| Block(b)).collect()
    }

    #[test]
    fn straight_line_has_one_bundle_per_edge_plus_ends() {
        // bb0 -> bb1 -> bb2.
        let eb = EdgeBundles::new(&cfg(&[&[1], &[2], &[]]));
        assert_eq!(eb.num_bundles(), 4);
        let b = |blk, out| eb.bundle(Block(blk), out).0;
        assert_eq!([b(0, false), b(0, true), b(1, false)], [0, 1, 1]);
        assert_eq!([b(1, true), b(2, false), b(2, true)], [2, 2, 3]);
        assert_eq!(eb.blocks(Bundle(1)), blocks(&[0, 1]));
        assert_eq!(eb.blocks(Bundle(3)), blocks(&[2]));
    }

    #[test]
    fn loop_bundles() {
        // bb0 -> bb1; bb1 -> bb2, bb3; bb2 -> bb1 (back edge).
        let eb = EdgeBundles::new(&cfg(&[&[1], &[2, 3], &[1], &[]]));
        assert_eq!(eb.num_bundles(), 4);
        let b = |blk, out| eb.bundle(Block(blk), out).0;
        // EB0: entry of bb0 alone.
        assert_eq!(b(0, false), 0);
        // EB1: bb0's exit, bb1's entry and, through the back edge, bb2's exit.
        assert_eq!([b(0, true), b(1, false), b(2, true)], [1, 1, 1]);
        // EB2: bb1's exit, shared by its two successors' entries.
        assert_eq!([b(1, true), b(2, false), b(3, false)], [2, 2, 2]);
        // EB3: exit of bb3 alone.
        assert_eq!(b(3, true), 3);
        assert_eq!(eb.blocks(Bundle(0)), blocks(&[0]));
        assert_eq!(eb.blocks(Bundle(1)), blocks(&[0, 1, 2]));
        assert_eq!(eb.blocks(Bundle(2)), blocks(&[1, 2, 3]));
        assert_eq!(eb.blocks(Bundle(3)), blocks(&[3]));
    }

    #[test]
    fn self_loop_puts_both_borders_in_one_bundle() {
        // bb0 -> bb1; bb1 -> bb1, bb2.
        let eb = EdgeBundles::new(&cfg(&[&[1], &[1, 2], &[]]));
        let b = |blk, out| eb.bundle(Block(blk), out).0;
        // bb1's exit joins its own entry and bb2's entry.
        assert_eq!(
            [b(0, true), b(1, false), b(1, true), b(2, false)],
            [1, 1, 1, 1]
        );
        assert_eq!(eb.num_bundles(), 3);
        // bb1 is listed once though both its borders are in the bundle.
        assert_eq!(eb.blocks(Bundle(1)), blocks(&[0, 1, 2]));
    }

    #[test]
    fn diamond_merges_critical_borders() {
        // bb0 -> bb1, bb2; bb1 -> bb3; bb2 -> bb3.
        let eb = EdgeBundles::new(&cfg(&[&[1, 2], &[3], &[3], &[]]));
        let b = |blk, out| eb.bundle(Block(blk), out).0;
        assert_eq!([b(0, true), b(1, false), b(2, false)], [1, 1, 1]);
        assert_eq!([b(1, true), b(2, true), b(3, false)], [2, 2, 2]);
        assert_eq!(eb.num_bundles(), 4);
        assert_eq!(eb.blocks(Bundle(2)), blocks(&[1, 2, 3]));
        assert_eq!(eb.blocks(Bundle(1)), blocks(&[0, 1, 2]));
        assert_eq!(eb.blocks(Bundle(3)), blocks(&[3]));
    }

    #[test]
    fn unreachable_and_empty() {
        let eb = EdgeBundles::new(&cfg(&[]));
        assert_eq!(eb.num_bundles(), 0);
        // bb1 is unreachable but its edge to bb2 still joins borders.
        let eb = EdgeBundles::new(&cfg(&[&[], &[2], &[]]));
        assert_eq!(eb.num_bundles(), 5);
        assert_eq!(eb.bundle(Block(1), true), eb.bundle(Block(2), false));
        assert_eq!(eb.num_blocks(), 3);
    }
}
