//! The fast allocator's state and the steps for one instruction: fixed registers, definitions, register masks, uses (the walk over a block that drives them is in [`walk`]).
//!
//! State is kept in flat arrays: what each register unit holds, a
//! per-instruction "used here" generation stamp per unit, and per virtual
//! register one record (`prepare::VState`: its current register, flags,
//! spill slot, remaining uses and definitions, class). Nothing is
//! allocated per instruction beyond the instructions inserted.

use crate::alloc::{AllocError, AllocErrorKind, AllocRecord, Edit};
use crate::ir::{
    Block, Inst, InstData, MachineFunction, Operand, RegFlags, RegMask, RegOperand, RegRef, VReg,
};
use crate::target::{CalleeSavedSet, Reg, RegClass, SubRegIndex, TargetInfo};

use super::emit::Kind;

mod spill;
mod walk;
use super::cache::{Scratch, Tables};
use super::prepare::{Facts, VState, is_debug};

/// Unit state: nothing lives here.
const FREE: u32 = u32::MAX;
/// Unit state: a physical register named by the code lives here (LLVM's
/// `regPreAssigned`). Any other value is the virtual register living here.
const FIXED: u32 = u32::MAX - 1;
/// A virtual register with no register right now.
pub(super) const NO_REG: u32 = u32::MAX;
/// A virtual register with no spill slot yet.
pub(super) const NO_SLOT: u32 = u32::MAX;

/// The value must be in its slot at the end of the block.
pub(super) const LIVE_OUT: u8 = 1;
/// The register was taken from the value below and the value reloaded
/// there, so its definition must store it.
pub(super) const RELOADED: u8 = 2;

/// Cost of taking a register from a value already in (or bound for) its slot.
const CLEAN_COST: u32 = 50;
/// Cost of taking a register from a value that must then be stored.
const DIRTY_COST: u32 = 100;
/// Bonus for a hinted register that is not free.
const HINT_BONUS: u32 = 20;
/// A register that cannot be taken (fixed by the code).
const IMPOSSIBLE: u32 = u32::MAX;

/// The small lists [`Fast`] fills per instruction and per block, and the
/// function's name (for errors), kept in `cache::Scratch` between functions.
#[derive(Default)]
pub(super) struct Lists {
    name: String,
    live_list: Vec<u32>,
    masks: Vec<Mask>,
    vdefs: Vec<VDef>,
    pdefs: Vec<(Reg, bool)>,
    late_free: Vec<usize>,
    implicit_defs: Vec<Reg>,
    fixed_uses: Vec<(Reg, bool)>,
    uses: Vec<(usize, RegInfo)>,
    def_order: Vec<(usize, u32, bool, RegFlags)>,
    after: Vec<Inst>,
    before: Vec<Inst>,
    begin: Vec<Inst>,
}

/// A register mask on the current instruction.
enum Mask {
    Named(CalleeSavedSet),
    Custom(Vec<Reg>),
}

/// What one register operand says, copied out so that the function can be
/// changed while looking at it.
#[derive(Copy, Clone)]
struct RegInfo {
    reg: RegRef,
    sub: Option<SubRegIndex>,
    flags: RegFlags,
    tied_to: Option<u16>,
}

impl RegInfo {
    fn is_def(self) -> bool {
        self.flags.has(RegFlags::DEF)
    }
    fn undef(self) -> bool {
        self.flags.has(RegFlags::UNDEF)
    }
}

/// A virtual register definition of the current instruction, after assignment.
#[derive(Copy, Clone)]
struct VDef {
    /// Operand index.
    k: usize,
    /// The virtual register.
    v: u32,
    /// The full register assigned.
    reg: Reg,
    /// The register stays taken above the instruction (tied to a use,
    /// early-clobber, or a sub-register definition keeping other lanes).
    keep: bool,
    /// Early-clobber.
    early: bool,
}

