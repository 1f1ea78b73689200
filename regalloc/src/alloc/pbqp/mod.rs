//! LLVM's RegAllocPBQP: register allocation as a partitioned boolean quadratic problem, solved by `solver`, spilling what the solution spills and solving again until nothing more spills.
//!
//! One round, over every virtual register still to allocate (LLVM's
//! `initializeGraph` and its constraints `SpillCosts`, `Interference`,
//! `Coalescing`):
//!
//! 1. **allowed registers**: the class's order, minus registers a fixed
//!    register live range or a call's mask takes inside the interval
//!    (on register units, so aliases and sub-registers count). A register
//!    with none is spilled at once and its pieces join the round;
//! 2. **nodes**: option 0 is spilling, costing the spill weight plus 10
//!    (the weight as LLVM's PBQP weighs it: the usual weight times the
//!    number of operands, `pbqp_weight`); option `1 + i` is the `i`-th
//!    allowed register, costing 1 when it overlaps a callee-saved
//!    register (its first use means a save and a restore);
//! 3. **interference edges**: between every two registers whose live
//!    ranges overlap, infinite where their options share a register unit
//!    (a register, its aliases, its sub-registers, the tuples containing
//!    it); none where no option of one overlaps an option of the other;
//! 4. **coalescing**: a COPY between two virtual registers adds minus its
//!    block frequency to every pair of options that are the same
//!    register; a COPY between a virtual and a physical register, to that
//!    register's option. (LLVM leaves this off unless `-pbqp-coalescing`;
//!    [`PbqpOptions::coalescing`] says.)
//!
//! The solution assigns every node its register or spills it through the
//! shared spiller ([`super::spiller`]); a round that spilled starts over
//! with every register unassigned and the spill pieces added, as LLVM
//! clears its map between rounds.
//!
//! A spill piece cannot be spilled (its spill cost is infinite): when the
//! heuristic leaves one no register (every option denied by neighbours
//! solved before it), the cheapest set of spillable neighbours in the way
//! of one of its registers is spilled instead (an eviction), a case
//! LLVM's allocator reports as a fatal error.

pub(crate) mod solver;

use rustc_hash::FxHashMap;

use crate::alloc::context::{AllocContext, TargetContext};
use crate::analysis::Analyses;
use crate::error::AllocErrorKind;
use crate::events::{Event, EventLog};
use crate::ir::{MachineFunction, Operand, RegRef, VReg};
use crate::target::{Reg, TargetInfo};
use crate::timing::Pass;

use super::base::{RegAllocBase, vregs_to_allocate};
use super::matrix::Interference;
use super::order::ClassOrders;
use super::virtmap::VirtRegMap;
use super::{AllocError, Decisions, class_of, no_allocatable_register, place_error};
use std::rc::Rc;

use solver::{Cost, EdgeCosts, Graph, Matrix};

/// Options of the PBQP allocator.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PbqpOptions {
    /// Add coalescing costs for copies (LLVM's `-pbqp-coalescing`).
    pub coalescing: bool,
    /// Solve each round exactly (`solver/exact.rs`), exploring at most
    /// this many search nodes; a round that reaches the limit keeps the
    /// heuristic's solution. `None`: the heuristic alone, as LLVM.
    pub exact: Option<u64>,
}

impl Default for PbqpOptions {
    fn default() -> Self {
        PbqpOptions {
            coalescing: true,
            exact: None,
        }
    }
}

/// The default limit of the exact mode, in search nodes per round.
pub const DEFAULT_EXACT_LIMIT: u64 = 10_000;

/// The least cost of spilling a register with a non-zero weight, so that
/// the callee-saved cost (1) stays below any spill (LLVM's `MinSpillCost`).
const MIN_SPILL_COST: Cost = 10.0;

/// How many rounds may pass before the allocator gives up (each round
/// spills at least one register, and spill pieces are never spilled, so
/// this is never reached by a correct spiller).
const MAX_ROUNDS: usize = 10_000;

