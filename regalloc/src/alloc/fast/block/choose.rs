//! Choosing a register for a virtual register: LLVM's spill cost of taking each candidate, COPY hints (direct and traced back through copies), the allocation order scan, and the "may live out" test.

use crate::ir::{MachineFunction, RegRef};
use crate::target::Reg;
use crate::{AllocError, AllocErrorKind};

use super::super::prepare::Def;
use super::{CLEAN_COST, DIRTY_COST, FIXED, FREE, Fast, HINT_BONUS, IMPOSSIBLE, LIVE_OUT, NO_SLOT};

impl Fast<'_, '_> {
    /// LLVM's spill cost of taking `r` now: the first unit that is not free
    /// decides.
    pub(super) fn take_cost(&self, r: Reg) -> u32 {
        for &u in self.units(r) {
            match self.unit_state[u as usize] {
                FREE => {}
                FIXED => return IMPOSSIBLE,
                v => {
                    let vi = v as usize;
                    let clean = self.v[vi].slot != NO_SLOT || self.v[vi].flags & LIVE_OUT != 0;
                    return if clean { CLEAN_COST } else { DIRTY_COST };
                }
            }
        }
        0
    }

    /// The only definition of `v` not yet rewritten, if there is exactly
    /// one: what it copies, when it is a full COPY.
    pub(super) fn unique_def_copy(&self, v: usize) -> Option<RegRef> {
        let mut found: Option<Def> = None;
        for &d in self.defs_of(v) {
            if !self.done[d.inst.index()] {
                if found.is_some_and(|f| f.inst != d.inst) {
                    return None;
                }
                found = Some(d);
            }
        }
        found.and_then(|d| d.copy_of)
    }

    /// A physical register `v` is copied from, following full COPYs back
    /// through at most a few virtual registers (LLVM's `traceCopies`).
    /// What each definition copies was noted by the gathering pass: an
    /// instruction not rewritten yet still says what it said then.
    pub(super) fn trace_copies(&self, v: u32) -> Option<Reg> {
        let mut seen = 0;
        for &d in self.defs_of(v as usize) {
            if self.done[d.inst.index()] {
                continue;
            }
            if let Some(mut src) = d.copy_of {
                for _ in 0..4 {
                    match src {
                        RegRef::Phys(p) => return Some(p),
                        RegRef::Virt(w) => match self.unique_def_copy(w.index()) {
                            Some(s) => src = s,
                            None => break,
                        },
                        RegRef::NoReg => break,
                    }
                }
            }
            seen += 1;
            if seen >= 3 {
                break;
            }
        }
        None
    }

    pub(super) fn hint_ok(&self, v: u32, h: Reg, fixed_uses: bool) -> bool {
        let c = self.class_of(v);
        h.index() < self.reserved.len()
            && !self.reserved[h.index()]
            && self.t.class_contains(c, h)
            && !self.is_used(h, fixed_uses)
    }

    /// Gives `v` a register: a free hinted one, else the cheapest in the
    /// allocation order (free first), taking it from its holder.
    pub(super) fn alloc_vreg(
        &mut self,
        func: &mut MachineFunction,
        v: u32,
        hint: Option<Reg>,
        fixed_uses: bool,
    ) -> Result<(), AllocError> {
        let hint0 = hint.filter(|&h| self.hint_ok(v, h, fixed_uses));
        if let Some(h) = hint0
            && self.is_free(h)
        {
            self.assign(v, h);
            return Ok(());
        }
        let hint1 = self
            .trace_copies(v)
            .filter(|&h| self.hint_ok(v, h, fixed_uses));
        if let Some(h) = hint1
            && self.is_free(h)
        {
            self.assign(v, h);
            return Ok(());
        }
        let c = self.class_of(v).index();
        let mut best: Option<Reg> = None;
        let mut best_cost = IMPOSSIBLE;
        let order = self.order(c);
        for &r in order {
            if self.is_used(r, fixed_uses) {
                continue;
            }
            let mut cost = self.take_cost(r);
            if cost == 0 {
                self.assign(v, r);
                return Ok(());
            }
            if cost != IMPOSSIBLE && (Some(r) == hint0 || Some(r) == hint1) {
                cost -= HINT_BONUS;
            }
            if cost < best_cost {
                best = Some(r);
                best_cost = cost;
            }
        }
        let Some(r) = best else {
            let n = order.len();
            return Err(self.err(
                if n == 0 {
                    AllocErrorKind::OutOfRegisters
                } else {
                    AllocErrorKind::OverConstrained
                },
                format!(
                    "no register of class {} left for {}: all {n} allocatable registers are used by this instruction or fixed by the code here",
                    self.class_name(func, v),
                    func.vreg_text(crate::ir::VReg(v))
                ),
            ));
        };
        self.displace(func, r)?;
        self.assign(v, r);
        Ok(())
    }

    /// Whether `v` may be needed after the block (LLVM's `mayLiveOut`).
    pub(super) fn may_live_out(&mut self, v: u32) -> bool {
        let vi = v as usize;
        if !self.v[vi].across && self.v[vi].uses >= 8 {
            self.v[vi].across = true;
        }
        self.v[vi].across && self.has_succs
    }
}
