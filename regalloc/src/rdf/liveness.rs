//! Liveness on the data-flow graph (LLVM's RDF `Liveness`): each block's live-in registers computed from the graph alone, through reaching definitions and phis, and the kill flags that follow from them.
//!
//! A register is live into a block when a value reaching a real use (not
//! undefined, not a phi's) flows through the block's entry. Every real use
//! is followed up its chain of reaching definitions (LLVM's
//! `getAllReachingDefs`): each definition on it supplies the part of the
//! used register not covered by the definitions below it. A definition in
//! the use's own block supplies nothing from outside; one further up
//! dominates the use's block, so its part is live into that block and,
//! backwards through predecessors, into every block up to the
//! definition's own. A phi supplies its part from the block it sits in:
//! the part is live into that block, and is followed on from each phi use
//! to the definitions reaching the end of that predecessor (LLVM's phi
//! live-on-entry and live-on-exit maps). The function's own live-ins are
//! added to the entry block, as LLVM adds `DataFlowGraph::getLiveIns`.
//!
//! Each (block, unit) is entered once, so the walk is linear in the size
//! of the live sets. Kill flags are then set as LLVM's
//! `Liveness::resetKills` sets them: walking each block backwards from the
//! live-ins of its successors, a use is a kill when nothing overlapping its
//! register is live after it.

use crate::ir::{Inst, Operand, RegFlags, RegRef};
use crate::target::Reg;

use super::build::DataFlowGraph;
use super::dom::Dominance;
use super::graph::{Attrs, NodeId};
use super::regs::{RegisterRef, UnitSet};

/// The live-in registers of every block of one function, as RDF computes
/// them.
pub struct Liveness {
    /// Units live into each block, by block index.
    live_in: Vec<UnitSet>,
    /// The entry block's units some use reads (before the function's
    /// live-ins are added).
    entry_read: UnitSet,
}

/// A block whose recorded live-ins (its `liveins:` list) differ from the
/// computed ones.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LiveInDifference {
    /// The block's index.
    pub block: usize,
    /// The tracked part of the recorded live-ins, as registers.
    pub recorded: Vec<RegisterRef>,
    /// The computed live-ins, as registers.
    pub computed: Vec<RegisterRef>,
    /// The entry block, where the computed set exceeds the recorded one
    /// only by function live-ins nothing reads: LLVM's `computeLiveIns`
    /// adds every function live-in to the entry block, an allocator may
    /// list only those its code reads.
    pub only_unread_function_live_ins: bool,
}

/// Where each node of the graph sits: its owner (references: their
/// statement or phi), its block and its position among the block's members.
struct Places {
    owner: Vec<NodeId>,
    block: Vec<usize>,
    position: Vec<usize>,
}

/// A part of a register that must reach the end (or a use) of `block`
/// from definition `def`.
struct Need {
    block: usize,
    units: UnitSet,
    def: NodeId,
}

impl Liveness {
    /// Computes the live-ins of every block of `g` (LLVM's
    /// `Liveness::computeLiveIns`).
    pub fn compute(g: &DataFlowGraph<'_, '_, '_>) -> Liveness {
        let nb = g.f.blocks.len();
        let mut live = Liveness {
            live_in: vec![g.regs.empty_set(); nb],
            entry_read: g.regs.empty_set(),
        };
        if nb == 0 {
            return live;
        }
        let dom = Dominance::new(g.f);
        let depth = tree_depths(&dom, nb);
        let places = Places::new(g);
        let walk = Walk {
            g,
            places: &places,
            depth: &depth,
        };
        let mut needs = Vec::new();
        for (b, &bn) in g.block_nodes.iter().enumerate() {
            if depth[b] == usize::MAX {
                continue;
            }
            for ia in g.arena.members(bn) {
                if g.arena.node(ia).attrs.kind() != Attrs::STMT {
                    continue;
                }
                let mut seen: Vec<NodeId> = Vec::new();
                for u in g.arena.members(ia) {
                    let a = g.arena.node(u).attrs;
                    if a.kind() != Attrs::USE || a.has(Attrs::UNDEF) || seen.contains(&u) {
                        continue;
                    }
                    // A use and its shadows together: each shadow's
                    // reaching definition supplies another part, and a part
                    // one of them defines in this block is not live in.
                    let group = g.related(ia, u);
                    seen.extend(&group);
                    let want = g.regs.units(g.ref_reg(u));
                    for (def, units) in walk.reaching_defs(&want, &group) {
                        needs.push(Need {
                            block: b,
                            units,
                            def,
                        });
                    }
                }
            }
        }
        while let Some(n) = needs.pop() {
            live.satisfy(&walk, n, &mut needs);
        }
        live.entry_read = live.live_in[0].clone();
        live.entry_read.intersect_with(&g.tracked);
        let entry = &mut live.live_in[0];
        for l in &g.f.live_ins {
            g.regs.insert(entry, RegisterRef::whole(l.reg));
        }
        for l in &g.f.blocks[0].live_ins {
            g.regs.insert(entry, block_live_in_ref(l));
        }
        for s in &mut live.live_in {
            s.intersect_with(&g.tracked);
        }
        live
    }

