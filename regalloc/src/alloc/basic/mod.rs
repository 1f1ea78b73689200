//! LLVM's RegAllocBasic: intervals by descending spill weight; assign a free register, evict lighter interference, or spill.
//!
//! The loop, for the heaviest unassigned interval `V`:
//!
//! 1. try each register of `V`'s [`AllocationOrder`] (hints first); the
//!    first one with no interference at all is taken;
//! 2. otherwise, among the registers where only virtual registers
//!    interfere, and all of them are spillable and strictly lighter than
//!    `V`, take the one whose interference weighs least, evict the
//!    interfering registers and take it. Evicted registers go back to the
//!    queue ([`EvictPolicy::Requeue`], the default) or are spilled at once
//!    as LLVM's basic allocator does ([`EvictPolicy::Spill`]);
//! 3. otherwise spill `V` (its weight must be finite) and queue the tiny
//!    registers the spiller creates, which cannot be spilled again.
//!
//! Requeueing terminates: a register is only evicted by a strictly heavier
//! one, and after [`MAX_EVICTIONS`] evictions a register is spilled instead
//! of requeued.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::alloc::context::{AllocContext, TargetContext};
use crate::analysis::{Analyses, LiveInterval, LiveRange};
use crate::events::{Event, EventLog};
use crate::ir::{IndexVec, MachineFunction, VReg};
use crate::target::{Reg, RegClass, TargetInfo};
use crate::timing::Pass;

use super::base::RegAllocBase;
use super::matrix::Interference;
use super::order::AllocationOrder;
use super::{AllocError, Decisions, class_of, no_allocatable_register, place_error};
use crate::error::AllocErrorKind;

/// How many times one register may be evicted and requeued before it is
/// spilled instead.
pub const MAX_EVICTIONS: u32 = 8;

/// What happens to interfering registers evicted by a heavier one.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum EvictPolicy {
    /// They go back to the queue and may find another register.
    #[default]
    Requeue,
    /// They are spilled at once (LLVM's `RABasic::spillInterferences`).
    Spill,
}

/// Options of the basic allocator.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct BasicOptions {
    /// What happens to evicted registers.
    pub evict: EvictPolicy,
}

/// A queue entry: heavier first, then lower register number.
#[derive(Copy, Clone, Debug)]
struct Entry {
    weight: f32,
    vreg: VReg,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        self.weight
            .total_cmp(&o.weight)
            .then_with(|| o.vreg.cmp(&self.vreg))
    }
}

/// Allocates `func`, whose analyses `an` the pipeline made, with the
/// basic allocator: the decisions, for the pipeline to apply.
pub(crate) fn allocate(
    target: &TargetContext<'_, '_>,
    func: &mut MachineFunction,
    mut an: Analyses,
    opts: BasicOptions,
    ctx: &mut AllocContext,
) -> Result<Decisions, AllocError> {
    let t = target.target();
    let allocating = ctx.timer.scope(Pass::Allocate);
    let base = RegAllocBase::new(t, target.orders(), func, &an);
    let mut basic = Basic::new(func, &an, base, opts);
    basic.events = std::mem::take(&mut ctx.events);
    let mut allocated = Ok(());
    while let Some(Entry { vreg: v, .. }) = basic.queue.pop() {
        allocated = basic.allocate_one(t, func, &mut an, v);
        if allocated.is_err() {
            break;
        }
    }
    ctx.events = std::mem::take(&mut basic.events);
    allocated?;
    drop(allocating);
    Ok(basic.base.into_decisions(an))
}

/// The basic allocator's state for one function.
struct Basic {
    opts: BasicOptions,
    /// The assignment, the interference matrix (each assigned interval
    /// in it), the orders and the spiller.
    base: RegAllocBase,
    /// The registers left to allocate, heaviest first.
    queue: BinaryHeap<Entry>,
    /// Per register, how many times it was evicted.
    evictions: IndexVec<VReg, u32>,
    /// Registers already spilled (stale queue entries of them are skipped).
    spilled: IndexVec<VReg, bool>,
    /// The caller's event log, for the allocation's span.
    events: EventLog,
}

