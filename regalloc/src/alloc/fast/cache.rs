//! What the fast allocator derives from a target's tables alone (reserved and constant registers, the units each call mask clobbers), made once per target and shared by every thread, and the buffers one function's allocation leaves for the next.
//!
//! Every function used to work these out again: a loop over every register
//! for the constant ones, one over every unit for a call's clobbers. (The
//! allocation orders, which the other allocators read too, are built and
//! kept by `order.rs`'s `TargetOrders`.) For a function of twenty instructions
//! that was most of its time. They depend only on the target and on a few
//! facts about the function (whether it keeps a frame pointer, needs a base
//! pointer, makes calls, which callee-saved set it follows), so they are
//! computed once per combination and looked up after.
//!
//! The caller keeps them: [`TargetTables`] in the target's
//! [`crate::alloc::context::TargetContext`] (one for every thread; what depends on
//! a combination of function facts is made on its first need, under a
//! lock, and never changes after), [`Buffers`] in each thread's
//! [`crate::alloc::context::AllocContext`].

use std::sync::{Arc, OnceLock, RwLock};

use crate::target::{InstrFlags, Opcode, Reg, RegFlags as PhysFlags, TargetInfo};

use super::block::Lists;
use super::liveness::{RegBits, Units};
use super::prepare::{Def, Seen, VState};
use crate::ir::{Inst, InstData};
use crate::record::Edit;

/// How many units a register may have for [`RegUnits`] to hold them
/// itself: every register of BPF, X86-64 and Hexagon, and all but
/// AArch64's tuples.
pub(super) const INLINE_UNITS: usize = 3;

/// One register's units: `n` of them in `at` when `n` is at most
/// [`INLINE_UNITS`]; else (`n` is `u16::MAX`) `at[1]` of them in
/// `Tables::unit_list` from `at[0]`.
#[derive(Copy, Clone)]
pub(super) struct RegUnits {
    pub n: u16,
    pub at: [u16; INLINE_UNITS],
}

/// The fast allocator's facts of one target, as a
/// [`crate::alloc::context::TargetContext`] keeps them.
pub(crate) struct TargetTables(pub(super) Tables);

impl TargetTables {
    /// The facts of `t` (those of each combination of function facts are
    /// made when first needed).
    pub(crate) fn new(t: &TargetInfo<'_>) -> TargetTables {
        TargetTables(Tables::new(t))
    }
}

/// The fast allocator's buffers, as a [`crate::alloc::context::AllocContext`]
/// keeps them between functions (`None` while a function has them, or
/// after an error dropped them). Boxed, so that they move as one pointer:
/// they are some fifty vectors, and moving them by value, and dropping the
/// empty set left behind, is a cost a small function notices.
#[derive(Default)]
pub(crate) struct Buffers(pub(super) Option<Box<Scratch>>);

/// Per-target facts, shared by every thread allocating for the target.
pub(super) struct Tables {
    /// The facts that depend on which of the target's frame-pointer and
    /// base-pointer registers a function reserves and on the feature
    /// groups that reserve registers ([`TargetInfo::reserved_groups`]),
    /// one entry per combination met (see [`Tables::reserving_index`]),
    /// with its key. Without and with a frame pointer, for a function without
    /// features, are made up front; the others on first need.
    reserving: RwLock<Vec<Reserving>>,
    /// The target names base-pointer registers. Without them a function
    /// that needs a base pointer reserves nothing more, so it shares the
    /// facts of one that does not.
    has_base_pointer_regs: bool,
    /// Per register, its units (see [`RegUnits`]). The allocator reads a
    /// register's units for nearly every operand; through the target's
    /// own lists that is a 128-byte register record and two `Cow`s per
    /// look-up, and AArch64's 700 records span 90 KB that reading the next
    /// file evicts. This is 8 bytes a register.
    pub reg_units: Box<[RegUnits]>,
    /// The units of the registers with more than [`INLINE_UNITS`].
    pub unit_list: Box<[u16]>,
    /// Per opcode, one bit: a call. The walk over a function without calls
    /// asks for every instruction; a bit in a few kilobytes is cheaper to
    /// reach than the flags in each opcode's description.
    calls: Box<[u64]>,
}

