//! LLVM's RegAllocGreedy: a priority queue of live ranges, each through the stages assign, evict, split and spill, with cascade-guarded eviction and live-range splitting.
//!
//! The loop takes the live range of highest priority (`queue`) and asks,
//! in LLVM's order (`selectOrSplit`):
//!
//! 1. **assign**: the first register of its [`AllocationOrder`] (hints
//!    first) with no interference; when that is not the preferred physical
//!    hint, the hint's interference is evicted if that is cheap;
//! 2. **evict** (`evict`): a register whose interference is all virtual,
//!    lighter, and of an older eviction cascade; the evicted ranges go back
//!    to the queue with the evictor's cascade number, so that no two ranges
//!    can evict each other forever;
//! 3. the first time a range gets here it is only marked `Split` and
//!    queued again (with a low priority): splitting waits until everything
//!    easier is allocated and the interference is known;
//! 4. **move aside** (`reassign`, not in LLVM): a register whose one or
//!    two interfering ranges can each move to a register free for them;
//!    else **split** (`split`): around the region where a register is
//!    free (region split, placed by the Hopfield network of
//!    [`super::split::spill_placement`] when available), or per block of
//!    uses (block split); the new ranges are queued;
//! 5. **evict by spill cost** (`cost_evict`, not in LLVM), for a range
//!    about to be spilled: a register whose interference would cost less
//!    to spill (frequency of its stores and reloads) than the range is
//!    freed for it; **recolor** (`recolor`), for a range that cannot be spilled: move
//!    the ranges in one register's way to other registers, recursively
//!    (a range that can be spilled first tries moving ranges aside);
//! 6. **spill** through the shared inline spiller; its tiny ranges are
//!    `Done` and may only be assigned or recolor others.
//!
//! Every range has a stage (`New`, `Assign`, `Split`, `Split2`, `Spill`,
//! `Done`) that only moves forward, which with the cascades makes the
//! loop terminate: a range is split at most while its stage allows, the
//! remainder of a split goes to `Spill`, and spill products are never
//! evicted (eviction by spill cost ignores cascades but happens at most
//! once per range, for strictly cheaper ranges: see `cost_evict`).

mod compact;
mod cost_evict;
mod evict;
mod hint_recolor;
mod instr_split;
mod intf_cache;
mod local;
mod queue;
mod reassign;
mod recolor;
mod region;
mod region_plan;
mod split;

use crate::alloc::context::{AllocContext, TargetContext};
use crate::analysis::Analyses;
use crate::events::{Event, EventLog, SplitKind};
use crate::ir::{Inst, MachineFunction, Operand, RegRef, VReg};
use crate::target::{Reg, TargetInfo};
use crate::timing::Pass;

use super::AllocError;
use super::matrix::{CallMasks, Interference, LiveRegMatrix};
use super::order::{AllocationOrder, ClassOrders};
use super::spiller::Spiller;
use super::split::SplitKit;
use super::virtmap::VirtRegMap;
use super::{Decisions, place_error, tracks_sub_reg_liveness};
use crate::error::AllocErrorKind;

use queue::priority;

/// Where a live range is in its life (LLVM's `LiveRangeStage`).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum Stage {
    /// Never dequeued.
    #[default]
    New,
    /// Dequeued once: may be assigned or evict.
    Assign,
    /// Failed to find a register: split it on its next turn.
    Split,
    /// A product of a region split that did not shrink: only block and
    /// local splits are left.
    Split2,
    /// Spill if no register is free or can be freed.
    Spill,
    /// A spill product: assign only.
    Done,
}

