//! RDF copy propagation (LLVM's `rdf::CopyPropagation` as Hexagon's RDF optimiser runs it): a use of a copy's destination reads the copy's source instead, where the source holds at the use the value it held at the copy.
//!
//! Copies are `COPY` between registers of the same minimal class, and the
//! instructions the description marks as copying a register
//! ([`InstrFlags::REGISTER_COPY`]: output 0 takes input 1;
//! [`InstrFlags::COPY_WHEN_ZERO`]: the same when the last explicit operand
//! is the immediate 0), which LLVM's Hexagon optimiser lists by opcode in
//! C++ (`A2_tfr`, `A2_addi ..., 0`). LLVM's list also has `A2_combinew`,
//! whose destination parts it maps by sub-register; no definition node
//! names a part, so LLVM 19 never rewrites through it and neither do we.
//!
//! The walk is LLVM's: the blocks in dominator-tree order with a stack of
//! definitions per register (the graph's own, phis and clobbers included),
//! recording at each copy which definition of its source is on top, and at
//! each statement which definition of a register is on top there. A use
//! reached by a copy's definition is rewritten when the same definition of
//! the source is on top at the use's statement: then no path from the copy
//! to the use writes any part of the source. LLVM records the top only
//! for registers the statement itself names, so a use is rewritten only
//! in an instruction that already reads or writes the source; here it is
//! also recorded for the source of each copy (and of the copies before
//! it, for chains `b = a; c = b`) that reaches one of the statement's
//! uses, which rewrites every use LLVM rewrites and more. A source LLVM
//! finds undefined (no definition on its stack) is not propagated.
//!
//! A rewritten operand must not be tied, fixed (calls, returns, the
//! description's implicit registers) or a phi's, and must take the source
//! by its operand class. The rewrites are returned, not applied: the
//! graph borrows the function.

use std::collections::HashMap;

use crate::ir::{Generic, Inst, Op, Operand, RegRef};
use crate::target::{InstrFlags, Reg, RegClass};

use super::build::{DataFlowGraph, DefStacks, StackEntry, operand_ref};
use super::dom::Dominance;
use super::graph::{Attrs, NodeId, RefSource};
use super::regs::{RegId, RegisterRef};

/// One use operand to read another register.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Rewrite {
    /// The instruction.
    pub inst: Inst,
    /// The operand's position.
    pub operand: usize,
    /// The register it reads instead (without sub-register).
    pub reg: Reg,
}

/// A copy's destination and source parts (LLVM's `EqualityMap`).
type Equalities = Vec<(RegisterRef, RegisterRef)>;

/// What the walk records.
#[derive(Default)]
struct Scan {
    /// The copies' statements, in walk order.
    copies: Vec<NodeId>,
    /// Each copy's destination -> source pairs.
    equalities: HashMap<NodeId, Equalities>,
    /// The definition on top of a register's stack at a statement (before
    /// the statement's own definitions).
    top: HashMap<(NodeId, RegId), NodeId>,
    /// Each reference's owner.
    owner: HashMap<NodeId, NodeId>,
}

