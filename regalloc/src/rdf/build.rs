//! Building the graph: statement and reference nodes from the instructions, phis for the function's live-ins and at iterated dominance frontiers, then linking every reference to its reaching definitions by a walk of the dominator tree with a definition stack per register (LLVM's `DataFlowGraph::build`, with dead phis kept as Hexagon's RDF optimiser asks).

use std::collections::HashMap;

use crate::ir::{Inst, MachineFunction, Op, Operand, RegRef};
use crate::ir::{RegFlags as OpFlags, Symbol};
use crate::target::{InstrDesc, InstrFlags, Reg, TargetInfo};

use super::dom::Dominance;
use super::graph::{Arena, Attrs, NodeId, RefSource};
use super::regs::{RegId, RegisterInfo, RegisterRef, UnitSet};

/// The data-flow graph of one function.
pub struct DataFlowGraph<'f, 't, 'a> {
    pub(crate) f: &'f MachineFunction,
    pub(crate) regs: RegisterInfo<'t, 'a>,
    pub(crate) arena: Arena,
    /// The function node.
    pub(crate) func: NodeId,
    /// Each block's node, by block index.
    pub(crate) block_nodes: Vec<NodeId>,
    /// The units of the registers the graph tracks.
    pub(crate) tracked: UnitSet,
    /// The function's reserved registers, by register index.
    pub(crate) reserved: Vec<bool>,
}

/// One entry of a definition stack: a definition, or the mark where a
/// block's definitions begin.
#[derive(Copy, Clone)]
pub(crate) enum StackEntry {
    Def(NodeId),
    Delimiter(NodeId),
}

/// A definition stack per register or mask.
pub(crate) type DefStacks = HashMap<RegId, Vec<StackEntry>>;

impl<'f, 't, 'a> DataFlowGraph<'f, 't, 'a> {
    /// Builds the graph of `f`, tracking every register whose units are not
    /// all those of `reserved` registers (by register index).
    pub fn build(t: &'t TargetInfo<'a>, f: &'f MachineFunction, reserved: &[bool]) -> Self {
        let regs = RegisterInfo::new(t, f);
        let mut tracked = regs.empty_set();
        for r in 0..t.num_regs() {
            if !reserved.get(r).copied().unwrap_or(false) {
                regs.insert(&mut tracked, RegisterRef::whole(Reg::new(r)));
            }
        }
        let mut g = DataFlowGraph {
            f,
            regs,
            arena: Arena::default(),
            func: 0,
            block_nodes: Vec::new(),
            tracked,
            reserved: reserved.to_vec(),
        };
        g.func = g.arena.alloc(Attrs::FUNC);
        if f.blocks.is_empty() {
            return g;
        }
        for (b, data) in f.blocks.iter().enumerate() {
            let bn = g.arena.alloc(Attrs::BLOCK);
            g.arena.set_code(bn, b as u32);
            g.arena.add_member(g.func, bn);
            g.block_nodes.push(bn);
            for &i in &data.insts {
                if !is_debug(f, i) {
                    g.build_stmt(bn, i);
                }
            }
        }
        g.add_live_in_phis();
        let dom = Dominance::new(f);
        g.add_frontier_phis(&dom);
        let mut stacks = DefStacks::new();
        g.link_block(&dom, &mut stacks, 0);
        g
    }

    /// The target.
    pub(crate) fn target(&self) -> &'t TargetInfo<'a> {
        self.regs.t
    }

    /// Whether some unit of `rr` is tracked.
    pub(crate) fn is_tracked(&self, rr: RegisterRef) -> bool {
        self.regs.units(rr).intersects(&self.tracked)
    }

    /// The register reference node `id` names.
    pub(crate) fn ref_reg(&self, id: NodeId) -> RegisterRef {
        match self.arena.node(id).source {
            RefSource::Phi(rr) => rr,
            RefSource::Operand { inst, operand } => {
                operand_ref(self.regs.t, &self.regs, self.f, inst, operand as usize)
            }
            RefSource::None => RegisterRef::whole(Reg::new(0)),
        }
    }

    /// The description of `i`'s opcode, for target instructions.
    fn desc(&self, i: Inst) -> Option<&'t InstrDesc<'a>> {
        match self.f.inst(i).op {
            Op::Target(o) => Some(self.regs.t.instr(o)),
            _ => None,
        }
    }

    fn has_flag(&self, i: Inst, fl: InstrFlags) -> bool {
        self.desc(i).is_some_and(|d| d.is(fl))
    }