/// Options of the greedy allocator.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct GreedyOptions {
    /// The cost, in entry-block frequency, of the first use of a
    /// callee-saved register (LLVM's `regalloc-csr-first-time-cost`, and
    /// the target's `getCSRFirstUseCost`): a range that could only take an
    /// unused callee-saved register is split or spilled instead when that is
    /// cheaper. 0 disables it (LLVM's default for most targets).
    pub csr_first_time_cost: f32,
    /// Class `AllocationPriority` ranks above the global/local distinction
    /// (LLVM's `-greedy-regclass-priority-trumps-globalness`).
    pub class_priority_trumps_globalness: bool,
    /// Try region splitting (with spill placement) before block splitting.
    pub region_split: bool,
    /// Once every range has a register, move copy-related ranges into one
    /// register where that removes copies (LLVM's `tryHintsRecoloring`).
    pub hint_recoloring: bool,
}

impl Default for GreedyOptions {
    fn default() -> Self {
        GreedyOptions {
            csr_first_time_cost: 0.0,
            class_priority_trumps_globalness: false,
            region_split: true,
            hint_recoloring: true,
        }
    }
}

/// The allocator's state for one function.
pub(crate) struct Greedy<'f, 'a, 't> {
    pub t: &'a TargetInfo<'t>,
    /// Instructions of the function before allocation.
    pub original_insts: usize,
    pub func: &'f mut MachineFunction,
    pub an: Analyses,
    pub vrm: VirtRegMap,
    pub matrix: LiveRegMatrix,
    pub orders: ClassOrders,
    pub spiller: Spiller,
    pub kit: SplitKit,
    pub queue: queue::Queue,
    pub stage: Vec<Stage>,
    /// Eviction cascade of each range (0: none yet).
    pub cascade: Vec<u32>,
    pub next_cascade: u32,
    /// Ranges that already freed a register by spill cost
    /// ([`cost_evict`]): each may do it once.
    pub cost_evicted: Vec<bool>,
    /// Each range's spill cost once computed ([`cost_evict::spill_cost`];
    /// NaN: not yet). A range's instructions never change: a split or a
    /// spill makes new ranges.
    pub spill_costs: Vec<f32>,
    pub opts: GreedyOptions,
    /// Callee-saved registers already used by some assignment.
    pub csr_used: Vec<bool>,
    /// Whether interference follows sub-register lanes.
    pub lanes: bool,
    /// Edge bundles and the spill placement network, once needed.
    pub region: Option<region::Region>,
    /// The call masks inside the range being allocated, collected on its
    /// first interference check (see [`Greedy::check`]).
    pub call_masks: Option<(VReg, CallMasks)>,
    /// Buffer for the hints of an order walked once
    /// ([`AllocationOrder::parts`]), kept between uses.
    pub hint_scratch: Vec<Reg>,
    /// The caller's event log, for the allocation's span (taken from the
    /// context and given back).
    pub events: EventLog,
}

/// Allocates `func`, whose analyses `an` the pipeline made (with lane
/// sub-ranges where [`tracks_sub_reg_liveness`]), with Greedy: the
/// decisions, for the pipeline to apply.
pub(crate) fn allocate(
    target: &TargetContext<'_, '_>,
    func: &mut MachineFunction,
    an: Analyses,
    opts: GreedyOptions,
    ctx: &mut AllocContext,
) -> Result<Decisions, AllocError> {
    let _span = tracing::debug_span!("greedy", function = %func.name).entered();
    tracing::debug!("allocating");
    let t = target.target();
    let lanes = tracks_sub_reg_liveness(t);
    let timer = &mut ctx.timer;
    let mut g = timer.time(Pass::Allocate, move || {
        let orders = ClassOrders::new(t, target.orders(), func);
        Greedy::seeded(t, func, opts, an, orders, lanes)
    });
    g.events = std::mem::take(&mut ctx.events);
    let allocated = timer.time(Pass::Allocate, || g.allocate());
    if allocated.is_err() {
        ctx.events = std::mem::take(&mut g.events);
    }
    allocated?;
    // Last, as LLVM's RAGreedy does it (`tryHintsRecoloring`): it moves
    // assignments within the interference matrix, which only the
    // allocator has.
    if g.opts.hint_recoloring {
        let moved = timer.time(Pass::HintRecoloring, || {
            hint_recolor::recolor_broken_hints(&mut g)
        });
        tracing::debug!(moved, "ranges recolored for copy hints");
    }
    ctx.events = std::mem::take(&mut g.events);
    Ok(g.into_decisions())
}

