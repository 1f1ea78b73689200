//! RDF dead-code elimination (LLVM's `rdf::DeadCodeElimination`): the statements none of whose definitions reaches a use that matters, and that have no effect beyond their definitions.
//!
//! As LLVM: a statement is live by itself when it may store, branches,
//! calls, returns, has an ordered memory access (volatile, atomic, or a
//! load or store without memory operands), has side effects, is a label
//! or CFI position, or names a reserved register. Every reference of a
//! live statement is live; the uses of a statement with a live definition
//! are live; and the definitions reaching a live use are live (followed
//! up the chain of reaching definitions and through phis, as LLVM's
//! `Liveness::getAllReachingDefs` collects them, keeping every definition
//! on the chain that overlaps the use rather than only those not covered
//! by nearer ones: a superset, so that nothing LLVM keeps is removed). A
//! statement that is not live by itself and has no live definition is
//! dead.
//!
//! LLVM's Hexagon optimiser also turns a post-increment load or store whose
//! address update is dead into its offset form; that rewriting is not done
//! here.

use std::collections::{HashSet, VecDeque};

use crate::ir::{AtomicOrdering, Generic, Inst, InstData, MemFlags, Op, Operand, RegRef};
use crate::target::InstrFlags;

use super::build::DataFlowGraph;
use super::graph::{Attrs, NodeId};
use super::regs::RegisterRef;

impl DataFlowGraph<'_, '_, '_> {
    /// The dead statements' instructions, in block order.
    pub fn dead_instructions(&self) -> Vec<Inst> {
        let owner = self.owners();
        let mut live: HashSet<NodeId> = HashSet::new();
        let mut work: VecDeque<NodeId> = VecDeque::new();
        let stmts = self.statements();
        for &s in &stmts {
            if self.is_live_instr(s) {
                work.extend(self.arena.members(s));
            }
        }
        while let Some(n) = work.pop_front() {
            if !live.insert(n) {
                continue;
            }
            let ia = owner[n as usize];
            if self.arena.node(n).attrs.kind() == Attrs::DEF {
                for u in self.arena.members(ia) {
                    if self.arena.node(u).attrs.kind() == Attrs::USE && !live.contains(&u) {
                        work.push_back(u);
                    }
                }
                live.extend(self.related(ia, n));
            } else {
                for d in self.chain_defs(&owner, n) {
                    if !live.contains(&d) {
                        work.push_back(d);
                    }
                }
            }
        }
        stmts
            .into_iter()
            .filter(|&s| {
                !self.is_live_instr(s)
                    && self.arena.members(s).into_iter().all(|r| {
                        self.arena.node(r).attrs.kind() != Attrs::DEF || !live.contains(&r)
                    })
            })
            .map(|s| Inst::new(self.arena.code(s) as usize))
            .collect()
    }

    /// Every statement node, in block order.
    fn statements(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        for &bn in &self.block_nodes {
            for ia in self.arena.members(bn) {
                if self.arena.node(ia).attrs.kind() == Attrs::STMT {
                    out.push(ia);
                }
            }
        }
        out
    }

    /// Each reference's owner (statement or phi), by node id.
    fn owners(&self) -> Vec<NodeId> {
        let mut owner = vec![0; self.arena.len() + 1];
        for &bn in &self.block_nodes {
            for ia in self.arena.members(bn) {
                for r in self.arena.members(ia) {
                    owner[r as usize] = ia;
                }
            }
        }
        owner
    }

    /// The definitions on use `u`'s chain of reaching definitions that
    /// overlap its register, and the phis on it: up from `u`'s reaching
    /// definition, through the reaching definitions of each definition
    /// (and its shadows) that is preserving or does not cover the use.
    fn chain_defs(&self, owner: &[NodeId], u: NodeId) -> Vec<NodeId> {
        if self.arena.node(u).attrs.has(Attrs::UNDEF) {
            return Vec::new();
        }
        let want = self.regs.units(self.ref_reg(u));
        let mut queue: Vec<NodeId> = Vec::new();
        let first = self.arena.reaching_def(u);
        if first != 0 {
            queue.push(first);
        }
        let mut k = 0;
        while k < queue.len() {
            let d = queue[k];
            k += 1;
            let a = self.arena.node(d).attrs;
            if a.has(Attrs::PHI_REF) {
                continue;
            }
            let preserving = a.has(Attrs::PRESERVING) && !a.has(Attrs::UNDEF);
            if !preserving && want.is_subset_of(&self.regs.units(self.ref_reg(d))) {
                continue;
            }
            for s in self.related(owner[d as usize], d) {
                let r = self.arena.reaching_def(s);
                if r != 0 && !queue.contains(&r) {
                    queue.push(r);
                }
            }
        }
        queue.retain(|&d| {
            self.arena.node(d).attrs.has(Attrs::PHI_REF)
                || self.regs.units(self.ref_reg(d)).intersects(&want)
        });
        queue
    }

    /// Whether statement `s` must stay whatever its definitions reach
    /// (LLVM's `isLiveInstr`, with `hasUntrackedRef`).
    fn is_live_instr(&self, s: NodeId) -> bool {
        let i = Inst::new(self.arena.code(s) as usize);
        let inst = self.f.inst(i);
        if self.has_effects(inst) {
            return true;
        }
        inst.operands.iter().any(|o| match o {
            Operand::Reg(r) => match r.reg {
                RegRef::Phys(p) => {
                    self.reserved.get(p.index()).copied().unwrap_or(false)
                        || !self.is_tracked(RegisterRef::whole(p))
                }
                _ => false,
            },
            Operand::RegMask(_) => true,
            _ => false,
        })
    }

    /// Whether `inst` does something besides writing its definitions.
    fn has_effects(&self, inst: &InstData) -> bool {
        let (may_load, may_store) = match inst.op {
            Op::Target(o) => {
                let d = self.target().instr(o);
                let always = InstrFlags::MAY_STORE.0
                    | InstrFlags::BRANCH.0
                    | InstrFlags::CALL.0
                    | InstrFlags::RETURN.0
                    | InstrFlags::SIDE_EFFECTS.0
                    | InstrFlags::INDIRECT_BRANCH.0;
                if d.flags.0 & always != 0 {
                    return true;
                }
                (d.is(InstrFlags::MAY_LOAD), false)
            }
            // Of the generic instructions only these are free of effects
            // (the rest are labels, positions, inline assembly, calls'
            // pseudo-instructions or unknown to the description).
            Op::Generic(Generic::Copy | Generic::ImplicitDef | Generic::Kill) => (false, false),
            Op::Generic(_) | Op::Unknown(_) => return true,
        };
        // LLVM's `hasOrderedMemoryRef`: an access without memory operands
        // may be anything; a volatile or atomic one is ordered.
        if may_load || may_store {
            if inst.mem.is_empty() {
                return true;
            }
            return inst.mem.iter().any(|m| {
                m.flags.has(MemFlags::VOLATILE)
                    || !matches!(
                        m.ordering,
                        AtomicOrdering::NotAtomic | AtomicOrdering::Unordered
                    )
            });
        }
        false
    }
}

/// Removes `dead` from their blocks.
pub fn remove_instructions(f: &mut crate::ir::MachineFunction, dead: &[Inst]) {
    let dead: HashSet<Inst> = dead.iter().copied().collect();
    for b in &mut f.blocks {
        b.insts.retain(|i| !dead.contains(i));
    }
}