    /// Whether `i` transfers control to another function (a call, a tail
    /// call through a branch, or an indirect branch, which RDF treats as
    /// one).
    fn is_call_like(&self, i: Inst) -> bool {
        if self.has_flag(i, InstrFlags::CALL) {
            return true;
        }
        self.has_flag(i, InstrFlags::BRANCH)
            && (has_symbol(self.f, i) || self.has_flag(i, InstrFlags::INDIRECT_BRANCH))
    }

    /// Whether operand `k` of `i` must keep its register (LLVM's
    /// `TargetOperandInfo::isFixedReg`).
    fn is_fixed(&self, i: Inst, k: usize) -> bool {
        if self.has_flag(i, InstrFlags::CALL)
            || self.has_flag(i, InstrFlags::RETURN)
            || is_inline_asm(self.f, i)
        {
            return true;
        }
        if self.has_flag(i, InstrFlags::BRANCH) && has_symbol(self.f, i) {
            return true;
        }
        let Some(d) = self.desc(i) else {
            return false;
        };
        if d.implicit_defs.is_empty() && d.implicit_uses.is_empty() {
            return false;
        }
        let Some(Operand::Reg(o)) = self.f.inst(i).operands.get(k) else {
            return false;
        };
        if o.sub.is_some() {
            return false;
        }
        let RegRef::Phys(r) = o.reg else {
            return false;
        };
        if o.is_def() {
            d.implicit_defs.contains(&r)
        } else {
            d.implicit_uses.contains(&r)
        }
    }

    /// Whether a definition by `i` may keep the old value (predicated).
    fn is_preserving(&self, i: Inst) -> bool {
        self.has_flag(i, InstrFlags::PREDICATED)
    }

    /// Whether `i` defines `dr` without any use reading it first (a
    /// preserving definition of such a register is also undefined).
    fn is_def_undef(&self, i: Inst, dr: RegisterRef) -> bool {
        let units = self.regs.units(dr);
        for (k, o) in self.f.inst(i).operands.iter().enumerate() {
            let Operand::Reg(r) = o else { continue };
            if r.is_def() || r.flags.has(OpFlags::UNDEF) || !matches!(r.reg, RegRef::Phys(_)) {
                continue;
            }
            let ur = operand_ref(self.regs.t, &self.regs, self.f, i, k);
            if self.regs.units(ur).intersects(&units) {
                return false;
            }
        }
        true
    }

    fn new_ref(&mut self, owner: NodeId, attrs: Attrs, source: RefSource) -> NodeId {
        let n = self.arena.alloc(attrs);
        self.arena.set_source(n, source);
        self.arena.add_member(owner, n);
        n
    }