/// The reserved-register facts of one combination of frame pointer, base
/// pointer and reserving feature groups, with that combination.
type Reserving = ((bool, bool, u64), Arc<FpTables>);

/// Buffers one function's allocation fills and the next one's reuses, so
/// that a function costs no allocation for them once the largest has been
/// seen. Their contents mean nothing between functions, except `used` with
/// `stamp` (see `block::Fast`), whose stamps only grow.
#[derive(Default)]
pub(super) struct Scratch {
    /// `prepare::Facts::gather`'s tables.
    pub v: Vec<VState>,
    pub seen: Vec<Seen>,
    pub defs: Vec<(u32, Def)>,
    pub touched: Vec<u32>,
    pub def_list: Vec<Def>,
    pub used_class: Vec<bool>,
    /// `block::Fast`'s tables.
    pub unit_state: Vec<u32>,
    pub used: Vec<u32>,
    pub stamp: u32,
    pub done: Vec<bool>,
    pub removing: Vec<bool>,
    pub rev: Vec<Inst>,
    pub spare_insts: Vec<InstData>,
    pub edits: Vec<(Inst, Edit)>,
    pub lists: Lists,
    /// `prepare::Facts::gather`'s list of the classes in use.
    pub classes: Vec<u32>,
    /// `liveness::Liveness`'s tables.
    pub pred_start: Vec<u32>,
    pub preds: Vec<u32>,
    pub live_in: Vec<u64>,
    pub queued: Vec<bool>,
    pub work: Vec<usize>,
    pub live_units: Vec<u64>,
    pub covered: Vec<u64>,
}

/// The facts that depend on whether the function keeps a frame pointer and
/// whether it needs a base pointer (the registers it reserves beyond those
/// the target always does).
pub(super) struct FpTables {
    /// Per register: reserved (or constant), so never allocated and never
    /// tracked.
    pub reserved: Box<[bool]>,
    /// Per unit: a unit of a reserved or constant register.
    pub untracked: Box<[bool]>,
    /// Per register: where its units are in a liveness set (or that it is
    /// reserved or constant, so not tracked).
    pub bits: Box<[RegBits]>,
    /// Per callee-saved set: the tracked units a call with its mask
    /// clobbers (computed on first use).
    pub clobbers: Box<[OnceLock<Units>]>,
}

impl Tables {
    fn new(t: &TargetInfo<'_>) -> Tables {
        // What a function without subtarget features reserves.
        let plain = t.reserved_groups(crate::target::FeatureSet::NONE);
        // Unit numbers and list positions fit 16 bits (the largest target
        // has a few hundred units).
        let mut reg_units = Vec::with_capacity(t.regs.len());
        let mut unit_list: Vec<u16> = Vec::new();
        for r in 0..t.regs.len() {
            let units = t.units(Reg::new(r));
            let mut e = RegUnits {
                n: units.len() as u16,
                at: [0; INLINE_UNITS],
            };
            if units.len() <= INLINE_UNITS {
                for (a, u) in e.at.iter_mut().zip(units) {
                    *a = u.index() as u16;
                }
            } else {
                e.n = u16::MAX;
                e.at[0] = unit_list.len() as u16;
                e.at[1] = units.len() as u16;
                unit_list.extend(units.iter().map(|u| u.index() as u16));
            }
            reg_units.push(e);
        }
        let (reg_units, unit_list) = (reg_units.into(), unit_list.into());
        Tables {
            reserving: RwLock::new(vec![
                (
                    (false, false, plain),
                    Arc::new(reserving(t, false, false, plain)),
                ),
                (
                    (true, false, plain),
                    Arc::new(reserving(t, true, false, plain)),
                ),
            ]),
            has_base_pointer_regs: t.base_pointer.iter().any(|&w| w != 0),
            calls: call_bits(t),
            reg_units,
            unit_list,
        }
    }

    /// Whether opcode `o` is a call.
    #[inline]
    pub fn is_call(&self, o: Opcode) -> bool {
        self.calls
            .get(o.index() / 64)
            .is_some_and(|w| w >> (o.index() % 64) & 1 != 0)
    }

