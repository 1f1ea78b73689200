//! Dominator tree and dominance frontiers of a machine function, with the dominator-tree children in the order LLVM's tree keeps them (depth-first preorder over successors in list order), which decides the order in which the graph links references.

use crate::ir::MachineFunction;

/// The dominator tree and frontiers of the blocks reachable from the entry.
pub(crate) struct Dominance {
    /// Each block's children in the dominator tree, in DFS preorder.
    pub(crate) children: Vec<Vec<usize>>,
    /// Each block's iterated dominance frontier (unordered).
    pub(crate) iterated_frontier: Vec<Vec<usize>>,
}

impl Dominance {
    /// Computes the tree and frontiers of `f` (entry: block 0).
    pub(crate) fn new(f: &MachineFunction) -> Dominance {
        let n = f.blocks.len();
        let succs: Vec<Vec<usize>> = f
            .blocks
            .iter()
            .map(|b| b.succs.iter().map(|s| s.block.index()).collect())
            .collect();
        let (preorder, postorder) = depth_first(&succs, n);
        let idom = immediate_dominators(&succs, &postorder, n);
        let mut pre_number = vec![usize::MAX; n];
        for (k, &b) in preorder.iter().enumerate() {
            pre_number[b] = k;
        }
        let mut children = vec![Vec::new(); n];
        for &b in preorder.iter().skip(1) {
            children[idom[b]].push(b);
        }
        let frontier = frontiers(&succs, &idom, &pre_number, n);
        let iterated_frontier = (0..n).map(|b| iterate(&frontier, b)).collect();
        Dominance {
            children,
            iterated_frontier,
        }
    }
}

/// Preorder and postorder of a depth-first walk from block 0 visiting
/// successors in list order.
fn depth_first(succs: &[Vec<usize>], n: usize) -> (Vec<usize>, Vec<usize>) {
    let mut pre = Vec::new();
    let mut post = Vec::new();
    let mut seen = vec![false; n];
    if n == 0 {
        return (pre, post);
    }
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    pre.push(0);
    while let Some(&mut (b, ref mut k)) = stack.last_mut() {
        if *k < succs[b].len() {
            let s = succs[b][*k];
            *k += 1;
            if !seen[s] {
                seen[s] = true;
                pre.push(s);
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    (pre, post)
}

/// Immediate dominators (Cooper, Harvey and Kennedy's iteration over the
/// reverse postorder); `usize::MAX` for unreachable blocks, the entry its own.
fn immediate_dominators(succs: &[Vec<usize>], post: &[usize], n: usize) -> Vec<usize> {
    let mut number = vec![usize::MAX; n];
    for (k, &b) in post.iter().enumerate() {
        number[b] = k;
    }
    let mut preds = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(b);
        }
    }
    let mut idom = vec![usize::MAX; n];
    if n == 0 {
        return idom;
    }
    idom[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in post.iter().rev().skip(1) {
            let mut new = usize::MAX;
            for &p in &preds[b] {
                if idom[p] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    p
                } else {
                    intersect(&idom, &number, p, new)
                };
            }
            if idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

fn intersect(idom: &[usize], number: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while number[a] < number[b] {
            a = idom[a];
        }
        while number[b] < number[a] {
            b = idom[b];
        }
    }
    a
}

/// Dominance frontiers: `Y` is in `DF(X)` when `X` dominates a predecessor
/// of `Y` but does not strictly dominate `Y`.
fn frontiers(succs: &[Vec<usize>], idom: &[usize], pre: &[usize], n: usize) -> Vec<Vec<usize>> {
    let mut df: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (p, ss) in succs.iter().enumerate() {
        if pre[p] == usize::MAX {
            continue;
        }
        for &y in ss {
            let mut runner = p;
            // Walk up from the predecessor to Y's immediate dominator.
            loop {
                if runner == idom[y] && runner != y {
                    break;
                }
                if !df[runner].contains(&y) {
                    df[runner].push(y);
                }
                if runner == 0 || runner == idom[y] {
                    break;
                }
                runner = idom[runner];
            }
        }
    }
    df
}

/// The iterated frontier of `b`: the closure of its frontier under taking
/// frontiers.
fn iterate(df: &[Vec<usize>], b: usize) -> Vec<usize> {
    let mut out: Vec<usize> = df[b].clone();
    let mut k = 0;
    while k < out.len() {
        for &y in &df[out[k]] {
            if !out.contains(&y) {
                out.push(y);
            }
        }
        k += 1;
    }
    out
}
