//! The fast allocator's state: what each register unit and virtual register holds, and the steps on it every other part uses (the walk over a block is in [`walk`], one instruction in [`inst`], one operand in [`operands`], choosing a register in [`choose`], spill code in [`spill`]).
//!
//! State is kept in flat arrays: what each register unit holds, a
//! per-instruction "used here" generation stamp per unit, and per virtual
//! register one record (`prepare::VState`: its current register, flags,
//! spill slot, remaining uses and definitions, class). Nothing is
//! allocated per instruction beyond the instructions inserted.

use crate::{AllocError, AllocErrorKind, AllocRecord};

use crate::ir::{Block, Inst, InstData, MachineFunction, RegFlags, RegRef};
use crate::record::Edit;
use crate::target::{CalleeSavedSet, Reg, RegClass, SubRegIndex, TargetInfo};

use super::emit::Kind;

mod choose;
mod inst;
mod operands;
mod spill;
mod walk;
use super::cache::{FpTables, INLINE_UNITS, RegUnits, Scratch, Tables};
use super::prepare::{Facts, VState};
use crate::alloc::order::OrderVariant;

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
    /// Virtual registers met in this block, in order.
    live_list: Vec<u32>,
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
    /// Reloads for the top of the current block.
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
    /// Per register, its units (see `cache::RegUnits`).
    reg_units: &'t [RegUnits],
    unit_list: &'t [u16],
    /// Per class: the allocation order for this function (reserved
    /// registers removed, callee-saved registers last unless the class says
    /// otherwise); `None` for classes no virtual register uses.
    orders: &'t [std::sync::OnceLock<Box<[Reg]>>],
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
    /// The function's name and the per-instruction and per-block lists.
    lists: Lists,
    /// The current block's new instruction list, bottom up; kept from
    /// block to block so that it grows only to the largest block.
    rev: Vec<Inst>,
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
        reserving: &'t FpTables,
        variant: &'t OrderVariant,
        scratch: &mut Scratch,
    ) -> Self {
        let v = std::mem::take(&mut f.v);
        let reserved = &reserving.reserved;
        let orders = variant.orders();
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
        let mut lists = std::mem::take(&mut scratch.lists);
        lists.name.clear();
        lists.name.push_str(&func.name);
        Fast {
            t,
            f,
            reserved,
            reg_units: &tables.reg_units,
            unit_list: &tables.unit_list,
            orders,
            unit_state,
            used,
            stamp: scratch.stamp,
            v,
            epoch: 0,
            insts_moved: false,
            spare_insts: std::mem::take(&mut scratch.spare_insts),
            done,
            removing,
            has_succs: false,
            lists,
            rev,
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
        scratch.lists = self.lists;
        self.f.v = self.v;
        self.f.give_back(scratch);
        self.record
    }

    fn err(&self, kind: AllocErrorKind, msg: String) -> AllocError {
        AllocError::new(kind, &self.lists.name, msg).at(self.block, self.inst)
    }

    /// The allocation order of class `c` (one a virtual register uses).
    #[inline]
    fn order(&self, c: usize) -> &'t [Reg] {
        self.orders.get(c).and_then(|o| o.get()).map_or(&[], |o| o)
    }

    /// The instructions defining `v` (with what each copies), in layout
    /// order.
    #[inline]
    fn defs_of(&self, v: usize) -> &[super::prepare::Def] {
        let x = &self.v[v];
        &self.f.def_list[x.def_at as usize..x.def_end as usize]
    }

    /// The class of `v`, which the gathering pass checked.
    #[inline]
    fn class_of(&self, v: u32) -> RegClass {
        RegClass(u32::from(self.v[v as usize].class))
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

    /// The units of `r`, from the compact copy of the target's lists
    /// (nearly every register holds its own in its 8-byte entry).
    #[inline(always)]
    fn units(&self, r: Reg) -> &'t [u16] {
        let e: &'t RegUnits = &self.reg_units[r.index()];
        let n = usize::from(e.n);
        if n <= INLINE_UNITS {
            &e.at[..n]
        } else {
            let s = usize::from(e.at[0]);
            &self.unit_list[s..s + usize::from(e.at[1])]
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
        self.lists.masks.iter().any(|m| match m {
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
        if fixed_uses && !self.lists.masks.is_empty() && self.clobbered(r) {
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
        self.lists.live_list.push(v);
    }

    fn assign(&mut self, v: u32, r: Reg) {
        self.v[v as usize].phys = r.0;
        self.set_state(r, v);
    }

    /// Frees `r` (LLVM's `freePhysReg`): whatever lives in its first unit
    /// gives up its register. (Inlined: every definition frees a register,
    /// and the call cost as much as the work.)
    #[inline(always)]
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
                    self.lists.after.push(id);
                    self.set_state(p, FREE);
                    self.v[v as usize].phys = NO_REG;
                    self.v[v as usize].flags |= RELOADED;
                    any = true;
                }
            }
        }
        Ok(any)
    }
}