/// The allocator's state over one function.
pub(super) struct Fast<'t, 'a> {
    t: &'t TargetInfo<'a>,
    f: Facts,
    /// Per physical register: reserved (or constant) in this function.
    reserved: &'t [bool],
    /// Per register, its units in `unit_list` (see `cache::Tables`).
    unit_span: &'t [(u32, u32)],
    unit_list: &'t [u32],
    /// Per class: the allocation order for this function (reserved
    /// registers removed, callee-saved registers last unless the class says
    /// otherwise); `None` for classes no virtual register uses.
    orders: &'t [Option<Box<[Reg]>>],
    name: String,
    /// Per unit: `FREE`, `FIXED` or a virtual register number.
    unit_state: Vec<u32>,
    /// Per unit: generation stamp of the instruction that uses it (`stamp`
    /// for a fixed-register use, `stamp | 1` for any other).
    used: Vec<u32>,
    stamp: u32,
    /// Per virtual register: its register, slot, flags, counts and class
    /// (it is in `live_list` when its `live_epoch` equals `epoch`).
    v: Vec<VState>,
    epoch: u32,
    /// Virtual registers met in this block, in order.
    live_list: Vec<u32>,
    /// The instruction array has been moved by a growth step (see
    /// `grow_insts`).
    insts_moved: bool,
    /// An empty instruction array with room, left by an earlier function's
    /// growth step for a later one's (see `grow_insts`).
    spare_insts: Vec<InstData>,
    /// Per original instruction: already rewritten.
    done: Vec<bool>,
    /// Per original instruction: an identity copy to take out.
    removing: Vec<bool>,
    has_succs: bool,
    masks: Vec<Mask>,
    vdefs: Vec<VDef>,
    pdefs: Vec<(Reg, bool)>,
    late_free: Vec<usize>,
    implicit_defs: Vec<Reg>,
    /// Physical registers the current instruction reads (not `undef`), in
    /// operand order, and whether each is reserved.
    fixed_uses: Vec<(Reg, bool)>,
    /// Virtual register uses of the current instruction (not `undef`),
    /// in operand order: (operand, what it says).
    uses: Vec<(usize, RegInfo)>,
    /// Virtual register definitions of the current instruction in the
    /// order they get registers: (operand, register, live through, the
    /// operand's flags).
    def_order: Vec<(usize, u32, bool, RegFlags)>,
    /// Instructions to insert after the current one, in insertion order
    /// (each goes right after the instruction, so the last comes first).
    after: Vec<Inst>,
    /// Instructions to insert before the current one, in order.
    before: Vec<Inst>,
    /// The current block's new instruction list, bottom up; kept from
    /// block to block so that it grows only to the largest block.
    rev: Vec<Inst>,
    /// Reloads for the top of the current block.
    begin: Vec<Inst>,
    block: Block,
    inst: Inst,
    /// Edits of the inserted instructions, in the order of their ids.
    edits: Vec<(Inst, Edit)>,
    record: AllocRecord,
}

impl<'t, 'a> Fast<'t, 'a> {
    /// Fresh state for `func`, in buffers from `scratch`.
    pub fn new(
        t: &'t TargetInfo<'a>,
        func: &MachineFunction,
        mut f: Facts,
        tables: &'t Tables,
        scratch: &mut Scratch,
    ) -> Self {
        let v = std::mem::take(&mut f.v);
        let reserved = &tables.fp[usize::from(f.fp)].reserved;
        let orders = tables.orders(f.variant);
        let ni = func.insts.len();
        let nu = t.units.len();
        // `unit_state` is reset at every block's start; `used` keeps its
        // stamps, all older than `stamp`, so it needs no reset either.
        let mut unit_state = std::mem::take(&mut scratch.unit_state);
        unit_state.resize(nu, FREE);
        let mut used = std::mem::take(&mut scratch.used);
        used.resize(nu, 0);
        let mut done = std::mem::take(&mut scratch.done);
        done.clear();
        done.resize(ni, false);
        let mut removing = std::mem::take(&mut scratch.removing);
        removing.clear();
        removing.resize(ni, false);
        // The new list of the largest block, with room for some inserted
        // code, grows once rather than step by step.
        let longest = func.blocks.iter().map(|b| b.insts.len()).max().unwrap_or(0);
        let mut rev = std::mem::take(&mut scratch.rev);
        rev.clear();
        rev.reserve(longest + longest / 4 + 8);
        let mut edits = std::mem::take(&mut scratch.edits);
        edits.clear();
        // The small lists come from the previous function too: allocating
        // a dozen of them is a fixed cost that a function of twenty
        // instructions feels. Each is cleared before it is filled.
        let Lists {
            mut name,
            live_list,
            masks,
            vdefs,
            pdefs,
            late_free,
            implicit_defs,
            fixed_uses,
            uses,
            def_order,
            after,
            before,
            begin,
        } = std::mem::take(&mut scratch.lists);
        name.clear();
        name.push_str(&func.name);
        Fast {
            t,
            f,
            reserved,
            unit_span: &tables.unit_span,
            unit_list: &tables.unit_list,
            orders,
            name,
            unit_state,
            used,
            stamp: scratch.stamp,
            v,
            epoch: 0,
            live_list,
            insts_moved: false,
            spare_insts: std::mem::take(&mut scratch.spare_insts),
            done,
            removing,
            has_succs: false,
            masks,
            vdefs,
            pdefs,
            late_free,
            implicit_defs,
            uses,
            fixed_uses,
            def_order,
            after,
            before,
            rev,
            begin,
            block: Block(0),
            inst: Inst(0),
            edits,
            record: AllocRecord::new(ni),
        }
    }