/// Allocates `func`, whose analyses `an` the pipeline made, with the PBQP
/// allocator: the decisions, for the pipeline to apply.
pub(crate) fn allocate(
    target: &TargetContext<'_, '_>,
    func: &mut MachineFunction,
    mut an: Analyses,
    opts: PbqpOptions,
    ctx: &mut AllocContext,
) -> Result<Decisions, AllocError> {
    let t = target.target();
    let allocating = ctx.timer.scope(Pass::Allocate);
    let mut base = RegAllocBase::new(t, target.orders(), func, &an);
    let callee_saved = callee_saved_regs(t, &base.orders);
    ctx.pbqp_exact_rounds.clear();
    let mut to_alloc = vregs_to_allocate(&an);
    for round in 0.. {
        if round == MAX_ROUNDS {
            return Err(AllocError::new(
                AllocErrorKind::OutOfRegisters,
                &func.name,
                format!("PBQP allocation did not settle after {MAX_ROUNDS} rounds"),
            ));
        }
        for &v in &to_alloc {
            base.vrm.unassign(v);
        }
        let mut problem = Problem::build(
            t,
            func,
            &mut an,
            &mut base,
            &callee_saved,
            &mut to_alloc,
            opts,
            &mut ctx.events,
        )?;
        let graph = std::mem::take(&mut problem.graph);
        let selection = match opts.exact {
            Some(limit) => {
                let solved = graph.solve_exact(limit);
                ctx.pbqp_exact_rounds.push(solved.round);
                solved.selection
            }
            None => graph.solve(),
        };
        let spills = problem.apply(&selection, &mut base.vrm, t);
        let spills = resolve_unspillable(t, func, &an, &problem, spills, &mut base.vrm)?;
        note_selection(&mut ctx.events, &problem, &base.vrm);
        if spills.is_empty() {
            break;
        }
        let mut gone = spills.clone();
        gone.sort();
        to_alloc.retain(|x| gone.binary_search(x).is_err());
        for v in spills {
            let new = base
                .spiller
                .spill(t, func, &mut an.intervals, &mut base.vrm, v)?;
            ctx.events.note(|| Event::Spill {
                vreg: v,
                products: new.clone(),
            });
            to_alloc.extend(new);
        }
        to_alloc.sort();
    }
    drop(allocating);
    Ok(base.into_decisions(an))
}

/// Notes the registers a round's solution gave its nodes (after the
/// unspillable ones were resolved); the nodes it spilled are noted as
/// they are spilled.
fn note_selection(events: &mut EventLog, problem: &Problem, vrm: &VirtRegMap) {
    if !events.on() {
        return;
    }
    for &v in &problem.vregs {
        if let Some(reg) = vrm.phys(v) {
            events.note(|| Event::Assign { vreg: v, reg });
        }
    }
}

/// Per register: whether it overlaps a callee-saved register of the
/// function's convention.
fn callee_saved_regs(t: &TargetInfo<'_>, orders: &ClassOrders) -> Vec<bool> {
    let mut saved_unit = vec![false; t.units.len()];
    if let Some(s) = orders.csr() {
        for &r in t.callee_saved_set(s).saves.iter() {
            for u in t.units(r) {
                if let Some(m) = saved_unit.get_mut(u.index()) {
                    *m = true;
                }
            }
        }
    }
    (0..t.regs.len())
        .map(|r| {
            t.units(Reg::new(r))
                .iter()
                .any(|u| saved_unit.get(u.index()).copied().unwrap_or(false))
        })
        .collect()
}

/// One round's problem: the graph, and what each node stands for.
struct Problem {
    graph: Graph,
    /// Per node: its virtual register.
    vregs: Vec<VReg>,
    /// Per node: its allowed registers (option `1 + i` is `allowed[i]`).
    allowed: Vec<usize>,
    /// The distinct allowed sets.
    sets: Vec<Vec<Reg>>,
    /// Per node: whether it may be spilled (finite weight).
    spillable: Vec<bool>,
}