impl DataFlowGraph<'_, '_, '_> {
    /// The use rewrites of copy propagation, in the order LLVM makes them.
    pub fn copy_propagation(&self) -> Vec<Rewrite> {
        if self.f.blocks.is_empty() {
            return Vec::new();
        }
        let dom = Dominance::new(self.f);
        let mut scan = Scan::default();
        let mut stacks = DefStacks::new();
        self.scan_block(&dom, &mut stacks, &mut scan, 0);
        self.propagate(&mut scan)
    }

    /// Records copies and tops in block `b` and the blocks it dominates.
    fn scan_block(&self, dom: &Dominance, stacks: &mut DefStacks, scan: &mut Scan, b: usize) {
        let bn = self.block_nodes[b];
        for s in stacks.values_mut() {
            s.push(StackEntry::Delimiter(bn));
        }
        for ia in self.arena.members(bn) {
            for r in self.arena.members(ia) {
                scan.owner.insert(r, ia);
            }
            if self.arena.node(ia).attrs.kind() == Attrs::STMT {
                let i = Inst::new(self.arena.code(ia) as usize);
                if let Some(eq) = self.interpret_as_copy(i) {
                    for &(_, src) in &eq {
                        record_top(scan, stacks, ia, src.id);
                    }
                    scan.copies.push(ia);
                    scan.equalities.insert(ia, eq);
                }
                self.record_tops(ia, stacks, scan);
            }
            self.push_all_defs(ia, stacks);
        }
        for &c in &dom.children[b] {
            self.scan_block(dom, stacks, scan, c);
        }
        for s in stacks.values_mut() {
            while let Some(e) = s.pop() {
                if matches!(e, StackEntry::Delimiter(d) if d == bn) {
                    break;
                }
            }
        }
    }

    /// The tops at statement `ia` of every register it names, and of the
    /// sources of the copies (and chains of copies) reaching its uses.
    fn record_tops(&self, ia: NodeId, stacks: &DefStacks, scan: &mut Scan) {
        for r in self.arena.members(ia) {
            record_top(scan, stacks, ia, self.ref_reg(r).id);
            if self.arena.node(r).attrs.kind() != Attrs::USE {
                continue;
            }
            let mut d = self.arena.reaching_def(r);
            // A chain of copies is short; the bound only guards cycles
            // through loops.
            for _ in 0..8 {
                let Some(src) = self.copy_source_of(scan, d) else {
                    break;
                };
                record_top(scan, stacks, ia, src.id);
                let Some(&copy) = scan.owner.get(&d) else {
                    break;
                };
                d = scan.top.get(&(copy, src.id)).copied().unwrap_or(0);
            }
        }
    }

    /// The source a copy's definition `d` copies, if `d` is one.
    fn copy_source_of(&self, scan: &Scan, d: NodeId) -> Option<RegisterRef> {
        if d == 0 {
            return None;
        }
        let owner = scan.owner.get(&d)?;
        let eq = scan.equalities.get(owner)?;
        let dr = self.ref_reg(d);
        eq.iter()
            .find(|(dst, _)| self.regs.equal(*dst, dr))
            .map(|&(_, src)| src)
    }

    /// Pushes the clobbers, then the other definitions, of `ia`.
    fn push_all_defs(&self, ia: NodeId, stacks: &mut DefStacks) {
        self.push_defs(ia, stacks, true);
        self.push_defs(ia, stacks, false);
    }

    /// The destination and source of `i` if it copies a register (LLVM's
    /// `interpretAsCopy`).
    fn interpret_as_copy(&self, i: Inst) -> Option<Equalities> {
        let inst = self.f.inst(i);
        let phys = |k: usize| match inst.operands.get(k) {
            Some(Operand::Reg(r)) => match r.reg {
                RegRef::Phys(_) => Some(operand_ref(self.target(), &self.regs, self.f, i, k)),
                _ => None,
            },
            _ => None,
        };
        let (dst, src) = (phys(0)?, phys(1)?);
        match inst.op {
            Op::Generic(Generic::Copy) => {
                let (RegId::Phys(d), RegId::Phys(s)) = (dst.id, src.id) else {
                    return None;
                };
                let same_class = self.minimal_class(d) == self.minimal_class(s);
                (same_class && self.is_tracked(dst) && self.is_tracked(src))
                    .then(|| vec![(dst, src)])
            }
            Op::Target(o) => {
                let d = self.target().instr(o);
                if d.is(InstrFlags::REGISTER_COPY) {
                    return Some(vec![(dst, src)]);
                }
                if !d.is(InstrFlags::COPY_WHEN_ZERO) {
                    return None;
                }
                let last = (d.operands.len()).checked_sub(1)?;
                matches!(inst.operands.get(last), Some(Operand::Imm(0))).then(|| vec![(dst, src)])
            }
            Op::Generic(_) | Op::Unknown(_) => None,
        }
    }

    /// The most specific class holding `r` (LLVM's
    /// `getMinimalPhysRegClass`: each later class holding `r` that is a
    /// sub-class of the best so far replaces it).
    fn minimal_class(&self, r: Reg) -> Option<RegClass> {
        let t = self.target();
        let mut best: Option<RegClass> = None;
        for c in 0..t.classes.len() {
            let c = RegClass::new(c);
            if !t.class_contains(c, r) {
                continue;
            }
            if best.is_none_or(|b| t.is_sub_class(c, b)) {
                best = Some(c);
            }
        }
        best
    }

    /// Rewrites the uses reached by each copy's definitions (LLVM's
    /// `CopyPropagation::run`).
    fn propagate(&self, scan: &mut Scan) -> Vec<Rewrite> {
        let mut out = Vec::new();
        for k in 0..scan.copies.len() {
            let sa = scan.copies[k];
            for da in self.arena.members(sa) {
                if self.arena.node(da).attrs.kind() != Attrs::DEF {
                    continue;
                }
                let dr = self.ref_reg(da);
                let Some(&(_, sr)) = scan.equalities[&sa]
                    .iter()
                    .find(|(dst, _)| self.regs.equal(*dst, dr))
                else {
                    continue;
                };
                if self.regs.equal(dr, sr) {
                    continue;
                }
                let Some(&at_copy) = scan.top.get(&(sa, sr.id)) else {
                    continue;
                };
                let mut n = self.arena.reached_use(da);
                while n != 0 {
                    let next = self.arena.sibling(n);
                    if let Some(rw) = self.rewrite_use(scan, n, dr, sr, at_copy) {
                        out.push(rw);
                        // A later copy reading the destination now copies
                        // the source (LLVM updates the copy's map).
                        let ia = scan.owner[&n];
                        if let Some(eq) = scan.equalities.get_mut(&ia)
                            && let Some(e) = eq.iter_mut().find(|(_, s)| self.regs.equal(*s, dr))
                        {
                            e.1 = sr;
                        }
                    }
                    n = next;
                }
            }
        }
        out
    }

    /// The rewrite of use `u` of `dr` to `sr`, if `sr`'s definition on
    /// top at the use's statement is `at_copy` and the operand may take it.
    fn rewrite_use(
        &self,
        scan: &Scan,
        u: NodeId,
        dr: RegisterRef,
        sr: RegisterRef,
        at_copy: NodeId,
    ) -> Option<Rewrite> {
        let a = self.arena.node(u).attrs;
        if a.kind() != Attrs::USE || a.has(Attrs::PHI_REF) || a.has(Attrs::FIXED) {
            return None;
        }
        if !self.regs.equal(self.ref_reg(u), dr) {
            return None;
        }
        let ia = *scan.owner.get(&u)?;
        if scan.top.get(&(ia, sr.id)) != Some(&at_copy) {
            return None;
        }
        let RefSource::Operand { inst, operand } = self.arena.node(u).source else {
            return None;
        };
        let k = operand as usize;
        let RegId::Phys(reg) = sr.id else {
            return None;
        };
        let Operand::Reg(o) = &self.f.inst(inst).operands[k] else {
            return None;
        };
        if o.tied_to.is_some() || !self.operand_takes(inst, k, reg) {
            return None;
        }
        Some(Rewrite {
            inst,
            operand: k,
            reg,
        })
    }

    /// Whether explicit operand `k` of `i` may name `r` by its class.
    fn operand_takes(&self, i: Inst, k: usize, r: Reg) -> bool {
        let inst = self.f.inst(i);
        let Op::Target(op) = inst.op else {
            return true;
        };
        let is_implicit = inst.operands[k].as_reg().is_some_and(|o| o.is_implicit());
        if is_implicit {
            return true;
        }
        let d = self.target().instr(op);
        match d.operands.get(k).and_then(|o| o.class) {
            Some(c) => self.target().class_contains(c, r),
            None => true,
        }
    }
}

/// Records the top of `id`'s stack at `ia` (nothing when it is empty).
fn record_top(scan: &mut Scan, stacks: &DefStacks, ia: NodeId, id: RegId) {
    let top = stacks.get(&id).and_then(|s| {
        s.iter().rev().find_map(|e| match e {
            StackEntry::Def(d) => Some(*d),
            StackEntry::Delimiter(_) => None,
        })
    });
    if let Some(d) = top {
        scan.top.insert((ia, id), d);
    }
}

/// Applies `rewrites` to `f`: each operand reads its new register, without
/// sub-register (LLVM's `setReg` and `setSubReg(0)`; the other flags stay,
/// kill flags are recomputed after dead-code elimination).
pub fn apply_rewrites(f: &mut crate::ir::MachineFunction, rewrites: &[Rewrite]) {
    for rw in rewrites {
        if let Operand::Reg(o) = &mut f.inst_mut(rw.inst).operands[rw.operand] {
            o.reg = RegRef::Phys(rw.reg);
            o.sub = None;
        }
    }
}
