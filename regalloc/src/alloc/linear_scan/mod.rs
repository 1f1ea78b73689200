//! Poletto and Sarkar's linear scan over live intervals: intervals by start, an active list ordered by end, expired intervals free their registers, and when none is free the interval whose end is furthest is spilled.
//!
//! One scan ([`scan`]) treats each interval as the lump from its first
//! start to its last end, as Poletto and Sarkar's intervals are (holes are
//! not used):
//!
//! 1. **expire**: the active intervals ending at or before the current
//!    interval's start leave the active list and free their registers'
//!    units;
//! 2. **free register**: the first register of the interval's
//!    [`AllocationOrder`] (its copy hints, then the class's base order:
//!    reserved registers never, callee-saved ones last) none of whose
//!    register units an active interval holds, and that no fixed
//!    physical live range or call clobber takes inside the interval. That
//!    last test is made on the interval's actual segments (the live
//!    register matrix's fixed check, which follows register units, so
//!    aliases, sub-registers and tuples count), not on its lump: a fixed
//!    range in a hole does not take the register;
//! 3. **spill the furthest end**: when no register is free, the registers
//!    only active intervals hold (all of them spillable) are the
//!    candidates; the one whose blocking intervals end furthest (the
//!    nearest end among them, when aliasing makes several block one
//!    register) is weighed against the current interval: if the current
//!    interval ends at or after it, the current interval is spilled,
//!    otherwise the blocking intervals are spilled and the current
//!    interval takes their register. With one unit per register and one
//!    class this is exactly the classic rule (spill the last interval of
//!    the active list, or the current one).
//!
//! Intervals the spiller makes (a reload before a use, a store after a
//! definition) cannot be spilled again (their weight is infinite) and
//! need registers too. The scan does not take them in as it goes: the
//! pieces of an active interval spilled at the current point lie partly
//! before it, where registers were handed out on the promise that the
//! spilled interval held its register. Instead the allocation runs in
//! rounds, as [`super::pbqp`] does: a round scans every interval still to
//! allocate from nothing; the intervals it spilled go through the shared
//! spiller ([`Spiller`]) after the scan, their pieces replace them, and
//! the next round scans again, until a round spills nothing. Every round
//! spills at least one spillable interval and spill pieces never are, so
//! the rounds end. A piece finding no register spills the active
//! intervals in the way (it is never the one spilled); only when all of
//! them are pieces too does the allocation fail.
//!
//! The decisions go to the pipeline as Basic's do, through none of the
//! clean-up stages (hoisting, redundant spill removal, reload reuse): a
//! baseline measures the algorithm.

use crate::alloc::context::{AllocContext, TargetContext};
use crate::analysis::slots::SlotIndex;
use crate::analysis::{Analyses, LiveInterval, LiveRange};
use crate::error::AllocErrorKind;
use crate::events::{Event, EventLog};
use crate::ir::{MachineFunction, VReg};
use crate::target::{Reg, RegClass, TargetInfo};
use crate::timing::Pass;

use super::base::{RegAllocBase, vregs_to_allocate};
use super::matrix::{CallMasks, Interference, LiveRegMatrix};
use super::order::{AllocationOrder, ClassOrders};
use super::virtmap::VirtRegMap;
use super::{AllocError, Decisions, class_of, no_allocatable_register, place_error};

/// Allocates `func`, whose analyses `an` the pipeline made, by linear
/// scan: the decisions, for the pipeline to apply.
pub(crate) fn allocate(
    target: &TargetContext<'_, '_>,
    func: &mut MachineFunction,
    mut an: Analyses,
    ctx: &mut AllocContext,
) -> Result<Decisions, AllocError> {
    let t = target.target();
    let allocating = ctx.timer.scope(Pass::Allocate);
    let mut base = RegAllocBase::new(t, target.orders(), func, &an);
    // Only fixed ranges and call masks are asked of the matrix: the
    // active list and the unit owners stand for the virtual registers.
    let RegAllocBase {
        vrm,
        matrix: fixed,
        orders,
        spiller,
        ..
    } = &mut base;
    let mut to_alloc = vregs_to_allocate(&an);
    let mut rounds = 0usize;
    loop {
        rounds += 1;
        for &v in &to_alloc {
            vrm.unassign(v);
        }
        let mut spilled = scan(t, func, &an, fixed, orders, vrm, &to_alloc, &mut ctx.events)?;
        if spilled.is_empty() {
            break;
        }
        spilled.sort();
        to_alloc.retain(|v| spilled.binary_search(v).is_err());
        for v in spilled {
            let pieces = spiller.spill(t, func, &mut an.intervals, vrm, v)?;
            ctx.events.note(|| Event::Spill {
                vreg: v,
                products: pieces.clone(),
            });
            to_alloc.extend(pieces);
        }
    }
    tracing::debug!(rounds, "linear scan settled");
    drop(allocating);
    Ok(base.into_decisions(an))
}