impl Problem {
    /// Builds the round's graph over `to_alloc`, spilling at once the
    /// registers that have no allowed register (their pieces join
    /// `to_alloc`) and assigning empty intervals their class's first
    /// register, as LLVM's `finalizeAlloc` does. Only fixed ranges and
    /// call masks are asked of `ra`'s matrix: virtual registers are
    /// never put in. Says those assignments and spills in `events`.
    #[allow(clippy::too_many_arguments)]
    fn build(
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        an: &mut Analyses,
        ra: &mut RegAllocBase,
        callee_saved: &[bool],
        to_alloc: &mut Vec<VReg>,
        opts: PbqpOptions,
        events: &mut EventLog,
    ) -> Result<Problem, AllocError> {
        let RegAllocBase {
            vrm,
            matrix: fixed,
            orders,
            spiller,
            ..
        } = ra;
        let mut sets: Vec<Vec<Reg>> = Vec::new();
        let mut set_ids: FxHashMap<Vec<Reg>, usize> = FxHashMap::default();
        let mut nodes: Vec<(VReg, usize)> = Vec::new();
        let mut worklist: Vec<VReg> = to_alloc.clone();
        let mut removed: Vec<VReg> = Vec::new();
        while let Some(v) = worklist.pop() {
            let Some(iv) = an.intervals.vreg(v) else {
                continue;
            };
            let class = class_of(t, func, an, v, &iv.range)?;
            let base = orders.base(t, class);
            if base.is_empty() {
                return Err(no_allocatable_register(t, func, an, v, class, &iv.range));
            }
            if iv.range.is_empty() {
                vrm.assign(v, base[0]);
                events.note(|| Event::Assign {
                    vreg: v,
                    reg: base[0],
                });
                continue;
            }
            let masks = fixed.masks_in(&iv.range);
            let allowed: Vec<Reg> = base
                .iter()
                .copied()
                .filter(|&p| fixed.check_fixed_with_masks(t, iv, p, &masks) == Interference::Free)
                .collect();
            if allowed.is_empty() {
                if !iv.weight.is_finite() {
                    return Err(place_error(
                        AllocError::new(
                            AllocErrorKind::OutOfRegisters,
                            &func.name,
                            format!(
                                "no register of class {} is free for unspillable {} ({} candidates, all taken by fixed registers or call clobbers)",
                                t.class(class).name,
                                func.vreg_text(vrm.original(v)),
                                base.len()
                            ),
                        ),
                        an,
                        &iv.range,
                    ));
                }
                removed.push(v);
                let new = spiller.spill(t, func, &mut an.intervals, vrm, v)?;
                events.note(|| Event::Spill {
                    vreg: v,
                    products: new.clone(),
                });
                worklist.extend(new.iter().copied());
                to_alloc.extend(new);
                continue;
            }
            let next = sets.len();
            let id = *set_ids.entry(allowed).or_insert_with_key(|k| {
                sets.push(k.clone());
                next
            });
            nodes.push((v, id));
        }
        if !removed.is_empty() {
            removed.sort();
            to_alloc.retain(|v| removed.binary_search(v).is_err());
        }
        to_alloc.sort();
        // Nodes in register order, as LLVM's map of allowed sets is.
        nodes.sort_by_key(|n| n.0);
        let (graph, spillable) = Problem::nodes(func, an, &nodes, &sets, callee_saved);
        let mut problem = Problem {
            graph,
            vregs: nodes.iter().map(|n| n.0).collect(),
            allowed: nodes.iter().map(|n| n.1).collect(),
            sets,
            spillable,
        };
        problem.add_interference(t, an);
        if opts.coalescing {
            problem.add_coalescing(func, an);
        }
        Ok(problem)
    }

    /// The graph's nodes, one per `(register, allowed set)` of `nodes`
    /// (indexes into `sets`), each with its costs (spilling first, then
    /// each allowed register, a callee-saved one costing 1), and whether
    /// each may be spilled.
    fn nodes(
        func: &MachineFunction,
        an: &Analyses,
        nodes: &[(VReg, usize)],
        sets: &[Vec<Reg>],
        callee_saved: &[bool],
    ) -> (Graph, Vec<bool>) {
        let operands = operand_counts(func);
        let mut graph = Graph::new();
        let mut spillable = Vec::with_capacity(nodes.len());
        for &(v, set) in nodes {
            let weight = an.intervals.vreg(v).map_or(Cost::INFINITY, |iv| iv.weight);
            let weight = pbqp_weight(weight, operands.get(v.index()).copied().unwrap_or(0));
            let spill = if weight == 0.0 {
                Cost::MIN_POSITIVE
            } else {
                weight + MIN_SPILL_COST
            };
            let mut costs = Vec::with_capacity(sets[set].len() + 1);
            costs.push(spill);
            costs.extend(sets[set].iter().map(|p| {
                if callee_saved.get(p.index()).copied().unwrap_or(false) {
                    1.0
                } else {
                    0.0
                }
            }));
            graph.add_node(costs);
            spillable.push(weight.is_finite());
        }
        (graph, spillable)
    }