impl<'f, 'a, 't> Greedy<'f, 'a, 't> {
    /// The state before allocation, for tests: the pipeline's analyses
    /// done, every range queued.
    #[cfg(test)]
    pub fn new(t: &'a TargetInfo<'t>, func: &'f mut MachineFunction, opts: GreedyOptions) -> Self {
        func.compute_preds();
        let lanes = tracks_sub_reg_liveness(t);
        let an = crate::pipeline::analyse(t, func, lanes, &mut AllocContext::new());
        let orders = ClassOrders::new(t, &super::order::TargetOrders::new(t), func);
        Greedy::seeded(t, func, opts, an, orders, lanes)
    }

    /// The state before allocation from the analyses and the function's
    /// base orders: the interference matrix made, every range queued.
    fn seeded(
        t: &'a TargetInfo<'t>,
        func: &'f mut MachineFunction,
        opts: GreedyOptions,
        mut an: Analyses,
        orders: ClassOrders,
        lanes: bool,
    ) -> Self {
        // Only the matrix reads the fixed unit ranges: moved, not copied.
        let matrix = LiveRegMatrix::taking_fixed(t, &mut an.intervals, lanes);
        let spiller = Spiller::new(func);
        let n = func.vregs.len();
        let mut g = Greedy {
            t,
            original_insts: func.insts.len(),
            an,
            vrm: VirtRegMap::new(n),
            matrix,
            orders,
            spiller,
            kit: SplitKit::new(),
            queue: queue::Queue::default(),
            stage: vec![Stage::New; n],
            cascade: vec![0; n],
            next_cascade: 1,
            cost_evicted: vec![false; n],
            spill_costs: vec![f32::NAN; n],
            opts,
            csr_used: vec![false; t.regs.len()],
            lanes,
            region: None,
            call_masks: None,
            hint_scratch: Vec::new(),
            events: EventLog::default(),
            func,
        };
        for v in 0..n {
            if g.an.intervals.vreg(VReg::new(v)).is_some() {
                g.enqueue(VReg::new(v));
            }
        }
        g
    }

    /// Runs the queue dry.
    pub fn allocate(&mut self) -> Result<(), AllocError> {
        while let Some(v) = self.queue.pop() {
            if self.vrm.phys(v).is_some() || self.an.intervals.vreg(v).is_none() {
                continue;
            }
            self.select_or_split(v)?;
        }
        Ok(())
    }

    /// What the allocation decided, for the pipeline to apply.
    fn into_decisions(mut self) -> Decisions {
        Decisions {
            original_insts: self.original_insts,
            reserved: self.orders.reserved().to_vec(),
            split_copies: std::mem::take(&mut self.kit.copies),
            analyses: self.an,
            assignment: self.vrm,
            spill_code: self.spiller.code,
            lanes: self.lanes,
        }
    }
}

/// Sets `v`'s entry of a per-register table that ranges made during
/// allocation (split and spill products) grow, filling new entries with
/// `fill`.
pub(crate) fn set_per_vreg<T: Clone>(table: &mut Vec<T>, v: VReg, x: T, fill: T) {
    if table.len() <= v.index() {
        table.resize(v.index() + 1, fill);
    }
    table[v.index()] = x;
}