/// An interval in the scan: its register and its lump `[start, end)`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Lump {
    start: SlotIndex,
    end: SlotIndex,
    vreg: VReg,
}

/// The lump of `range`: from its first start to its last end (`None`
/// when it is empty).
fn lump_of(vreg: VReg, range: &LiveRange) -> Option<Lump> {
    Some(Lump {
        start: range.segments.first()?.start,
        end: range.segments.last()?.end,
        vreg,
    })
}

/// The active list: the intervals holding a register at the scan's
/// point, ordered by end, and which of them holds each register unit.
struct Active {
    /// Ordered by (end, register): the first ones expire first.
    list: Vec<(Lump, Reg)>,
    /// Per register unit: the active interval holding it. Active
    /// intervals all contain the scan's point, so they overlap one
    /// another and no two hold one unit.
    owner: Vec<Option<VReg>>,
}

impl Active {
    fn new(units: usize) -> Active {
        Active {
            list: Vec::new(),
            owner: vec![None; units],
        }
    }

    /// Removes the intervals ending at or before `at`, freeing their units.
    fn expire(&mut self, t: &TargetInfo<'_>, at: SlotIndex) {
        let gone = self.list.partition_point(|(l, _)| l.end <= at);
        for (_, p) in self.list.drain(..gone) {
            for u in t.units(p) {
                self.owner[u.index()] = None;
            }
        }
    }

    /// Whether no active interval holds a unit of `p`.
    fn is_free(&self, t: &TargetInfo<'_>, p: Reg) -> bool {
        t.units(p).iter().all(|u| self.owner[u.index()].is_none())
    }

    /// The active intervals holding units of `p`, each once.
    fn blockers(&self, t: &TargetInfo<'_>, p: Reg) -> Vec<VReg> {
        let mut out: Vec<VReg> = Vec::new();
        for u in t.units(p) {
            if let Some(v) = self.owner[u.index()]
                && !out.contains(&v)
            {
                out.push(v);
            }
        }
        out
    }

    /// Makes `lump` active in `p`.
    fn add(&mut self, t: &TargetInfo<'_>, lump: Lump, p: Reg) {
        for u in t.units(p) {
            self.owner[u.index()] = Some(lump.vreg);
        }
        let at = self
            .list
            .partition_point(|(l, _)| (l.end, l.vreg) < (lump.end, lump.vreg));
        self.list.insert(at, (lump, p));
    }

    /// Takes `v` out of the active list (it is being spilled); its lump.
    fn remove(&mut self, t: &TargetInfo<'_>, v: VReg) -> Option<Lump> {
        let k = self.list.iter().position(|(l, _)| l.vreg == v)?;
        let (lump, p) = self.list.remove(k);
        for u in t.units(p) {
            self.owner[u.index()] = None;
        }
        Some(lump)
    }

    /// The end of active interval `v`.
    fn end_of(&self, v: VReg) -> Option<SlotIndex> {
        self.list
            .iter()
            .find(|(l, _)| l.vreg == v)
            .map(|(l, _)| l.end)
    }
}