    /// Interference edges between every two nodes whose live ranges
    /// overlap (a sweep over all segments by start), one matrix per pair
    /// of allowed sets.
    fn add_interference(&mut self, t: &TargetInfo<'_>, an: &Analyses) {
        let mut segments: Vec<(u32, u32, u32)> = Vec::new();
        for (n, &v) in self.vregs.iter().enumerate() {
            if let Some(iv) = an.intervals.vreg(v) {
                segments.extend(
                    iv.range
                        .segments
                        .iter()
                        .map(|s| (s.start.0, s.end.0, n as u32)),
                );
            }
        }
        segments.sort_unstable();
        let mut active: Vec<(u32, u32)> = Vec::new();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for &(start, end, n) in &segments {
            active.retain(|&(e, _)| e > start);
            for &(_, m) in &active {
                if m != n {
                    pairs.push((m.min(n), m.max(n)));
                }
            }
            active.push((end, n));
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut cache: FxHashMap<(usize, usize), Option<Rc<EdgeCosts>>> = FxHashMap::default();
        for (a, b) in pairs {
            let (a, b) = (a as usize, b as usize);
            let key = (self.allowed[a], self.allowed[b]);
            let m = cache.entry(key).or_insert_with(|| {
                interference_matrix(t, &self.sets[key.0], &self.sets[key.1]).map(EdgeCosts::new)
            });
            if let Some(m) = m {
                self.graph.add_edge_shared(a, b, m.clone());
            }
        }
    }

    /// Coalescing costs: minus the block's frequency for each full COPY,
    /// on the options that make it an identity.
    fn add_coalescing(&mut self, func: &MachineFunction, an: &Analyses) {
        let mut node_of: FxHashMap<VReg, usize> = FxHashMap::default();
        for (n, &v) in self.vregs.iter().enumerate() {
            node_of.insert(v, n);
        }
        for (b, bd) in func.blocks.iter().enumerate() {
            let benefit = an.flow.freq.relative(crate::ir::Block::new(b));
            for &i in &bd.insts {
                let inst = func.inst(i);
                if !inst.op.is_copy() {
                    continue;
                }
                let regs: Vec<(RegRef, bool)> = inst
                    .operands
                    .iter()
                    .filter_map(|o| match o {
                        Operand::Reg(r) if r.sub.is_none() => Some((r.reg, r.is_def())),
                        _ => None,
                    })
                    .collect();
                let [(dst, true), (src, false)] = regs[..] else {
                    continue;
                };
                match (dst, src) {
                    (RegRef::Virt(d), RegRef::Virt(s)) if d != s => {
                        let (Some(&nd), Some(&ns)) = (node_of.get(&d), node_of.get(&s)) else {
                            continue;
                        };
                        let (ad, as_) =
                            (&self.sets[self.allowed[nd]], &self.sets[self.allowed[ns]]);
                        let mut m = Matrix::filled(ad.len() + 1, as_.len() + 1, 0.0);
                        for (i, p) in ad.iter().enumerate() {
                            if let Some(j) = as_.iter().position(|q| q == p) {
                                m.set(i + 1, j + 1, -benefit);
                            }
                        }
                        if !m.is_zero() {
                            self.graph.add_edge_costs(nd, ns, m);
                        }
                    }
                    (RegRef::Virt(v), RegRef::Phys(p)) | (RegRef::Phys(p), RegRef::Virt(v)) => {
                        let Some(&n) = node_of.get(&v) else { continue };
                        if let Some(k) = self.sets[self.allowed[n]].iter().position(|&q| q == p) {
                            self.graph.costs_mut(n)[k + 1] -= benefit;
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Assigns the registers `selection` chose; returns the nodes it
    /// spilled.
    fn apply(&self, selection: &[usize], vrm: &mut VirtRegMap, _t: &TargetInfo<'_>) -> Vec<usize> {
        let mut spilled = Vec::new();
        for (n, &s) in selection.iter().enumerate() {
            if s == 0 {
                spilled.push(n);
            } else {
                vrm.assign(self.vregs[n], self.sets[self.allowed[n]][s - 1]);
            }
        }
        spilled
    }
}

/// The interference matrix between two allowed sets: infinite where the
/// two options share a register unit; `None` when no two do.
fn interference_matrix(t: &TargetInfo<'_>, a: &[Reg], b: &[Reg]) -> Option<Matrix> {
    let mut m = Matrix::filled(a.len() + 1, b.len() + 1, 0.0);
    let mut any = false;
    for (i, &p) in a.iter().enumerate() {
        for (j, &q) in b.iter().enumerate() {
            if p == q || t.regs_overlap(p, q) {
                m.set(i + 1, j + 1, Cost::INFINITY);
                any = true;
            }
        }
    }
    any.then_some(m)
}

/// Per virtual register: how many operands name it outside debug
/// instructions (LLVM's `NumInstr` in its weight calculation, which
/// counts one per operand).
fn operand_counts(func: &MachineFunction) -> Vec<u32> {
    let mut counts = vec![0u32; func.vregs.len()];
    for bd in &func.blocks {
        for &i in &bd.insts {
            let inst = func.inst(i);
            if inst.op.is_debug_or_probe() {
                continue;
            }
            for o in &inst.operands {
                if let Operand::Reg(r) = o
                    && let RegRef::Virt(v) = r.reg
                {
                    if counts.len() <= v.index() {
                        counts.resize(v.index() + 1, 0);
                    }
                    counts[v.index()] += 1;
                }
            }
        }
    }
    counts
}

/// The spill weight as LLVM's PBQP allocator computes it
/// (`PBQPVirtRegAuxInfo`): the usual normalized weight times the number
/// of operands, so that registers used often weigh more whatever their
/// length.
fn pbqp_weight(weight: f32, operands: u32) -> f32 {
    if weight.is_finite() {
        weight * operands as f32
    } else {
        weight
    }
}

/// The spilled nodes that cannot be spilled (spill pieces the heuristic
/// left without a register) each get a register by spilling the
/// spillable neighbours in its way: the register whose blockers weigh
/// least, among those no unspillable node holds. Returns the virtual
/// registers to spill.
fn resolve_unspillable(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    problem: &Problem,
    spilled_nodes: Vec<usize>,
    vrm: &mut VirtRegMap,
) -> Result<Vec<VReg>, AllocError> {
    let mut spills: Vec<VReg> = Vec::new();
    for &n in &spilled_nodes {
        if problem.spillable[n] {
            spills.push(problem.vregs[n]);
        }
    }
    let stuck: Vec<usize> = spilled_nodes
        .into_iter()
        .filter(|&n| !problem.spillable[n])
        .collect();
    if stuck.is_empty() {
        return Ok(spills);
    }
    // The nodes overlapping each stuck node, found by range overlap.
    for n in stuck {
        let v = problem.vregs[n];
        let Some(iv) = an.intervals.vreg(v) else {
            continue;
        };
        let mut best: Option<(f32, Reg, Vec<VReg>)> = None;
        for &p in &problem.sets[problem.allowed[n]] {
            let mut cost = 0f32;
            let mut blockers = Vec::new();
            let mut possible = true;
            for (m, &w) in problem.vregs.iter().enumerate() {
                if m == n || spills.contains(&w) {
                    continue;
                }
                let Some(q) = vrm.phys(w) else { continue };
                if !t.regs_overlap(p, q) {
                    continue;
                }
                let Some(wi) = an.intervals.vreg(w) else {
                    continue;
                };
                if !super::matrix::ranges_overlap(&iv.range, &wi.range) {
                    continue;
                }
                if !problem.spillable[m] {
                    possible = false;
                    break;
                }
                cost += wi.weight;
                blockers.push(w);
            }
            if possible && best.as_ref().is_none_or(|b| cost < b.0) {
                best = Some((cost, p, blockers));
            }
        }
        let Some((_, p, blockers)) = best else {
            return Err(place_error(
                AllocError::new(
                    AllocErrorKind::OutOfRegisters,
                    &func.name,
                    format!(
                        "no register is left for unspillable {}: every one is held by another unspillable register",
                        func.vreg_text(vrm.original(v))
                    ),
                ),
                an,
                &iv.range,
            ));
        };
        for w in blockers {
            vrm.unassign(w);
            spills.push(w);
        }
        vrm.assign(v, p);
    }
    Ok(spills)
}