    /// The facts at position `k` of `Tables::reserving` (see
    /// [`Tables::reserving_index`]), held for one function.
    pub fn reserving_at(&self, k: usize) -> Arc<FpTables> {
        Arc::clone(&read(&self.reserving)[k].1)
    }

    /// The position in `Tables::reserving`, and the facts, of a function
    /// that keeps a frame pointer when `fp` and needs a base pointer when
    /// `bp`, and whose features leave the feature `groups` reserving (made
    /// when new).
    pub fn reserving_index(
        &self,
        t: &TargetInfo<'_>,
        fp: bool,
        bp: bool,
        groups: u64,
    ) -> (usize, Arc<FpTables>) {
        let bp = bp && self.has_base_pointer_regs;
        let key = (fp, bp, groups);
        let find = |list: &[Reserving]| {
            list.iter()
                .position(|(c, _)| *c == key)
                .map(|k| (k, Arc::clone(&list[k].1)))
        };
        if let Some(found) = find(&read(&self.reserving)) {
            return found;
        }
        let made = Arc::new(reserving(t, fp, bp, groups));
        let mut list = write(&self.reserving);
        if let Some(found) = find(&list) {
            return found;
        }
        list.push((key, Arc::clone(&made)));
        (list.len() - 1, made)
    }
}

/// The list behind `lock`, to read. A thread that panicked while holding
/// the lock for writing left it poisoned, but every write is one push of
/// a finished entry, so the list is whole.
fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

/// The list behind `lock`, to add to (see [`read`] on poisoning).
fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|e| e.into_inner())
}

/// One bit per opcode of `t`: whether it is a call.
fn call_bits(t: &TargetInfo<'_>) -> Box<[u64]> {
    let mut bits = vec![0u64; t.instrs.len().div_ceil(64)];
    for (k, d) in t.instrs.iter().enumerate() {
        if d.is(InstrFlags::CALL) {
            bits[k / 64] |= 1 << (k % 64);
        }
    }
    bits.into()
}

/// The facts of a function that keeps a frame pointer when `fp` and needs
/// a base pointer when `bp`.
fn reserving(t: &TargetInfo<'_>, fp: bool, bp: bool, groups: u64) -> FpTables {
    let (reserved, list) = reserved_or_constant(t, fp, bp, groups);
    let mut untracked = vec![false; t.units.len()];
    for &r in &list {
        for &u in t.units(r) {
            untracked[u.index()] = true;
        }
    }
    let bits: Box<[RegBits]> = (0..t.regs.len())
        .map(|r| RegBits::of(t, Reg::new(r), reserved[r]))
        .collect();
    FpTables {
        bits,
        reserved: reserved.into(),
        untracked: untracked.into(),
        clobbers: (0..t.callee_saved.len()).map(|_| OnceLock::new()).collect(),
    }
}

/// Per register: reserved in a function with or without a frame pointer
/// and a base pointer, and whose features leave the feature `groups`
/// reserving (what [`TargetInfo::reserved_in`] says), or constant; and the
/// list of those registers.
fn reserved_or_constant(
    t: &TargetInfo<'_>,
    frame_pointer: bool,
    base_pointer: bool,
    groups: u64,
) -> (Vec<bool>, Vec<Reg>) {
    let n = t.regs.len();
    let mut out = vec![false; n];
    let mut list = Vec::with_capacity(64);
    let fp: &[u32] = if frame_pointer { &t.frame_pointer } else { &[] };
    let bp: &[u32] = if base_pointer { &t.base_pointer } else { &[] };
    for w in 0..t.reserved.len().max(fp.len()).max(bp.len()) {
        let word = |s: &[u32]| s.get(w).copied().unwrap_or(0);
        let mut bits = word(&t.reserved) | word(fp) | word(bp);
        while bits != 0 {
            let r = w * 32 + bits.trailing_zeros() as usize;
            if r < n {
                out[r] = true;
                list.push(Reg::new(r));
            }
            bits &= bits - 1;
        }
    }
    for (r, d) in t.regs.iter().enumerate() {
        if (d.flags.contains(PhysFlags::CONSTANT) || t.in_groups(groups, r)) && !out[r] {
            out[r] = true;
            list.push(Reg::new(r));
        }
    }
    (out, list)
}