    /// The statement node of instruction `i` and its references: explicit
    /// definitions, register masks, implicit definitions, then uses.
    fn build_stmt(&mut self, block: NodeId, i: Inst) {
        let s = self.arena.alloc(Attrs::STMT);
        self.arena.set_code(s, i.index() as u32);
        self.arena.add_member(block, s);
        let call = self.is_call_like(i);
        let ops = &self.f.inst(i).operands;
        let nregs = self.regs.t.num_regs();
        let mut done_defs = vec![false; nregs];
        let src = |k: usize| RefSource::Operand {
            inst: i,
            operand: k as u16,
        };
        for (k, o) in ops.iter().enumerate() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Phys(p) = r.reg else { continue };
            if !r.is_def() || r.is_implicit() || !self.is_tracked(RegisterRef::whole(p)) {
                continue;
            }
            let fl = self.def_flags(i, k, call);
            self.new_ref(s, Attrs::DEF | fl, src(k));
            done_defs[p.index()] = true;
        }
        let mut done_clobbers = vec![false; nregs];
        for (k, o) in ops.iter().enumerate() {
            let Operand::RegMask(m) = o else { continue };
            let fl = Attrs::CLOBBERING | Attrs::FIXED | Attrs::DEAD;
            self.new_ref(s, Attrs::DEF | fl, src(k));
            let id = self.regs.mask_id(m);
            for (r, done) in done_clobbers.iter_mut().enumerate() {
                let r = Reg::new(r);
                if self.is_tracked(RegisterRef::whole(r)) && !self.regs.mask_preserves(id, r) {
                    *done = true;
                }
            }
        }
        for (k, o) in ops.iter().enumerate() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Phys(p) = r.reg else { continue };
            if !r.is_def()
                || !r.is_implicit()
                || !self.is_tracked(RegisterRef::whole(p))
                || done_defs[p.index()]
            {
                continue;
            }
            if call && r.flags.has(OpFlags::DEAD) && done_clobbers[p.index()] {
                continue;
            }
            let fl = self.def_flags(i, k, call);
            self.new_ref(s, Attrs::DEF | fl, src(k));
            done_defs[p.index()] = true;
        }
        for (k, o) in ops.iter().enumerate() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Phys(p) = r.reg else { continue };
            if r.is_def() || !self.is_tracked(RegisterRef::whole(p)) {
                continue;
            }
            let mut fl = Attrs::USE;
            if r.flags.has(OpFlags::UNDEF) {
                fl = fl | Attrs::UNDEF;
            }
            if self.is_fixed(i, k) {
                fl = fl | Attrs::FIXED;
            }
            self.new_ref(s, fl, src(k));
        }
    }

    /// The flags of the definition at operand `k` of `i`.
    fn def_flags(&self, i: Inst, k: usize, call: bool) -> Attrs {
        let Operand::Reg(r) = &self.f.inst(i).operands[k] else {
            return Attrs(0);
        };
        let mut fl = Attrs(0);
        if self.is_preserving(i) {
            fl = fl | Attrs::PRESERVING;
            if self.is_def_undef(i, operand_ref(self.regs.t, &self.regs, self.f, i, k)) {
                fl = fl | Attrs::UNDEF;
            }
        }
        let dead = r.flags.has(OpFlags::DEAD);
        if self.has_flag(i, InstrFlags::CALL) && dead {
            fl = fl | Attrs::CLOBBERING;
        }
        if self.is_fixed(i, k) {
            fl = fl | Attrs::FIXED;
        }
        if call && dead {
            fl = fl | Attrs::DEAD;
        }
        fl
    }

    /// A phi in the entry block for each live-in register of the function.
    fn add_live_in_phis(&mut self) {
        let mut live = self.regs.empty_set();
        for l in &self.f.live_ins {
            self.regs.insert(&mut live, RegisterRef::whole(l.reg));
        }
        for l in &self.f.blocks[0].live_ins {
            let rr = RegisterRef {
                id: RegId::Phys(l.reg),
                lanes: l.lanes.unwrap_or(crate::target::LaneMask::ALL),
            };
            self.regs.insert(&mut live, rr);
        }
        let entry = self.block_nodes[0];
        for rr in self.regs.refs(&live) {
            if !self.is_tracked(rr) {
                continue;
            }
            let p = self.arena.alloc(Attrs::PHI);
            self.arena.add_phi(entry, p);
            let fl = Attrs::DEF | Attrs::PHI_REF | Attrs::PRESERVING;
            self.new_ref(p, fl, RefSource::Phi(rr));
        }
    }

    /// Phis, with a use per predecessor, in each block of the iterated
    /// dominance frontier of a block defining the register.
    fn add_frontier_phis(&mut self, dom: &Dominance) {
        let nb = self.f.blocks.len();
        let mut wanted: Vec<Option<UnitSet>> = vec![None; nb];
        for b in 0..nb {
            let idf = &dom.iterated_frontier[b];
            if idf.is_empty() {
                continue;
            }
            let mut defs = self.regs.empty_set();
            for ia in self.arena.members(self.block_nodes[b]) {
                for r in self.arena.members(ia) {
                    if self.arena.node(r).attrs.kind() != Attrs::DEF {
                        continue;
                    }
                    let rr = self.ref_reg(r);
                    if matches!(rr.id, RegId::Phys(_)) && self.is_tracked(rr) {
                        self.regs.insert(&mut defs, rr);
                    }
                }
            }
            for &y in idf {
                let w = wanted[y].get_or_insert_with(|| self.regs.empty_set());
                w.union_with(&defs);
            }
        }
        for (b, w) in wanted.iter().enumerate() {
            let Some(w) = w else { continue };
            if w.is_empty() {
                continue;
            }
            let bn = self.block_nodes[b];
            let preds: Vec<NodeId> = self.f.blocks[b]
                .preds
                .iter()
                .map(|p| self.block_nodes[p.index()])
                .collect();
            for rr in self.regs.refs(w) {
                let p = self.arena.alloc(Attrs::PHI);
                self.arena.add_phi(bn, p);
                let fl = Attrs::PHI_REF | Attrs::PRESERVING;
                self.new_ref(p, Attrs::DEF | fl, RefSource::Phi(rr));
                for &pb in &preds {
                    // Phi uses are not preserving: only the phi's definition is.
                    let u = self.new_ref(p, Attrs::USE | Attrs::PHI_REF, RefSource::Phi(rr));
                    self.arena.set_predecessor(u, pb);
                }
            }
        }
    }

    fn kind(&self, n: NodeId) -> Attrs {
        self.arena.node(n).attrs.kind()
    }

    fn is_clobber(&self, n: NodeId) -> bool {
        self.kind(n) == Attrs::DEF && self.arena.node(n).attrs.has(Attrs::CLOBBERING)
    }

    /// Links the references of block `b` and, through the dominator tree,
    /// of the blocks it dominates; then the phi uses of its successors that
    /// come from it.
    fn link_block(&mut self, dom: &Dominance, stacks: &mut DefStacks, b: usize) {
        let bn = self.block_nodes[b];
        for s in stacks.values_mut() {
            s.push(StackEntry::Delimiter(bn));
        }
        for ia in self.arena.members(bn) {
            let is_stmt = self.kind(ia) == Attrs::STMT;
            if is_stmt {
                let refs = self.arena.members(ia);
                let uses: Vec<NodeId> = refs
                    .iter()
                    .copied()
                    .filter(|&r| self.kind(r) == Attrs::USE)
                    .collect();
                self.link_refs(stacks, ia, &uses);
                let clobbers: Vec<NodeId> = refs
                    .iter()
                    .copied()
                    .filter(|&r| self.is_clobber(r))
                    .collect();
                self.link_refs(stacks, ia, &clobbers);
            }
            self.push_defs(ia, stacks, true);
            if is_stmt {
                let defs: Vec<NodeId> = self
                    .arena
                    .members(ia)
                    .into_iter()
                    .filter(|&r| self.kind(r) == Attrs::DEF && !self.is_clobber(r))
                    .collect();
                self.link_refs(stacks, ia, &defs);
            }
            self.push_defs(ia, stacks, false);
        }
        for &c in &dom.children[b] {
            self.link_block(dom, stacks, c);
        }
        let succs: Vec<usize> = self.f.blocks[b]
            .succs
            .iter()
            .map(|s| s.block.index())
            .collect();
        for sb in succs {
            let sbn = self.block_nodes[sb];
            for ia in self.arena.members(sbn) {
                if self.kind(ia) != Attrs::PHI {
                    continue;
                }
                let uses: Vec<NodeId> = self
                    .arena
                    .members(ia)
                    .into_iter()
                    .filter(|&r| self.kind(r) == Attrs::USE && self.arena.predecessor(r) == bn)
                    .collect();
                for u in uses {
                    let key = self.ref_reg(u).id;
                    let stack = stacks.get(&key).cloned().unwrap_or_default();
                    self.link_ref_up(ia, u, &stack);
                }
            }
        }
        for s in stacks.values_mut() {
            while let Some(e) = s.pop() {
                if matches!(e, StackEntry::Delimiter(d) if d == bn) {
                    break;
                }
            }
        }
        stacks.retain(|_, s| s.iter().any(|e| matches!(e, StackEntry::Def(_))));
    }

    /// Links each of `refs` (members of `ia`) to its reaching definitions.
    fn link_refs(&mut self, stacks: &DefStacks, ia: NodeId, refs: &[NodeId]) {
        for &r in refs {
            let key = self.ref_reg(r).id;
            if let Some(stack) = stacks.get(&key) {
                let stack = stack.clone();
                self.link_ref_up(ia, r, &stack);
            }
        }
    }

    /// Links `ta` to the definitions on `stack` (top first) that reach it:
    /// each one not hidden by those above it, until they cover its register.
    /// A reference reached by several gets a shadow copy for each after the
    /// first.
    fn link_ref_up(&mut self, ia: NodeId, ta: NodeId, stack: &[StackEntry]) {
        let rr = self.ref_reg(ta);
        let mut seen = self.regs.empty_set();
        let mut tap: NodeId = 0;
        for e in stack.iter().rev() {
            let StackEntry::Def(d) = *e else { continue };
            let qr = self.ref_reg(d);
            let alias = self.regs.has_alias_of(&seen, qr);
            self.regs.insert(&mut seen, qr);
            let cover = self.regs.has_cover_of(&seen, rr);
            if alias {
                if cover {
                    break;
                }
                continue;
            }
            tap = if tap == 0 {
                ta
            } else {
                self.arena.set_flags(tap, Attrs::SHADOW);
                self.next_shadow(ia, tap)
            };
            self.arena.link_to_def(tap, d);
            if cover {
                break;
            }
        }
    }

    /// Whether `b`, the member after `a` in `ia`, is a reference related
    /// to `a`: the same operand (or the same phi predecessor) and register.
    fn next_related(&self, ia: NodeId, a: NodeId) -> NodeId {
        let b = self.arena.node(a).next;
        let nb = self.arena.node(b);
        if nb.attrs.is_code() || nb.attrs.kind() != self.kind(a) {
            return 0;
        }
        if !self.regs.equal(self.ref_reg(a), self.ref_reg(b)) {
            return 0;
        }
        let related = if self.kind(ia) == Attrs::STMT {
            nb.source == self.arena.node(a).source
        } else {
            self.kind(b) != Attrs::USE || self.arena.predecessor(a) == self.arena.predecessor(b)
        };
        if related { b } else { 0 }
    }

    /// The shadow after `a` (creating it after the last related reference).
    fn next_shadow(&mut self, ia: NodeId, a: NodeId) -> NodeId {
        let flags = Attrs(self.arena.node(a).attrs.0 | Attrs::SHADOW.0);
        let start = a;
        let mut at = a;
        loop {
            let n = self.next_related(ia, at);
            if n == 0 || n == start {
                break;
            }
            if self.arena.node(n).attrs == flags {
                return n;
            }
            at = n;
        }
        let c = self.arena.clone_ref(a);
        self.arena.set_flags(c, Attrs::SHADOW);
        self.arena.add_member_after(ia, at, c);
        c
    }

    /// The reference `r` and the shadows after it.
    pub(crate) fn related(&self, ia: NodeId, r: NodeId) -> Vec<NodeId> {
        let mut out = vec![r];
        let mut at = r;
        loop {
            let n = self.next_related(ia, at);
            if n == 0 || n == r {
                break;
            }
            out.push(n);
            at = n;
        }
        out
    }

    /// Pushes the clobbering (`clobbers`) or other definitions of `ia` on
    /// the stacks of their registers and of every tracked alias.
    pub(crate) fn push_defs(&self, ia: NodeId, stacks: &mut DefStacks, clobbers: bool) {
        let mut visited: Vec<NodeId> = Vec::new();
        let mut defined: Vec<RegId> = Vec::new();
        for d in self.arena.members(ia) {
            if self.kind(d) != Attrs::DEF || visited.contains(&d) {
                continue;
            }
            if self.arena.node(d).attrs.has(Attrs::CLOBBERING) != clobbers {
                continue;
            }
            let rel = self.related(ia, d);
            let rr = self.ref_reg(rel[0]);
            stacks.entry(rr.id).or_default().push(StackEntry::Def(d));
            if clobbers {
                defined.push(rr.id);
            }
            for a in self.regs.alias_set(rr.id) {
                if let RegId::Phys(p) = a
                    && !self.is_tracked(RegisterRef::whole(p))
                {
                    continue;
                }
                if clobbers && defined.contains(&a) {
                    continue;
                }
                stacks.entry(a).or_default().push(StackEntry::Def(d));
            }
            visited.extend(rel);
        }
    }
}

