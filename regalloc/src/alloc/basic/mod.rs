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

use crate::alloc::context::AllocContext;
use crate::analysis::Analyses;
use crate::ir::{MachineFunction, VReg};
use crate::target::TargetInfo;
use crate::timing::Pass;

use super::matrix::{Interference, LiveRegMatrix};
use super::order::{AllocationOrder, ClassOrders};
use super::spiller::Spiller;
use super::virtmap::VirtRegMap;
use super::{AllocError, Decisions, place_error, tracks_sub_reg_liveness};
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
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    mut an: Analyses,
    opts: BasicOptions,
    ctx: &mut AllocContext,
) -> Result<Decisions, AllocError> {
    let original_insts = func.insts.len();
    let allocating = ctx.timer.scope(Pass::Allocate);
    let mut vrm = VirtRegMap::new(func.vregs.len());
    let lanes = tracks_sub_reg_liveness(t);
    let mut matrix = LiveRegMatrix::new(t, &an.intervals, lanes);
    let mut orders = ClassOrders::new(t, func);
    let mut spiller = Spiller::new(func);
    let mut queue = BinaryHeap::new();
    for (v, iv) in an.intervals.vregs.iter().enumerate() {
        if let Some(iv) = iv {
            queue.push(Entry {
                weight: iv.weight,
                vreg: VReg::new(v),
            });
        }
    }
    let mut evictions: Vec<u32> = vec![0; func.vregs.len()];
    // Registers already spilled (stale queue entries of them are skipped).
    let mut spilled: Vec<bool> = vec![false; func.vregs.len()];
    while let Some(Entry { vreg: v, .. }) = queue.pop() {
        if vrm.phys(v).is_some() || spilled.get(v.index()).copied().unwrap_or(false) {
            continue;
        }
        let Some(iv) = an.intervals.vreg(v) else {
            continue;
        };
        let weight = iv.weight;
        let iv = iv.clone();
        let range = iv.range.clone();
        let Some(class) = func.vreg_class(v).filter(|c| c.index() < t.classes.len()) else {
            return Err(place_error(
                AllocError::new(
                    AllocErrorKind::Unsupported,
                    &func.name,
                    format!("{} has no register class", func.vreg_text(v)),
                ),
                &an,
                &range,
            ));
        };
        let order = AllocationOrder::new(t, &mut orders, class, v, &an, |x| vrm.phys(x));
        if order.regs.is_empty() {
            return Err(place_error(
                AllocError::new(
                    AllocErrorKind::OutOfRegisters,
                    &func.name,
                    format!(
                        "class {} of {} has no allocatable register",
                        t.class(class).name,
                        func.vreg_text(v)
                    ),
                ),
                &an,
                &range,
            ));
        }
        // 1. A free register.
        let mut candidates = Vec::new();
        let mut free = None;
        for &p in &order.regs {
            match matrix.check(t, &iv, p) {
                Interference::Free => {
                    free = Some(p);
                    break;
                }
                Interference::Virt => candidates.push(p),
                Interference::RegUnit | Interference::RegMask => {}
            }
        }
        if let Some(p) = free {
            matrix.assign(t, &iv, p);
            vrm.assign(v, p);
            continue;
        }
        // 2. Evict lighter interference: the cheapest register to free.
        let mut best: Option<(f32, crate::target::Reg, Vec<VReg>)> = None;
        for &p in &candidates {
            let intf = matrix.interfering_vregs(t, &iv, p);
            let mut total = 0f32;
            let mut ok = true;
            for &x in &intf {
                let w = weight_of(&an, x);
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
        if let Some((_, p, intf)) = best {
            for x in intf {
                let Some(xi) = an.intervals.vreg(x).cloned() else {
                    continue;
                };
                matrix.unassign(t, &xi);
                vrm.unassign(x);
                if evictions.len() <= x.index() {
                    evictions.resize(x.index() + 1, 0);
                }
                evictions[x.index()] += 1;
                if opts.evict == EvictPolicy::Spill || evictions[x.index()] > MAX_EVICTIONS {
                    if let Some(s) = spilled.get_mut(x.index()) {
                        *s = true;
                    }
                    let new = spiller.spill(t, func, &mut an.intervals, &mut vrm, x)?;
                    queue_new(&mut queue, &an, new);
                } else {
                    queue.push(Entry {
                        weight: weight_of(&an, x),
                        vreg: x,
                    });
                }
            }
            matrix.assign(t, &iv, p);
            vrm.assign(v, p);
            continue;
        }
        // 3. Spill.
        if !weight.is_finite() {
            let class_name = &t.class(class).name;
            return Err(place_error(
                AllocError::new(
                    AllocErrorKind::OutOfRegisters,
                    &func.name,
                    format!(
                        "no register of class {class_name} is free for unspillable {} ({} candidates, all taken by fixed registers, call clobbers or other unspillable registers)",
                        func.vreg_text(vrm.original(v)),
                        order.regs.len()
                    ),
                ),
                &an,
                &range,
            ));
        }
        if let Some(s) = spilled.get_mut(v.index()) {
            *s = true;
        }
        let new = spiller.spill(t, func, &mut an.intervals, &mut vrm, v)?;
        queue_new(&mut queue, &an, new);
    }
    drop(allocating);
    Ok(Decisions {
        original_insts,
        reserved: orders.reserved().to_vec(),
        analyses: an,
        assignment: vrm,
        spill_code: spiller.code,
        split_copies: Vec::new(),
        lanes,
    })
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