/// One scan over the intervals of `to_alloc` (none of them assigned):
/// assigns registers in `vrm` and returns the registers to spill; says
/// each assignment and each interval put out of its register in `events`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    fixed: &LiveRegMatrix,
    orders: &mut ClassOrders,
    vrm: &mut VirtRegMap,
    to_alloc: &[VReg],
    events: &mut EventLog,
) -> Result<Vec<VReg>, AllocError> {
    let mut unhandled: Vec<Lump> = Vec::with_capacity(to_alloc.len());
    for &v in to_alloc {
        let Some(iv) = an.intervals.vreg(v) else {
            continue;
        };
        match lump_of(v, &iv.range) {
            Some(l) => unhandled.push(l),
            // An empty interval occupies nothing: its class's first
            // register, as LLVM's allocators give it.
            None => {
                let class = class_of(t, func, an, v, &iv.range)?;
                let base = orders.base(t, class);
                let &first = base
                    .first()
                    .ok_or_else(|| no_allocatable_register(t, func, an, v, class, &iv.range))?;
                vrm.assign(v, first);
                events.note(|| Event::Assign {
                    vreg: v,
                    reg: first,
                });
            }
        }
    }
    unhandled.sort_unstable_by_key(|l| (l.start, l.vreg));
    let mut active = Active::new(t.units.len());
    let mut spilled = Vec::new();
    for current in unhandled {
        active.expire(t, current.start);
        let iv = an
            .intervals
            .vreg(current.vreg)
            .expect("every lump comes from an interval");
        let (class, order) = class_and_order(t, func, an, orders, vrm, iv)?;
        let masks = fixed.masks_in(&iv.range);
        let allowed = |p: Reg| fixed.check_fixed_with_masks(t, iv, p, &masks) == Interference::Free;
        if let Some(p) = order
            .regs
            .iter()
            .copied()
            .find(|&p| active.is_free(t, p) && allowed(p))
        {
            active.add(t, current, p);
            vrm.assign(current.vreg, p);
            events.note(|| Event::Assign {
                vreg: current.vreg,
                reg: p,
            });
            continue;
        }
        match furthest_blocked(t, an, &active, &order, &masks, fixed, iv) {
            Some((p, blockers, end)) if !iv.weight.is_finite() || end > current.end => {
                events.note(|| Event::Evict {
                    vreg: current.vreg,
                    reg: p,
                    evicted: blockers.clone(),
                });
                for b in blockers {
                    active.remove(t, b);
                    vrm.unassign(b);
                    spilled.push(b);
                }
                active.add(t, current, p);
                vrm.assign(current.vreg, p);
                events.note(|| Event::Assign {
                    vreg: current.vreg,
                    reg: p,
                });
            }
            _ if iv.weight.is_finite() => spilled.push(current.vreg),
            _ => return Err(unspillable(t, func, an, vrm, iv, class, order.regs.len())),
        }
    }
    Ok(spilled)
}

/// `iv`'s class and allocation order (copy hints, then the class's base
/// order); an error when it has no class or the class no allocatable
/// register.
fn class_and_order(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    orders: &mut ClassOrders,
    vrm: &VirtRegMap,
    iv: &LiveInterval,
) -> Result<(RegClass, AllocationOrder), AllocError> {
    let v = iv.vreg;
    let class = class_of(t, func, an, v, &iv.range)?;
    let order = AllocationOrder::new(t, orders, class, v, an, |x| vrm.phys(x));
    if order.regs.is_empty() {
        return Err(no_allocatable_register(t, func, an, v, class, &iv.range));
    }
    Ok((class, order))
}

/// Among the registers of `order` that no fixed range or call clobber
/// takes inside `iv` and that only spillable active intervals hold, the
/// one whose blockers end furthest: the register, its blockers, and the
/// nearest end among them. Ties go to fewer blockers, then to the order.
fn furthest_blocked(
    t: &TargetInfo<'_>,
    an: &Analyses,
    active: &Active,
    order: &AllocationOrder,
    masks: &CallMasks,
    fixed: &LiveRegMatrix,
    iv: &LiveInterval,
) -> Option<(Reg, Vec<VReg>, SlotIndex)> {
    let mut best: Option<(Reg, Vec<VReg>, SlotIndex)> = None;
    for &p in &order.regs {
        let blockers = active.blockers(t, p);
        let spillable = blockers
            .iter()
            .all(|&b| an.intervals.vreg(b).is_some_and(|bi| bi.weight.is_finite()));
        if blockers.is_empty() || !spillable {
            continue;
        }
        let Some(end) = blockers.iter().filter_map(|&b| active.end_of(b)).min() else {
            continue;
        };
        let better = best
            .as_ref()
            .is_none_or(|(_, bb, be)| end > *be || (end == *be && blockers.len() < bb.len()));
        if better && fixed.check_fixed_with_masks(t, iv, p, masks) == Interference::Free {
            best = Some((p, blockers, end));
        }
    }
    best
}

/// The error for an unspillable interval (a spill piece) that finds every
/// register of its class taken by fixed registers, call clobbers or other
/// unspillable intervals.
fn unspillable(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    vrm: &VirtRegMap,
    iv: &LiveInterval,
    class: RegClass,
    candidates: usize,
) -> AllocError {
    place_error(
        AllocError::new(
            AllocErrorKind::OutOfRegisters,
            &func.name,
            format!(
                "no register of class {} is free for unspillable {} ({candidates} candidates, all taken by fixed registers, call clobbers or other unspillable registers)",
                t.class(class).name,
                func.vreg_text(vrm.original(iv.vreg)),
            ),
        ),
        an,
        &iv.range,
    )
}

#[cfg(test)]
mod tests;