    /// Makes `n.units` live from `n.def` to the end (or a use) of
    /// `n.block`: live into the block unless the definition is a
    /// statement of it, then on into its predecessors, or through the
    /// phi's uses when the definition is a phi of the block.
    fn satisfy(&mut self, w: &Walk<'_, '_, '_, '_>, n: Need, needs: &mut Vec<Need>) {
        let g = w.g;
        let owner = w.places.owner[n.def as usize];
        let def_block = w.places.block[n.def as usize];
        let is_phi = g.arena.node(owner).attrs.kind() == Attrs::PHI;
        if def_block == n.block && !is_phi {
            return;
        }
        let mut new = n.units;
        new.subtract(&self.live_in[n.block]);
        if new.is_empty() {
            return;
        }
        self.live_in[n.block].union_with(&new);
        if is_phi && def_block == n.block {
            for group in phi_use_groups(g, owner) {
                let pred = g.arena.code(g.arena.predecessor(group[0])) as usize;
                for (def, units) in w.reaching_defs(&new, &group) {
                    needs.push(Need {
                        block: pred,
                        units,
                        def,
                    });
                }
            }
            return;
        }
        for p in &g.f.blocks[n.block].preds {
            if w.depth[p.index()] != usize::MAX {
                needs.push(Need {
                    block: p.index(),
                    units: new.clone(),
                    def: n.def,
                });
            }
        }
    }

    /// The registers live into block `b`, each unit under its root
    /// register (LLVM's `RegisterAggr::refs`).
    pub fn live_ins(&self, g: &DataFlowGraph<'_, '_, '_>, b: usize) -> Vec<RegisterRef> {
        g.regs.refs(&self.live_in[b])
    }

    /// The blocks whose recorded live-ins, restricted to the registers the
    /// graph tracks, are not the computed ones (compared unit by unit).
    pub fn differences(&self, g: &DataFlowGraph<'_, '_, '_>) -> Vec<LiveInDifference> {
        let mut out = Vec::new();
        for (b, data) in g.f.blocks.iter().enumerate() {
            let mut recorded = g.regs.empty_set();
            for l in &data.live_ins {
                g.regs.insert(&mut recorded, block_live_in_ref(l));
            }
            recorded.intersect_with(&g.tracked);
            if recorded != self.live_in[b] {
                let only_unread_function_live_ins = b == 0
                    && self.entry_read.is_subset_of(&recorded)
                    && recorded.is_subset_of(&self.live_in[0]);
                out.push(LiveInDifference {
                    only_unread_function_live_ins,
                    block: b,
                    recorded: g.regs.refs(&recorded),
                    computed: g.regs.refs(&self.live_in[b]),
                });
            }
        }
        out
    }

    /// The register uses that are kills, as `(instruction, operand)` in
    /// block and instruction order (LLVM's `Liveness::resetKills` after
    /// `resetLiveIns`): walking each block backwards from the live-ins of
    /// its successors, explicit definitions end their registers' liveness
    /// (implicit ones may define a super-register only partly), and a
    /// defined use is a kill when no unit of its register is live below.
    pub fn kills(&self, g: &DataFlowGraph<'_, '_, '_>) -> Vec<(Inst, usize)> {
        let f = g.f;
        let mut out = Vec::new();
        for data in &f.blocks {
            let mut live = g.regs.empty_set();
            for s in &data.succs {
                live.union_with(&self.live_in[s.block.index()]);
            }
            let mut block_kills = Vec::new();
            // Backwards over the code; forwards over an instruction's
            // operands, so that of two reads of a register the first is
            // the kill, as LLVM marks it.
            for &i in data.insts.iter().rev() {
                let ops = &f.inst(i).operands;
                for o in ops {
                    if let Some((p, r)) = phys(o)
                        && r.is_def()
                        && !r.is_implicit()
                    {
                        live.subtract(&g.regs.units(RegisterRef::whole(p)));
                    }
                }
                let before = block_kills.len();
                for (k, o) in ops.iter().enumerate() {
                    let Some((p, r)) = phys(o) else { continue };
                    if r.is_def() || r.flags.has(RegFlags::UNDEF) || is_debug_use(r) {
                        continue;
                    }
                    let units = g.regs.units(RegisterRef::whole(p));
                    if !live.intersects(&units) {
                        block_kills.push((i, k));
                    }
                    live.union_with(&units);
                }
                block_kills[before..].reverse();
            }
            block_kills.reverse();
            out.extend(block_kills);
        }
        out
    }
}

/// The register and lanes of a block live-in.
fn block_live_in_ref(l: &crate::ir::BlockLiveIn) -> RegisterRef {
    RegisterRef {
        lanes: l.lanes.unwrap_or(crate::target::LaneMask::ALL),
        ..RegisterRef::whole(l.reg)
    }
}

/// The physical register an operand names, if it names one.
fn phys(o: &Operand) -> Option<(Reg, &crate::ir::RegOperand)> {
    match o {
        Operand::Reg(r) => match r.reg {
            RegRef::Phys(p) => Some((p, r)),
            _ => None,
        },
        _ => None,
    }
}