impl Basic {
    /// The state before allocating `func` from `base`: every register
    /// with an interval queued.
    fn new(func: &MachineFunction, an: &Analyses, base: RegAllocBase, opts: BasicOptions) -> Basic {
        let mut queue = BinaryHeap::new();
        for (v, iv) in an.intervals.vregs.iter().enumerate() {
            if let Some(iv) = iv {
                queue.push(Entry {
                    weight: iv.weight,
                    vreg: VReg::new(v),
                });
            }
        }
        Basic {
            opts,
            base,
            queue,
            evictions: IndexVec::from_elem(0, func.vregs.len()),
            spilled: IndexVec::from_elem(false, func.vregs.len()),
            events: EventLog::default(),
        }
    }

    /// Allocates `v`, taken from the queue: a free register, else the
    /// cheapest lighter interference evicted, else a spill.
    fn allocate_one(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        an: &mut Analyses,
        v: VReg,
    ) -> Result<(), AllocError> {
        if self.base.vrm.phys(v).is_some() || self.spilled.get(v).copied().unwrap_or(false) {
            return Ok(());
        }
        let Some(iv) = an.intervals.vreg(v) else {
            return Ok(());
        };
        let weight = iv.weight;
        let iv = iv.clone();
        let (class, order) = self.class_and_order(t, func, an, v, &iv.range)?;
        // 1. A free register.
        let candidates = match self.free_register(t, &iv, &order) {
            Ok(p) => {
                self.base.matrix.assign(t, &iv, p);
                self.base.vrm.assign(v, p);
                self.events.note(|| Event::Assign { vreg: v, reg: p });
                return Ok(());
            }
            Err(candidates) => candidates,
        };
        // 2. Evict lighter interference: the cheapest register to free.
        if let Some((p, intf)) = self.cheapest_eviction(t, an, &iv, weight, &candidates) {
            self.events.note(|| Event::Evict {
                vreg: v,
                reg: p,
                evicted: intf.clone(),
            });
            self.evict(t, func, an, intf)?;
            self.base.matrix.assign(t, &iv, p);
            self.base.vrm.assign(v, p);
            self.events.note(|| Event::Assign { vreg: v, reg: p });
            return Ok(());
        }
        // 3. Spill.
        if !weight.is_finite() {
            let original = self.base.vrm.original(v);
            return Err(unspillable(
                t,
                func,
                an,
                original,
                class,
                order.regs.len(),
                &iv.range,
            ));
        }
        self.spill(t, func, an, v)
    }

    /// `v`'s class and allocation order; an error when it has no class or
    /// the class no allocatable register.
    fn class_and_order(
        &mut self,
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        an: &Analyses,
        v: VReg,
        range: &LiveRange,
    ) -> Result<(RegClass, AllocationOrder), AllocError> {
        let class = class_of(t, func, an, v, range)?;
        let vrm = &self.base.vrm;
        let order = AllocationOrder::new(t, &self.base.orders, class, v, an, |x| vrm.phys(x));
        if order.regs.is_empty() {
            return Err(no_allocatable_register(t, func, an, v, class, range));
        }
        Ok((class, order))
    }

    /// The first register of `order` with no interference at all, or else
    /// the registers where only virtual registers interfere.
    fn free_register(
        &self,
        t: &TargetInfo<'_>,
        iv: &LiveInterval,
        order: &AllocationOrder,
    ) -> Result<Reg, Vec<Reg>> {
        let mut candidates = Vec::new();
        for &p in &order.regs {
            match self.base.matrix.check(t, iv, p) {
                Interference::Free => return Ok(p),
                Interference::Virt => candidates.push(p),
                Interference::RegUnit | Interference::RegMask => {}
            }
        }
        Err(candidates)
    }