impl Greedy<'_, '_, '_> {
    /// The stage of `v`.
    pub fn stage(&self, v: VReg) -> Stage {
        self.stage.get(v.index()).copied().unwrap_or_default()
    }

    /// Sets the stage of `v`.
    pub fn set_stage(&mut self, v: VReg, s: Stage) {
        set_per_vreg(&mut self.stage, v, s, Stage::New);
    }

    /// The cascade of `v` (0 when it never took part in an eviction).
    pub fn cascade(&self, v: VReg) -> u32 {
        self.cascade.get(v.index()).copied().unwrap_or(0)
    }

    /// Sets the cascade of `v`.
    pub fn set_cascade(&mut self, v: VReg, c: u32) {
        set_per_vreg(&mut self.cascade, v, c, 0);
    }

    /// Queues `v` with its current priority.
    pub fn enqueue(&mut self, v: VReg) {
        let p = priority(self, v);
        self.queue.push(p, v);
    }

    /// Assigns `v` to `p` in the matrix and the map.
    pub fn assign(&mut self, v: VReg, p: Reg) {
        if let Some(iv) = self.an.intervals.vreg(v) {
            self.matrix.assign(self.t, iv, p);
        }
        self.vrm.assign(v, p);
        if let Some(u) = self.csr_used.get_mut(p.index()) {
            *u = true;
        }
        self.events.note(|| Event::Assign { vreg: v, reg: p });
    }

    /// Takes `v` out of its register.
    pub fn unassign(&mut self, v: VReg) {
        if let Some(iv) = self.an.intervals.vreg(v) {
            self.matrix.unassign(self.t, iv);
        }
        if let Some(reg) = self.events.on().then(|| self.vrm.phys(v)).flatten() {
            self.events.note(|| Event::Unassign { vreg: v, reg });
        }
        self.vrm.unassign(v);
    }

    /// Notes that `v` was split (`kind`) into the registers `products`
    /// the split kit made (`None` for an interval it left empty).
    pub fn note_split(&mut self, v: VReg, kind: SplitKind, products: &[Option<VReg>]) {
        self.events.note(|| Event::Split {
            vreg: v,
            kind,
            products: products.iter().flatten().copied().collect(),
        });
    }

    /// The allocation order of `v`.
    pub fn order(&mut self, v: VReg) -> Result<AllocationOrder, AllocError> {
        let Some(class) = self
            .func
            .vreg_class(v)
            .filter(|c| c.index() < self.t.classes.len())
        else {
            return Err(self.error(
                v,
                AllocErrorKind::Unsupported,
                format!("{} has no register class", self.func.vreg_text(v)),
            ));
        };
        let vrm = &self.vrm;
        let order = AllocationOrder::new(self.t, &self.orders, class, v, &self.an, |x| vrm.phys(x));
        if order.regs.is_empty() {
            return Err(self.error(
                v,
                AllocErrorKind::OutOfRegisters,
                format!(
                    "class {} of {} has no allocatable register",
                    self.t.class(class).name,
                    self.func.vreg_text(self.vrm.original(v))
                ),
            ));
        }
        Ok(order)
    }

    /// An error about `v`, placed at its first instruction.
    pub fn error(&self, v: VReg, kind: AllocErrorKind, msg: String) -> AllocError {
        let e = AllocError::new(kind, &self.func.name, msg);
        match self.an.intervals.vreg(v) {
            Some(iv) => place_error(e, &self.an, &iv.range),
            None => e,
        }
    }

    /// The spill weight of `v` (infinite without an interval).
    pub fn weight(&self, v: VReg) -> f32 {
        self.an
            .intervals
            .vreg(v)
            .map_or(f32::INFINITY, |i| i.weight)
    }

    /// Whether `v` lives in one block.
    pub fn is_local(&self, v: VReg) -> bool {
        let Some(iv) = self.an.intervals.vreg(v) else {
            return true;
        };
        let slots = &self.an.intervals.slots;
        match (iv.range.segments.first(), iv.range.segments.last()) {
            (Some(f), Some(l)) => {
                slots.block_of(f.start) == slots.block_of(crate::analysis::SlotIndex(l.end.0 - 1))
            }
            _ => true,
        }
    }

    /// The interference `v` meets in `p` ([`LiveRegMatrix::check`]). The
    /// calls inside `v`'s range are looked up once per turn of `v`, not
    /// once per register asked about.
    pub fn check(&mut self, v: VReg, p: Reg) -> Interference {
        let Some(iv) = self.an.intervals.vreg(v) else {
            return Interference::Free;
        };
        if self.call_masks.as_ref().is_none_or(|(x, _)| *x != v) {
            self.call_masks = Some((v, self.matrix.masks_in(&iv.range)));
        }
        let masks = self.call_masks.as_ref().map(|x| &x.1);
        match masks {
            Some(m) => self.matrix.check_with_masks(self.t, iv, p, m),
            None => self.matrix.check(self.t, iv, p),
        }
    }

    /// [`Greedy::check`] without the virtual registers: `Free` when only
    /// they may be in the way ([`LiveRegMatrix::check_fixed_with_masks`]).
    pub fn check_fixed(&mut self, v: VReg, p: Reg) -> Interference {
        let Some(iv) = self.an.intervals.vreg(v) else {
            return Interference::Free;
        };
        if self.call_masks.as_ref().is_none_or(|(x, _)| *x != v) {
            self.call_masks = Some((v, self.matrix.masks_in(&iv.range)));
        }
        match self.call_masks.as_ref() {
            Some((_, m)) => self.matrix.check_fixed_with_masks(self.t, iv, p, m),
            None => Interference::Free,
        }
    }

    /// LLVM's `selectOrSplit` for one range.
    fn select_or_split(&mut self, v: VReg) -> Result<(), AllocError> {
        // The range of `v` may be new (a split or spill product reusing
        // nothing, but be safe): collect its call masks afresh.
        self.call_masks = None;
        let order = self.order(v)?;
        tracing::debug!(
            vreg = v.0,
            weight = self.weight(v),
            stage = ?self.stage(v),
            hints = ?order.regs[..order.hints].iter().map(|&r| &*self.t.reg(r).name).collect::<Vec<_>>(),
            "selectOrSplit"
        );
        if self.stage(v) == Stage::New {
            self.set_stage(v, Stage::Assign);
        }
        // 1. A free register.
        if let Some(p) = self.try_assign(v, &order) {
            if self.opts.csr_first_time_cost > 0.0
                && self.is_unused_csr(p)
                && self.try_avoid_csr(v)?
            {
                return Ok(());
            }
            tracing::debug!(vreg = v.0, reg = %self.t.reg(p).name, "assign");
            self.assign(v, p);
            return Ok(());
        }
        // 2. Evict lighter ranges (not for ranges waiting to be split).
        let stage = self.stage(v);
        if stage != Stage::Split
            && let Some(p) = evict::try_evict(self, v, &order)
        {
            self.assign(v, p);
            return Ok(());
        }
        // 3. Wait until everything else had its turn.
        if stage < Stage::Split {
            self.set_stage(v, Stage::Split);
            self.enqueue(v);
            return Ok(());
        }
        // 4. Move a few ranges aside to free a register, else split.
        if stage < Stage::Spill
            && let Some(p) = reassign::try_reassign(self, v, &order)
        {
            self.assign(v, p);
            return Ok(());
        }
        if stage < Stage::Spill && split::try_split(self, v, &order)? {
            return Ok(());
        }
        // 5. Before a spill, move a few ranges aside (already tried above
        // when the range could split, and nothing changed since), else
        // evict ranges that are cheaper to spill than this one; a range
        // that cannot be spilled moves others out of its way recursively.
        if stage >= Stage::Spill
            && self.weight(v).is_finite()
            && let Some(p) = reassign::try_reassign(self, v, &order)
        {
            self.assign(v, p);
            return Ok(());
        }
        if stage != Stage::Done
            && self.weight(v).is_finite()
            && let Some(p) = cost_evict::try_evict_by_cost(self, v, &order)
        {
            self.assign(v, p);
            return Ok(());
        }
        if (stage == Stage::Done || !self.weight(v).is_finite())
            && let Some(p) = recolor::try_last_chance_recoloring(self, v)
        {
            self.assign(v, p);
            return Ok(());
        }
        // 6. Spill.
        if !self.weight(v).is_finite() {
            let class = self.func.vreg_class(v);
            let name = class.map_or("?", |c| &*self.t.class(c).name).to_string();
            return Err(self.error(
                v,
                AllocErrorKind::OutOfRegisters,
                format!(
                    "no register of class {name} is free for unspillable {} ({} candidates, all taken by fixed registers, call clobbers or other unspillable registers)",
                    self.func.vreg_text(self.vrm.original(v)),
                    order.regs.len()
                ),
            ));
        }
        tracing::debug!(vreg = v.0, "spill");
        self.spill(v)
    }

    /// Spills `v` and queues what the spiller creates as `Done`.
    pub fn spill(&mut self, v: VReg) -> Result<(), AllocError> {
        let before = (
            self.spiller.code.insertions.len(),
            self.spiller.code.folded.len(),
        );
        let removed_before = self.spiller.code.removed.len();
        let local = tracing::enabled!(tracing::Level::DEBUG) && self.is_local(v);
        let new =
            self.spiller
                .spill(self.t, self.func, &mut self.an.intervals, &mut self.vrm, v)?;
        if tracing::enabled!(tracing::Level::DEBUG) {
            self.trace_spill_code(v, local, before);
        }
        self.events.note(|| Event::Spill {
            vreg: v,
            products: new.clone(),
        });
        self.an.intervals.vregs[v.index()] = None;
        self.remove_unused_sources(removed_before, before.0);
        for n in new {
            self.set_stage(n, Stage::Done);
            self.enqueue(n);
        }
        Ok(())
    }

    /// Dead-def elimination through split copies (LLVM's
    /// `eliminateDeadDefs` following the operands of what it deletes):
    /// when the spiller removed a copy from a sibling piece because every
    /// use of the value is recomputed, a sibling whose only other
    /// instruction is its definition (a copy, or the rematerialized
    /// instruction itself) holds a value nobody reads. Its definition is
    /// removed too and the sibling leaves its register (or the queue), and
    /// so on up a chain of copies. `removed_from` and `inserted_from` are
    /// where the spiller's removals and insertions of this spill start.
    fn remove_unused_sources(&mut self, removed_from: usize, inserted_from: usize) {
        let mut work: Vec<Inst> = self.spiller.code.removed[removed_from..].to_vec();
        while let Some(i) = work.pop() {
            let inst = self.func.inst(i);
            if !inst.op.is_copy() {
                continue;
            }
            let Some(s) = inst.operands.iter().find_map(|o| match o {
                Operand::Reg(r) if !r.is_def() && r.sub.is_none() => match r.reg {
                    RegRef::Virt(s) => Some(s),
                    _ => None,
                },
                _ => None,
            }) else {
                continue;
            };
            let users = self.spiller.users(s);
            let [a, b] = users else { continue };
            let d = if *a == i {
                *b
            } else if *b == i {
                *a
            } else {
                continue;
            };
            let Some(iv) = self.an.intervals.vreg(s) else {
                continue;
            };
            if iv.range.valnos.len() != 1 || iv.range.valnos[0].is_phi() {
                continue;
            }
            // The definition must define `s` alone and be a copy or an
            // instruction the spiller recomputes (no side effects).
            let def = self.func.inst(d);
            let defines_only_s = def.operands.iter().all(|o| match o {
                Operand::Reg(r) if r.is_def() => {
                    r.reg == RegRef::Virt(s) && r.sub.is_none()
                        || r.flags.has(crate::ir::RegFlags::DEAD)
                }
                _ => true,
            });
            // This spill recomputed the value from that definition.
            let recomputed = || {
                self.spiller.code.insertions[inserted_from..].iter().any(
                    |x| matches!(x.kind, super::spiller::SpillKind::Remat { of, .. } if of == d),
                )
            };
            if !defines_only_s || !(def.op.is_copy() || recomputed()) {
                continue;
            }
            tracing::debug!(vreg = s.0, "unused split source removed");
            if self.vrm.phys(s).is_some() {
                self.unassign(s);
            }
            self.an.intervals.vregs[s.index()] = None;
            self.spiller.code.removed.push(d);
            work.push(d);
        }
    }

    /// Traces the spill code spilling `v` (`local`: a range inside one
    /// block) added since the spiller's insertion and fold counts were
    /// `before`: stores, reloads and remats with their frequency-weighted
    /// cost.
    fn trace_spill_code(&self, v: VReg, local: bool, before: (usize, usize)) {
        use super::spiller::SpillKind;
        let code = &self.spiller.code;
        let slots = &self.an.intervals.slots;
        let mut cost = [(0u32, 0f32); 3];
        let placed = code.insertions[before.0..].iter().map(|x| (x.at, x.kind));
        let folded = code.folded[before.1..].iter().map(|x| (x.inst, x.kind));
        for (at, kind) in placed.chain(folded) {
            let k = match kind {
                SpillKind::Spill { .. } => 0,
                SpillKind::Reload { .. } => 1,
                SpillKind::Remat { .. } => 2,
            };
            let w = slots
                .inst(at)
                .and_then(|i| slots.block_of(i))
                .map_or(0.0, |b| self.an.flow.freq.relative(b));
            cost[k].0 += 1;
            cost[k].1 += w;
        }
        tracing::debug!(
            vreg = v.0,
            original = self.vrm.original(v).0,
            local,
            stores = cost[0].0,
            store_cost = cost[0].1,
            reloads = cost[1].0,
            reload_cost = cost[1].1,
            remats = cost[2].0,
            "spill code"
        );
    }

    /// LLVM's `tryAssign`: the first free register in order; when it is
    /// not the preferred physical hint, the hint is freed by eviction if
    /// that breaks no other hint and only evicts lighter or splittable
    /// ranges.
    fn try_assign(&mut self, v: VReg, order: &AllocationOrder) -> Option<Reg> {
        self.an.intervals.vreg(v)?;
        let free = order
            .regs
            .iter()
            .copied()
            .find(|&p| self.check(v, p) == Interference::Free)?;
        let hint = self.an.hints.get(v.index()).and_then(|h| match h.first() {
            Some((crate::analysis::Hint::Phys(r), _)) => Some(*r),
            _ => None,
        });
        if let Some(h) = hint
            && h != free
            && order.is_hint(h)
            && evict::can_evict_hint_interference(self, v, h)
        {
            evict::evict_interference(self, v, h);
            return Some(h);
        }
        Some(free)
    }

    /// Whether `p` overlaps a callee-saved register no assignment uses yet.
    pub(super) fn is_unused_csr(&self, p: Reg) -> bool {
        let Some(set) = self.orders.csr() else {
            return false;
        };
        // Callee-saved, and no assigned register overlaps it yet (the
        // second clause covers the saved registers themselves).
        self.t
            .callee_saved_set(set)
            .saves
            .iter()
            .any(|&c| self.t.regs_overlap(c, p))
            && !self
                .csr_used
                .iter()
                .enumerate()
                .any(|(r, &u)| u && self.t.regs_overlap(Reg::new(r), p))
    }

    /// LLVM's `tryAssignCSRFirstTime`, its spill branch: a range about to
    /// be spilled anyway (stage `Spill`) that could only take a callee-saved
    /// register nobody uses yet is spilled when that costs less than the
    /// save and restore the register would need. `true` when it spilled.
    /// (LLVM's other branch, splitting a new range before it takes the
    /// register, is not done.)
    fn try_avoid_csr(&mut self, v: VReg) -> Result<bool, AllocError> {
        if self.stage(v) != Stage::Spill || !self.weight(v).is_finite() {
            return Ok(false);
        }
        if split::spill_cost(self, v) >= self.opts.csr_first_time_cost {
            return Ok(false);
        }
        tracing::debug!(
            vreg = v.0,
            "spill rather than use a callee-saved register first"
        );
        self.spill(v)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests;