fn is_debug_use(r: &crate::ir::RegOperand) -> bool {
    r.flags.has(RegFlags::DEBUG_USE)
}

/// The uses of phi `phi` grouped by predecessor: each group a use and the
/// shadows after it.
fn phi_use_groups(g: &DataFlowGraph<'_, '_, '_>, phi: NodeId) -> Vec<Vec<NodeId>> {
    let mut seen: Vec<NodeId> = Vec::new();
    let mut out = Vec::new();
    for u in g.arena.members(phi) {
        if g.arena.node(u).attrs.kind() != Attrs::USE || seen.contains(&u) {
            continue;
        }
        let group = g.related(phi, u);
        seen.extend(&group);
        out.push(group);
    }
    out
}

/// Each block's depth in the dominator tree (`usize::MAX`: unreachable).
fn tree_depths(dom: &Dominance, nb: usize) -> Vec<usize> {
    let mut depth = vec![usize::MAX; nb];
    depth[0] = 0;
    let mut stack = vec![0usize];
    while let Some(b) = stack.pop() {
        for &c in &dom.children[b] {
            depth[c] = depth[b] + 1;
            stack.push(c);
        }
    }
    depth
}

impl Places {
    fn new(g: &DataFlowGraph<'_, '_, '_>) -> Places {
        let n = g.arena.len() + 1;
        let mut p = Places {
            owner: vec![0; n],
            block: vec![usize::MAX; n],
            position: vec![0; n],
        };
        for (b, &bn) in g.block_nodes.iter().enumerate() {
            for (k, ia) in g.arena.members(bn).into_iter().enumerate() {
                p.block[ia as usize] = b;
                p.position[ia as usize] = k;
                for r in g.arena.members(ia) {
                    p.owner[r as usize] = ia;
                    p.block[r as usize] = b;
                    p.position[r as usize] = k;
                }
            }
        }
        p
    }
}

/// What following reaching definitions needs of the graph.
struct Walk<'w, 'f, 't, 'a> {
    g: &'w DataFlowGraph<'f, 't, 'a>,
    places: &'w Places,
    depth: &'w [usize],
}

impl Walk<'_, '_, '_, '_> {
    /// The definitions reaching `want` at the references `starts` (a
    /// reference and its shadows), nearest first, each with the part of
    /// `want` it supplies: its units not covered by the non-preserving
    /// definitions below it (LLVM's `getAllReachingDefs`). The chain is
    /// followed up until a definition covers `want`; phis end it.
    fn reaching_defs(&self, want: &UnitSet, starts: &[NodeId]) -> Vec<(NodeId, UnitSet)> {
        let g = self.g;
        let mut queue: Vec<NodeId> = Vec::new();
        for &s in starts {
            let d = g.arena.reaching_def(s);
            if d != 0 && !queue.contains(&d) {
                queue.push(d);
            }
        }
        let mut k = 0;
        while k < queue.len() {
            let d = queue[k];
            k += 1;
            let a = g.arena.node(d).attrs;
            if a.has(Attrs::PHI_REF) {
                continue;
            }
            // A preserving definition of a register not live before it
            // (undefined) ends the chain as a full one does (LLVM's
            // `IsPreservingDef`).
            let preserving = a.has(Attrs::PRESERVING) && !a.has(Attrs::UNDEF);
            if !preserving && want.is_subset_of(&g.regs.units(g.ref_reg(d))) {
                continue;
            }
            for s in g.related(self.places.owner[d as usize], d) {
                let r = g.arena.reaching_def(s);
                if r != 0 && !queue.contains(&r) {
                    queue.push(r);
                }
            }
        }
        queue.retain(|&d| {
            g.arena.node(d).attrs.has(Attrs::PHI_REF) || g.regs.units(g.ref_reg(d)).intersects(want)
        });
        // Nearest first: deeper blocks of the dominator path, later members.
        queue.sort_by_key(|&d| {
            let p = self.places;
            let b = p.block[d as usize];
            (
                std::cmp::Reverse(self.depth[b]),
                std::cmp::Reverse(p.position[d as usize]),
                d,
            )
        });
        let mut covered = g.regs.empty_set();
        let mut out = Vec::new();
        let mut at = 0;
        while at < queue.len() {
            if want.is_subset_of(&covered) {
                break;
            }
            let owner = self.places.owner[queue[at] as usize];
            let end = queue[at..]
                .iter()
                .position(|&d| self.places.owner[d as usize] != owner)
                .map_or(queue.len(), |e| at + e);
            let mut defined = g.regs.empty_set();
            for &d in &queue[at..end] {
                let units = g.regs.units(g.ref_reg(d));
                let is_phi = g.arena.node(d).attrs.has(Attrs::PHI_REF);
                if !is_phi && units.is_subset_of(&covered) {
                    continue;
                }
                let mut part = units.clone();
                part.intersect_with(want);
                part.subtract(&covered);
                if !g.arena.node(d).attrs.has(Attrs::PRESERVING) {
                    defined.union_with(&units);
                }
                if !part.is_empty() {
                    out.push((d, part));
                }
            }
            covered.union_with(&defined);
            at = end;
        }
        out
    }
}