    /// Among `candidates`, the register whose interference is all
    /// spillable and strictly lighter than `weight` and weighs least in
    /// total, with that interference.
    fn cheapest_eviction(
        &self,
        t: &TargetInfo<'_>,
        an: &Analyses,
        iv: &LiveInterval,
        weight: f32,
        candidates: &[Reg],
    ) -> Option<(Reg, Vec<VReg>)> {
        let mut best: Option<(f32, Reg, Vec<VReg>)> = None;
        for &p in candidates {
            let intf = self.base.matrix.interfering_vregs(t, iv, p);
            let mut total = 0f32;
            let mut ok = true;
            for &x in &intf {
                let w = weight_of(an, x);
                if !w.is_finite() || w >= weight {
                    ok = false;
                    break;
                }
                total += w;
            }
            if ok && best.as_ref().is_none_or(|b| total < b.0) {
                best = Some((total, p, intf));
            }
        }
        best.map(|(_, p, intf)| (p, intf))
    }

    /// Evicts the registers `intf`: each goes back to the queue, or is
    /// spilled once evicted too often or when the policy says so.
    fn evict(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        an: &mut Analyses,
        intf: Vec<VReg>,
    ) -> Result<(), AllocError> {
        for x in intf {
            let Some(xi) = an.intervals.vreg(x).cloned() else {
                continue;
            };
            self.base.matrix.unassign(t, &xi);
            if let Some(reg) = self.events.on().then(|| self.base.vrm.phys(x)).flatten() {
                self.events.note(|| Event::Unassign { vreg: x, reg });
            }
            self.base.vrm.unassign(x);
            if self.evictions.len() <= x.index() {
                self.evictions.resize(x.index() + 1, 0);
            }
            self.evictions[x] += 1;
            if self.opts.evict == EvictPolicy::Spill || self.evictions[x] > MAX_EVICTIONS {
                self.spill(t, func, an, x)?;
            } else {
                self.queue.push(Entry {
                    weight: weight_of(an, x),
                    vreg: x,
                });
            }
        }
        Ok(())
    }

    /// Spills `v` and queues the registers the spiller creates.
    fn spill(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        an: &mut Analyses,
        v: VReg,
    ) -> Result<(), AllocError> {
        if let Some(s) = self.spilled.get_mut(v) {
            *s = true;
        }
        let base = &mut self.base;
        let new = base
            .spiller
            .spill(t, func, &mut an.intervals, &mut base.vrm, v)?;
        self.events.note(|| Event::Spill {
            vreg: v,
            products: new.clone(),
        });
        queue_new(&mut self.queue, an, new);
        Ok(())
    }
}

/// The error for an unspillable register (`original`'s) of class `class`
/// whose `candidates` registers are all taken by what cannot move.
fn unspillable(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    original: VReg,
    class: RegClass,
    candidates: usize,
    range: &LiveRange,
) -> AllocError {
    let class_name = &t.class(class).name;
    place_error(
        AllocError::new(
            AllocErrorKind::OutOfRegisters,
            &func.name,
            format!(
                "no register of class {class_name} is free for unspillable {} ({candidates} candidates, all taken by fixed registers, call clobbers or other unspillable registers)",
                func.vreg_text(original),
            ),
        ),
        an,
        range,
    )
}

/// The spill weight of `x` (infinite when it has no interval).
fn weight_of(an: &Analyses, x: VReg) -> f32 {
    an.intervals.vreg(x).map_or(f32::INFINITY, |i| i.weight)
}

fn queue_new(queue: &mut BinaryHeap<Entry>, an: &Analyses, new: Vec<VReg>) {
    for n in new {
        let weight = an.intervals.vreg(n).map_or(f32::INFINITY, |i| i.weight);
        queue.push(Entry { weight, vreg: n });
    }
}

#[cfg(test)]
mod tests;