    /// The record of what was inserted and removed; the buffers go back to
    /// `scratch`.
    pub fn finish(mut self, scratch: &mut Scratch) -> AllocRecord {
        // Ids only grow, so the map is built from a sorted list in one go
        // rather than by an insertion per edit.
        self.record.edits = self.edits.drain(..).collect();
        scratch.edits = self.edits;
        scratch.unit_state = self.unit_state;
        scratch.used = self.used;
        scratch.stamp = self.stamp;
        scratch.done = self.done;
        scratch.removing = self.removing;
        scratch.rev = self.rev;
        scratch.spare_insts = self.spare_insts;
        scratch.lists = Lists {
            name: self.name,
            live_list: self.live_list,
            masks: self.masks,
            vdefs: self.vdefs,
            pdefs: self.pdefs,
            late_free: self.late_free,
            implicit_defs: self.implicit_defs,
            fixed_uses: self.fixed_uses,
            uses: self.uses,
            def_order: self.def_order,
            after: self.after,
            before: self.before,
            begin: self.begin,
        };
        self.f.v = self.v;
        self.f.give_back(scratch);
        self.record
    }

    fn err(&self, kind: AllocErrorKind, msg: String) -> AllocError {
        AllocError::new(kind, &self.name, msg).at(self.block, self.inst)
    }