/// The register operand `k` of `i` names (its sub-register, if it has one).
pub(crate) fn operand_ref(
    t: &TargetInfo<'_>,
    regs: &RegisterInfo<'_, '_>,
    f: &MachineFunction,
    i: Inst,
    k: usize,
) -> RegisterRef {
    match &f.inst(i).operands[k] {
        Operand::Reg(r) => {
            let RegRef::Phys(p) = r.reg else {
                return RegisterRef::whole(Reg::new(0));
            };
            let p = r.sub.and_then(|s| t.sub_reg(p, s)).unwrap_or(p);
            RegisterRef::whole(p)
        }
        Operand::RegMask(m) => RegisterRef {
            id: RegId::Mask(regs.mask_id(m)),
            lanes: crate::target::LaneMask::ALL,
        },
        _ => RegisterRef::whole(Reg::new(0)),
    }
}

/// Whether `i` names a global or external symbol (a call or tail call target).
fn has_symbol(f: &MachineFunction, i: Inst) -> bool {
    f.inst(i).operands.iter().any(|o| {
        matches!(
            o,
            Operand::Symbol(s) if matches!(s.sym, Symbol::Global(_) | Symbol::External(_))
        )
    })
}

fn is_inline_asm(f: &MachineFunction, i: Inst) -> bool {
    matches!(f.inst(i).op, Op::Generic(g) if g.name().starts_with("INLINEASM"))
}

fn is_debug(f: &MachineFunction, i: Inst) -> bool {
    matches!(f.inst(i).op, Op::Generic(g) if g.name().starts_with("DBG_"))
}
