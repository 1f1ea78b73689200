//! Fixpoint iteration over a function's blocks, shared by the flow analyses: rounds over a fixed order until one changes nothing, and a worklist that revisits the predecessors of a block whose result changed.
//!
//! Each analysis keeps its own per-block state and transfer; these drivers
//! only decide which block is recomputed next and when to stop. A visit
//! recomputes one block from its neighbours' current results, stores it,
//! and says whether it changed. They are generic over the visit (a closure,
//! inlined where it is used), so a driver costs what the loop it replaced
//! cost.

use crate::ir::MachineFunction;

/// Visits every element of `order`, round after round, until a round in
/// which no visit reports a change. Returns the number of rounds run;
/// `None` when `limit` rounds ran and the last one still changed
/// something.
#[inline]
pub(crate) fn rounds<T: Copy>(
    order: &[T],
    limit: usize,
    mut visit: impl FnMut(T) -> bool,
) -> Option<usize> {
    for round in 1..=limit {
        let mut changed = false;
        for &b in order {
            changed |= visit(b);
        }
        if !changed {
            return Some(round);
        }
    }
    None
}

/// [`rounds`] for a forward problem over reverse post-order, where a
/// block's result depends only on its predecessors' results. In every
/// round after the first, the first block to change can only be one with a
/// back edge into it (`loop_entry`): every other block saw, when last
/// visited, the results its predecessors (all earlier in the order) still
/// have. So such a round visits those blocks alone, in order, up to the
/// first that changes, and the whole rest of the order from there: the
/// same visits as full rounds, minus ones that change nothing.
#[inline]
pub(crate) fn forward_rounds<T: Copy>(
    rpo: &[T],
    limit: usize,
    loop_entry: impl Fn(T) -> bool,
    mut visit: impl FnMut(T) -> bool,
) -> Option<usize> {
    for round in 1..=limit {
        let mut changed = false;
        let mut from = 0;
        if round > 1 {
            from = rpo.len();
            for (k, &b) in rpo.iter().enumerate() {
                if loop_entry(b) && visit(b) {
                    changed = true;
                    from = k + 1;
                    break;
                }
            }
        }
        for &b in &rpo[from..] {
            changed |= visit(b);
        }
        if !changed {
            return Some(round);
        }
    }
    None
}

/// The predecessors of every block, as compressed rows built from the
/// successor lists (those the reader leaves are the ones the code
/// branches by; `preds` of the IR may be stale), each row in increasing
/// block order. The buffers are kept from one function to the next by
/// callers that hold them ([`BlockPreds::from_parts`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct BlockPreds {
    /// Row `b` is `preds[starts[b]..starts[b + 1]]`.
    starts: Vec<u32>,
    preds: Vec<u32>,
}

impl BlockPreds {
    /// The predecessor lists of `func`.
    pub(crate) fn new(func: &MachineFunction) -> BlockPreds {
        let mut p = BlockPreds::default();
        p.compute(func);
        p
    }

    /// Reuses the buffers `starts` and `preds` (their contents do not
    /// matter); see [`BlockPreds::into_parts`].
    pub(crate) fn from_parts(starts: Vec<u32>, preds: Vec<u32>) -> BlockPreds {
        BlockPreds { starts, preds }
    }

    /// The buffers, for [`BlockPreds::from_parts`].
    pub(crate) fn into_parts(self) -> (Vec<u32>, Vec<u32>) {
        (self.starts, self.preds)
    }

    /// Fills the lists for `func`. Counted at each row's index, summed
    /// into where each row ends, and filled from the ends backwards, which
    /// leaves each `starts[b]` where row `b` starts: no second vector of
    /// cursors.
    pub(crate) fn compute(&mut self, func: &MachineFunction) {
        let nb = func.blocks.len();
        let starts = &mut self.starts;
        starts.clear();
        starts.resize(nb + 1, 0);
        for bd in &func.blocks {
            for s in &bd.succs {
                if s.block.index() < nb {
                    starts[s.block.index()] += 1;
                }
            }
        }
        for b in 1..=nb {
            starts[b] += starts[b - 1];
        }
        self.preds.clear();
        self.preds.resize(starts[nb] as usize, 0);
        for (b, bd) in func.blocks.iter().enumerate().rev() {
            for s in bd.succs.iter().rev() {
                let k = s.block.index();
                if k < nb {
                    starts[k] -= 1;
                    self.preds[starts[k] as usize] = b as u32;
                }
            }
        }
    }

    /// The predecessors of block `b`.
    #[inline]
    pub(crate) fn of(&self, b: usize) -> &[u32] {
        &self.preds[self.starts[b] as usize..self.starts[b + 1] as usize]
    }
}

/// A worklist of blocks for a backward problem, each block queued at most
/// once at a time; its buffers are kept between functions by callers that
/// hold them ([`Worklist::from_parts`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Worklist {
    queued: Vec<bool>,
    work: Vec<usize>,
}

impl Worklist {
    /// Reuses the buffers `queued` and `work` (their contents do not
    /// matter).
    pub(crate) fn from_parts(queued: Vec<bool>, work: Vec<usize>) -> Worklist {
        Worklist { queued, work }
    }

    /// The buffers, for [`Worklist::from_parts`].
    pub(crate) fn into_parts(self) -> (Vec<bool>, Vec<usize>) {
        (self.queued, self.work)
    }

    /// Visits every block of `0..n`, the last first (successors tend to
    /// come later in the layout), then, until none is left, the
    /// predecessors of each block whose visit reported a change (the most
    /// recently queued first). For a monotone problem whose results only
    /// grow from where they start (at most the solution), this reaches the
    /// same least fixed point as rounds over every block, without a last
    /// round that changes nothing.
    #[inline]
    pub(crate) fn run_backward(
        &mut self,
        preds: &BlockPreds,
        n: usize,
        mut visit: impl FnMut(usize) -> bool,
    ) {
        self.work.clear();
        self.work.extend(0..n);
        self.queued.clear();
        self.queued.resize(n, true);
        while let Some(b) = self.work.pop() {
            self.queued[b] = false;
            if visit(b) {
                for &p in preds.of(b) {
                    let p = p as usize;
                    if !self.queued[p] {
                        self.queued[p] = true;
                        self.work.push(p);
                    }
                }
            }
        }
    }
}