    /// The allocation order of class `c` (one a virtual register uses).
    #[inline]
    fn order(&self, c: usize) -> &'t [Reg] {
        self.orders.get(c).and_then(|o| o.as_deref()).unwrap_or(&[])
    }

    /// The class of `v`, which the gathering pass checked.
    #[inline]
    fn class_of(&self, v: u32) -> RegClass {
        RegClass(self.v[v as usize].class)
    }

    fn reg_name(&self, r: Reg) -> String {
        format!("${}", self.t.reg(r).name.to_ascii_lowercase())
    }

    fn class_name(&self, func: &MachineFunction, v: u32) -> String {
        func.vregs[v as usize]
            .class
            .map_or("_".into(), |c| self.t.class(c).name.to_ascii_lowercase())
    }

    // ---- unit state -------------------------------------------------------

    /// The units of `r`, from the compact copy of the target's lists (a
    /// register of one unit, most of them, names it in its own entry).
    #[inline(always)]
    fn units(&self, r: Reg) -> &'t [u32] {
        let e: &'t (u32, u32) = &self.unit_span[r.index()];
        if e.1 == 1 {
            std::slice::from_ref(&e.0)
        } else {
            &self.unit_list[e.0 as usize..(e.0 + e.1) as usize]
        }
    }

    #[inline]
    fn set_state(&mut self, r: Reg, s: u32) {
        for &u in self.units(r) {
            self.unit_state[u as usize] = s;
        }
    }

    #[inline]
    fn is_free(&self, r: Reg) -> bool {
        self.units(r)
            .iter()
            .all(|&u| self.unit_state[u as usize] == FREE)
    }

    #[inline]
    fn mark_used(&mut self, r: Reg) {
        let g = self.stamp | 1;
        for &u in self.units(r) {
            self.used[u as usize] = g;
        }
    }

    #[inline]
    fn mark_fixed_use(&mut self, r: Reg) {
        let g = self.stamp;
        for &u in self.units(r) {
            let s = &mut self.used[u as usize];
            *s = (*s).max(g);
        }
    }

    #[inline]
    fn unmark(&mut self, r: Reg) {
        for &u in self.units(r) {
            self.used[u as usize] = 0;
        }
    }

    fn clobbered(&self, r: Reg) -> bool {
        self.masks.iter().any(|m| match m {
            Mask::Named(s) => !self.t.mask_preserves(*s, r),
            Mask::Custom(list) => !list.contains(&r),
        })
    }

    /// Whether `r` is taken by the current instruction: by any operand
    /// assigned so far, and with `fixed_uses` also by fixed-register uses
    /// and register masks (what a register that must stay live through the
    /// instruction may not share).
    #[inline(always)]
    fn is_used(&self, r: Reg, fixed_uses: bool) -> bool {
        if fixed_uses && !self.masks.is_empty() && self.clobbered(r) {
            return true;
        }
        let threshold = if fixed_uses {
            self.stamp
        } else {
            self.stamp | 1
        };
        self.units(r)
            .iter()
            .any(|&u| self.used[u as usize] >= threshold)
    }

    #[inline]
    fn is_live(&self, v: u32) -> bool {
        self.v[v as usize].live_epoch == self.epoch
    }

    #[inline]
    fn make_live(&mut self, v: u32) {
        let vi = v as usize;
        self.v[vi].live_epoch = self.epoch;
        self.v[vi].phys = NO_REG;
        self.v[vi].flags = 0;
        self.live_list.push(v);
    }

    fn assign(&mut self, v: u32, r: Reg) {
        self.v[v as usize].phys = r.0;
        self.set_state(r, v);
    }

    /// Frees `r` (LLVM's `freePhysReg`): whatever lives in its first unit
    /// gives up its register.
    #[inline]
    fn free_reg(&mut self, r: Reg) {
        let Some(&u) = self.units(r).first() else {
            return;
        };
        match self.unit_state[u as usize] {
            FREE => {}
            FIXED => self.set_state(r, FREE),
            v => {
                let p = Reg(self.v[v as usize].phys);
                if p.0 != NO_REG {
                    self.set_state(p, FREE);
                }
                self.v[v as usize].phys = NO_REG;
            }
        }
    }

    /// Takes `r` from whatever holds it: a virtual register living there is
    /// reloaded right after the instruction (it is wanted below) and will be
    /// stored at its definition. Returns whether anything was there.
    fn displace(&mut self, func: &mut MachineFunction, r: Reg) -> Result<bool, AllocError> {
        let mut any = false;
        for &u in self.units(r) {
            match self.unit_state[u as usize] {
                FREE => {}
                FIXED => {
                    self.unit_state[u as usize] = FREE;
                    any = true;
                }
                v => {
                    let p = Reg(self.v[v as usize].phys);
                    let id = self.slot_access(func, v, p, Kind::Reload)?;
                    self.after.push(id);
                    self.set_state(p, FREE);
                    self.v[v as usize].phys = NO_REG;
                    self.v[v as usize].flags |= RELOADED;
                    any = true;
                }
            }
        }
        Ok(any)
    }

    // ---- choosing registers ---------------------------------------------------

    /// LLVM's spill cost of taking `r` now: the first unit that is not free
    /// decides.
    fn take_cost(&self, r: Reg) -> u32 {
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

    fn is_full_copy(func: &MachineFunction, i: Inst) -> Option<RegRef> {
        let d = func.inst(i);
        if !d.op.is_copy() {
            return None;
        }
        match (d.operands.first(), d.operands.get(1)) {
            (Some(Operand::Reg(a)), Some(Operand::Reg(b)))
                if a.sub.is_none() && b.sub.is_none() =>
            {
                Some(b.reg)
            }
            _ => None,
        }
    }

    /// The only definition of `v` not yet rewritten, if there is exactly one.
    fn unique_def(&self, v: usize) -> Option<Inst> {
        let mut found = None;
        for &d in self.f.defs_of(v) {
            if !self.done[d.index()] {
                if found.is_some_and(|f| f != d) {
                    return None;
                }
                found = Some(d);
            }
        }
        found
    }

    /// A physical register `v` is copied from, following full COPYs back
    /// through at most a few virtual registers (LLVM's `traceCopies`).
    fn trace_copies(&self, func: &MachineFunction, v: u32) -> Option<Reg> {
        let mut seen = 0;
        for &d in self.f.defs_of(v as usize) {
            if self.done[d.index()] {
                continue;
            }
            if let Some(mut src) = Self::is_full_copy(func, d) {
                for _ in 0..4 {
                    match src {
                        RegRef::Phys(p) => return Some(p),
                        RegRef::Virt(w) => {
                            match self
                                .unique_def(w.index())
                                .and_then(|d| Self::is_full_copy(func, d))
                            {
                                Some(s) => src = s,
                                None => break,
                            }
                        }
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

    fn hint_ok(&self, v: u32, h: Reg, fixed_uses: bool) -> bool {
        let c = self.class_of(v);
        h.index() < self.reserved.len()
            && !self.reserved[h.index()]
            && self.t.class_contains(c, h)
            && !self.is_used(h, fixed_uses)
    }

    /// Gives `v` a register: a free hinted one, else the cheapest in the
    /// allocation order (free first), taking it from its holder.
    fn alloc_vreg(
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
            .trace_copies(func, v)
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
                    "no register of class {} left for %{v}: all {n} allocatable registers are used by this instruction or fixed by the code here",
                    self.class_name(func, v)
                ),
            ));
        };
        self.displace(func, r)?;
        self.assign(v, r);
        Ok(())
    }

    /// Whether `v` may be needed after the block (LLVM's `mayLiveOut`).
    fn may_live_out(&mut self, v: u32) -> bool {
        let vi = v as usize;
        if !self.v[vi].across && self.v[vi].uses >= 8 {
            self.v[vi].across = true;
        }
        self.v[vi].across && self.has_succs
    }

    // ---- operands -------------------------------------------------------------

    fn reg_info(func: &MachineFunction, mi: Inst, k: usize) -> Option<RegInfo> {
        match func.inst(mi).operands.get(k) {
            Some(Operand::Reg(r)) => Some(RegInfo {
                reg: r.reg,
                sub: r.sub,
                flags: r.flags,
                tied_to: r.tied_to,
            }),
            _ => None,
        }
    }

    /// Rewrites operand `k` to physical register `r` (or its sub-register
    /// the operand names). Nearly every operand names no sub-register:
    /// that case is done here, inline, the rest by [`Self::rewrite_sub`].
    #[inline]
    fn rewrite(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        r: Reg,
    ) -> Result<(), AllocError> {
        if let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k)
            && op.sub.is_none()
        {
            op.reg = RegRef::Phys(r);
            op.flags.set(RegFlags::RENAMABLE, true);
            return Ok(());
        }
        self.rewrite_sub(func, mi, k, r)
    }

    /// [`Self::rewrite`] for an operand with a sub-register.
    #[cold]
    fn rewrite_sub(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        r: Reg,
    ) -> Result<(), AllocError> {
        let t = self.t;
        let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k) else {
            return Ok(());
        };
        let target = match op.sub {
            None => r,
            Some(s) => match t.sub_reg(r, s) {
                Some(sr) => sr,
                None => {
                    let msg = format!(
                        "operand {k}: {} has no sub-register {}",
                        self.reg_name(r),
                        t.sub_reg_index(s).name
                    );
                    return Err(self.err(AllocErrorKind::OverConstrained, msg));
                }
            },
        };
        if op.sub.is_some() && op.is_def() && op.flags.has(RegFlags::UNDEF) {
            // The other lanes become undefined: the whole register is written.
            self.implicit_defs.push(r);
            op.flags.set(RegFlags::UNDEF, false);
        }
        op.reg = RegRef::Phys(target);
        op.sub = None;
        op.flags.set(RegFlags::RENAMABLE, true);
        Ok(())
    }

    /// Definition `k` of `mi` (with `flags`, as the scan read them) of
    /// `v`. A definition that stays live through the instruction avoids
    /// fixed-register uses and keeps its register above it.
    fn define_vreg(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: u32,
        live_through: bool,
        flags: RegFlags,
    ) -> Result<(), AllocError> {
        let (fixed_uses, keep) = (live_through, live_through);
        let vi = v as usize;
        if !self.is_live(v) {
            self.make_live(v);
            if !flags.has(RegFlags::DEAD) && self.may_live_out(v) {
                self.v[vi].flags |= LIVE_OUT;
            }
        }
        if self.v[vi].phys == NO_REG {
            self.alloc_vreg(func, v, None, fixed_uses)?;
        }
        let r = Reg(self.v[vi].phys);
        if self.v[vi].flags & (LIVE_OUT | RELOADED) != 0 {
            let id = self.slot_access(func, v, r, Kind::Spill)?;
            self.after.push(id);
        }
        self.v[vi].flags &= !(LIVE_OUT | RELOADED);
        self.mark_used(r);
        self.rewrite(func, mi, k, r)?;
        self.v[vi].defs = self.v[vi].defs.saturating_sub(1);
        self.vdefs.push(VDef {
            k,
            v,
            reg: r,
            keep,
            early: flags.has(RegFlags::EARLY_CLOBBER),
        });
        Ok(())
    }

    /// A definition whose register must stay distinct from the uses it does
    /// not share (early-clobber, tied, partial): if the register it has from
    /// below is used here, it gets a new one, copied to the old one after
    /// the instruction.
    fn define_live_through(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: u32,
        flags: RegFlags,
    ) -> Result<(), AllocError> {
        let vi = v as usize;
        if self.is_live(v) && self.v[vi].phys != NO_REG {
            let prev = Reg(self.v[vi].phys);
            if self.is_used(prev, true) {
                self.free_reg(prev);
                self.alloc_vreg(func, v, None, true)?;
                let new = Reg(self.v[vi].phys);
                let id = self.insert_copy(func, prev, new);
                self.after.push(id);
            }
        }
        self.define_vreg(func, mi, k, v, true, flags)
    }

    /// Use `k` of `mi`, which says `info` (read by the caller, not
    /// rewritten yet), of `v`.
    fn use_vreg(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: u32,
        info: RegInfo,
    ) -> Result<Reg, AllocError> {
        let vi = v as usize;
        if !self.is_live(v) {
            self.make_live(v);
            if !info.flags.has(RegFlags::KILLED) && self.may_live_out(v) {
                self.v[vi].flags |= LIVE_OUT;
            }
        }
        if self.v[vi].phys == NO_REG {
            // A full copy to a register already assigned hints that register.
            let hint = match (func.inst(mi).op.is_copy(), Self::reg_info(func, mi, 1)) {
                (true, Some(src)) if src.sub.is_none() => match Self::reg_info(func, mi, 0) {
                    Some(RegInfo {
                        reg: RegRef::Phys(p),
                        ..
                    }) => Some(p),
                    _ => None,
                },
                _ => None,
            };
            self.alloc_vreg(func, v, hint, false)?;
        }
        let r = Reg(self.v[vi].phys);
        self.mark_used(r);
        self.rewrite(func, mi, k, r)?;
        self.v[vi].uses = self.v[vi].uses.saturating_sub(1);
        Ok(r)
    }

    fn rewrite_debug(&mut self, func: &mut MachineFunction, mi: Inst) {
        let t = self.t;
        for o in func.insts[mi.index()].operands.iter_mut() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Virt(v) = r.reg else { continue };
            let vi = v.index();
            let (p, live) = self
                .v
                .get(vi)
                .map_or((NO_REG, false), |x| (x.phys, x.live_epoch == self.epoch));
            r.reg = if live && p != NO_REG {
                let p = Reg(p);
                match r.sub {
                    None => RegRef::Phys(p),
                    Some(s) => t.sub_reg(p, s).map_or(RegRef::NoReg, RegRef::Phys),
                }
            } else {
                RegRef::NoReg
            };
            r.sub = None;
        }
    }

    // ---- one instruction -----------------------------------------------------

    /// Allocates the operands of `mi`; returns whether it became an
    /// identity copy to take out. (Inlined into the block walk, its only
    /// caller.)
    #[inline(always)]
    fn allocate_inst(&mut self, func: &mut MachineFunction, mi: Inst) -> Result<bool, AllocError> {
        self.stamp = self.stamp.wrapping_add(2);
        if self.stamp < 2 {
            // The stamp wrapped: forget every old stamp.
            self.used.fill(0);
            self.stamp = 2;
        }
        self.masks.clear();
        self.vdefs.clear();
        self.pdefs.clear();
        self.late_free.clear();
        self.implicit_defs.clear();
        if is_debug(func.inst(mi).op) {
            self.rewrite_debug(func, mi);
            return Ok(false);
        }
        let n = func.inst(mi).operands.len();

        // Scan the operands once, borrowing them (nothing is taken or
        // inserted meanwhile), and list what the passes below visit:
        // register masks, virtual definitions, virtual uses, physical
        // registers read and defined, each in operand order. The passes
        // then visit only their own operands instead of every operand
        // again.
        let (mut live_through, mut has_fixed_use, mut has_early, mut has_undef_use) =
            (false, false, false, false);
        let mut order = std::mem::take(&mut self.def_order);
        order.clear();
        self.uses.clear();
        self.fixed_uses.clear();
        let ops = &func.inst(mi).operands;
        for (k, o) in ops.iter().enumerate() {
            match o {
                Operand::RegMask(RegMask::Named(s)) => self.masks.push(Mask::Named(*s)),
                Operand::RegMask(RegMask::Custom(l)) => self.masks.push(Mask::Custom(l.clone())),
                Operand::Reg(r) => match r.reg {
                    RegRef::Virt(v) if r.is_def() => {
                        has_early |= r.flags.has(RegFlags::EARLY_CLOBBER);
                        let lt = r.flags.has(RegFlags::EARLY_CLOBBER)
                            || tied_to_read(ops, k)
                            || (r.sub.is_some() && !r.flags.has(RegFlags::UNDEF));
                        live_through |= lt;
                        order.push((k, v.0, lt, r.flags));
                    }
                    RegRef::Virt(_) if r.flags.has(RegFlags::UNDEF) => has_undef_use = true,
                    RegRef::Virt(_) => self.uses.push((
                        k,
                        RegInfo {
                            reg: r.reg,
                            sub: r.sub,
                            flags: r.flags,
                            tied_to: r.tied_to,
                        },
                    )),
                    RegRef::Phys(p) => {
                        let reserved = self.is_reserved(p);
                        if r.is_def() {
                            if !reserved {
                                let early = r.flags.has(RegFlags::EARLY_CLOBBER);
                                has_early |= early;
                                let keep = early || tied_to_read(ops, k);
                                self.pdefs.push((p, keep));
                            }
                        } else if !r.flags.has(RegFlags::UNDEF) {
                            self.fixed_uses.push((p, reserved));
                            has_fixed_use |= !reserved;
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        // Fixed-register definitions take their registers now, in operand
        // order (the scan above reads no register state).
        for i in 0..self.pdefs.len() {
            let (p, _) = self.pdefs[i];
            self.displace(func, p)?;
            self.set_state(p, FIXED);
            self.mark_used(p);
        }

        // Virtual register definitions.
        if !order.is_empty() {
            if live_through {
                // Registers that stay live through the instruction must
                // avoid the fixed registers it reads.
                for i in 0..self.fixed_uses.len() {
                    self.mark_fixed_use(self.fixed_uses[i].0);
                }
                order.sort_by_key(|&(k, _, lt, _)| (!lt, k));
            }
            for &(k, v, lt, flags) in &order {
                if lt {
                    self.define_live_through(func, mi, k, v, flags)?;
                } else {
                    self.define_vreg(func, mi, k, v, false, flags)?;
                }
            }
        }
        self.def_order = order;

        // Definitions end their values here (going up): free their registers.
        for i in (0..self.pdefs.len()).rev() {
            let (p, keep) = self.pdefs[i];
            if !keep {
                self.free_reg(p);
                self.unmark(p);
            }
        }
        for i in (0..self.vdefs.len()).rev() {
            let d = self.vdefs[i];
            if d.keep {
                continue;
            }
            if self.v[d.v as usize].phys == d.reg.0 {
                self.free_reg(d.reg);
            }
            self.unmark(d.reg);
        }

        // A call's register mask clobbers what lives in the registers it
        // does not preserve: those values are reloaded after the call.
        if !self.masks.is_empty() {
            for i in 0..self.live_list.len() {
                let v = self.live_list[i];
                let p = self.v[v as usize].phys;
                if p != NO_REG && self.clobbered(Reg(p)) {
                    self.displace(func, Reg(p))?;
                }
            }
        }

        // Fixed-register uses: live from their definition above down to here.
        if has_fixed_use {
            for i in 0..self.fixed_uses.len() {
                let (p, reserved) = self.fixed_uses[i];
                if !reserved {
                    self.displace(func, p)?;
                    self.set_state(p, FIXED);
                    self.mark_fixed_use(p);
                }
            }
        }

        // Virtual register uses, as the scan listed them (operand `k` is
        // rewritten only when its turn comes, so what the scan read still
        // holds).
        let uses = std::mem::take(&mut self.uses);
        for &(k, info) in &uses {
            let RegRef::Virt(v) = info.reg else { continue };
            let vi = v.index();
            // LLVM's `mayLiveIn`: more than a few definitions count as
            // crossing blocks.
            if !self.v[vi].across && self.v[vi].defs >= 8 {
                self.v[vi].across = true;
            }
            let tied_def = info.tied_to.map(usize::from);
            let same = tied_def.is_none_or(|d| self.vdefs.iter().any(|x| x.k == d && x.v == v.0));
            let r = self.use_vreg(func, mi, k, v.0, info)?;
            if !same && let Some(d) = tied_def {
                // Tied to a definition of another register: copy the value
                // into the definition's register just before.
                self.tie_to_def(func, mi, k, d, r)?;
            }
        }
        self.uses = uses;

        if has_undef_use {
            for k in 0..n {
                let Some(info) = Self::reg_info(func, mi, k) else {
                    continue;
                };
                let RegRef::Virt(v) = info.reg else { continue };
                if info.is_def() || !info.undef() {
                    continue;
                }
                self.use_undef(func, mi, k, v)?;
            }
        }

        // Early-clobbers and defs tied to other registers end here.
        // (`has_early` counts virtual and physical early-clobbers.)
        if has_early {
            for i in 0..self.vdefs.len() {
                let d = self.vdefs[i];
                if d.early
                    && !self.reads_reg(func, mi, d.reg)
                    && self.v[d.v as usize].phys == d.reg.0
                {
                    self.free_reg(d.reg);
                }
            }
            for i in 0..self.pdefs.len() {
                let (p, keep) = self.pdefs[i];
                if keep && !self.reads_reg(func, mi, p) {
                    self.free_reg(p);
                }
            }
        }
        for i in 0..self.late_free.len() {
            let d = self.late_free[i];
            if let Some(x) = self.vdefs.iter().find(|x| x.k == d).copied() {
                if self.v[x.v as usize].phys == x.reg.0 {
                    self.free_reg(x.reg);
                }
            } else if let Some(RegInfo {
                reg: RegRef::Phys(p),
                ..
            }) = Self::reg_info(func, mi, d)
            {
                self.free_reg(p);
            }
        }

        for i in 0..self.implicit_defs.len() {
            let r = self.implicit_defs[i];
            func.insts[mi.index()]
                .operands
                .push(Operand::Reg(RegOperand {
                    flags: RegFlags::DEF | RegFlags::IMPLICIT,
                    ..RegOperand::use_of(r)
                }));
        }
        self.done[mi.index()] = true;

        let d = func.inst(mi);
        let identity = d.op.is_copy()
            && d.operands.len() == 2
            && match (&d.operands[0], &d.operands[1]) {
                (Operand::Reg(a), Operand::Reg(b)) => {
                    a.reg == b.reg && matches!(a.reg, RegRef::Phys(_))
                }
                _ => false,
            };
        Ok(identity)
    }

    #[inline]
    fn is_reserved(&self, p: Reg) -> bool {
        self.reserved.get(p.index()).copied().unwrap_or(true)
    }

    /// Whether the instruction reads a register overlapping `r`.
    fn reads_reg(&self, func: &MachineFunction, mi: Inst, r: Reg) -> bool {
        func.inst(mi).operands.iter().any(|o| {
            o.as_reg().is_some_and(|x| {
                !x.is_def()
                    && !x.flags.has(RegFlags::UNDEF)
                    && matches!(x.reg, RegRef::Phys(p) if self.t.regs_overlap(p, r))
            })
        })
    }

    /// Use `k` (now in `r`) is tied to definition `d` of another register:
    /// copy `r` into the definition's register before the instruction.
    fn tie_to_def(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        d: usize,
        r: Reg,
    ) -> Result<(), AllocError> {
        let Some(RegInfo {
            reg: RegRef::Phys(dr),
            ..
        }) = Self::reg_info(func, mi, d)
        else {
            return Err(self.err(
                AllocErrorKind::Unsupported,
                format!("operand {k} is tied to operand {d}, which is not a register definition"),
            ));
        };
        let used = Self::reg_info(func, mi, k).map_or(r, |i| match i.reg {
            RegRef::Phys(p) => p,
            _ => r,
        });
        if used != dr {
            let id = self.insert_copy(func, dr, used);
            self.before.push(id);
            if let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k) {
                op.reg = RegRef::Phys(dr);
            }
        }
        self.late_free.push(d);
        Ok(())
    }

    /// An `undef` use reads no value: any register of its class will do;
    /// the definition's register when tied, else the one it has, else the
    /// first of the order.
    fn use_undef(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        k: usize,
        v: VReg,
    ) -> Result<(), AllocError> {
        let Some(info) = Self::reg_info(func, mi, k) else {
            return Ok(());
        };
        let vi = v.index();
        if let Some(d) = info.tied_to
            && let Some(RegInfo {
                reg: RegRef::Phys(p),
                ..
            }) = Self::reg_info(func, mi, usize::from(d))
        {
            if let Some(Operand::Reg(op)) = func.insts[mi.index()].operands.get_mut(k) {
                op.reg = RegRef::Phys(p);
                op.sub = None;
                op.flags.set(RegFlags::RENAMABLE, true);
            }
        } else {
            let r = if self.is_live(v.0) && self.v[vi].phys != NO_REG {
                Reg(self.v[vi].phys)
            } else {
                let c = self.class_of(v.0).index();
                match self.order(c).first() {
                    Some(&r) => r,
                    None => {
                        let msg = format!(
                            "operand {k}: class {} of %{} has no allocatable register",
                            self.class_name(func, v.0),
                            v.0
                        );
                        return Err(self.err(AllocErrorKind::OutOfRegisters, msg));
                    }
                }
            };
            self.rewrite(func, mi, k, r)?;
        }
        self.v[vi].uses = self.v[vi].uses.saturating_sub(1);
        Ok(())
    }
}

/// Whether operand `k` of `ops` (a definition) is tied to a use that reads
/// its value.
fn tied_to_read(ops: &[Operand], k: usize) -> bool {
    let reg = |i: usize| match ops.get(i) {
        Some(Operand::Reg(r)) => Some(r),
        _ => None,
    };
    reg(k)
        .and_then(|r| r.tied_to)
        .and_then(|u| reg(usize::from(u)))
        .is_some_and(|u| !u.is_def() && !u.flags.has(RegFlags::UNDEF))
}
