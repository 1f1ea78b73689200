//! What the fast allocator derives from a target's tables alone (reserved and constant registers, allocation orders, the units each call mask clobbers), kept per thread from one function to the next.
//!
//! Every function used to work these out again: a loop over every register
//! for the constant ones, one over every class for the orders, one over
//! every unit for a call's clobbers. For a function of twenty instructions
//! that was most of its time. They depend only on the target and on a few
//! facts about the function (whether it keeps a frame pointer, needs a base
//! pointer, makes calls, which callee-saved set it follows), so they are
//! computed once per combination and looked up after.
//!
//! Only targets whose tables are borrowed (the generated `static` ones) are
//! kept, keyed by the tables' addresses, which cannot change under a
//! `'static` borrow. Owned tables (test fixtures, tables loaded at run
//! time) may be freed and another set built at the same address, so for
//! them everything is computed afresh each time, as before.

use std::borrow::Cow;
use std::cell::RefCell;

use crate::target::{
    AllocOrderPolicy, CalleeSavedSet, FunctionInfo, InstrFlags, Opcode, Reg, RegClass,
    RegFlags as PhysFlags, RegUnit, TargetInfo,
};

use super::block::Lists;
use super::liveness::{RegBits, Units};
use super::prepare::{Def, Seen, VState};
use crate::ir::{Inst, InstData};
use crate::record::Edit;

/// The addresses and lengths of the tables the cached facts come from.
type Key = [usize; 14];

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

/// Per-target facts for one thread.
pub(super) struct Tables {
    key: Option<Key>,
    /// The facts that depend on which of the target's frame-pointer and
    /// base-pointer registers a function reserves, one entry per
    /// combination met (see [`Tables::variant`]). Without and with a frame
    /// pointer are made up front; with a base pointer, which few functions
    /// need, on first need.
    pub reserving: Vec<FpTables>,
    /// Per combination of frame pointer, base pointer and the feature
    /// groups that reserve registers ([`TargetInfo::reserved_groups`]):
    /// its position in `reserving`.
    reserving_at: Vec<((bool, bool, u64), usize)>,
    /// The target names base-pointer registers. Without them a function
    /// that needs a base pointer reserves nothing more, so it shares the
    /// facts of one that does not.
    has_base_pointer_regs: bool,
    /// The callee-saved set a function without calls follows (see
    /// `prepare::function_csr`).
    pub default_csr: Option<CalleeSavedSet>,
    /// Per callee-saved set: which units its saved registers cover
    /// (computed on first use).
    csr_units: Vec<Option<Box<[bool]>>>,
    /// Allocation orders, per combination of the facts they depend on.
    variants: Vec<Variant>,
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
    /// Buffers kept from one function to the next (`None` while a
    /// function has them, or after an error dropped them).
    pub scratch: Option<Box<Scratch>>,
}

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
    pub clobbers: RefCell<Vec<Option<Units>>>,
}

/// Allocation orders for one combination of function facts.
struct Variant {
    has_calls: bool,
    fp: bool,
    bp: bool,
    /// The feature groups reserving registers.
    groups: u64,
    csr: Option<CalleeSavedSet>,
    /// The position in `Tables::reserving` of its reserved registers.
    reserving: usize,
    /// Per class (computed on first use).
    orders: Vec<Option<Box<[Reg]>>>,
}

thread_local! {
    static CACHE: RefCell<Option<Box<Tables>>> = const { RefCell::new(None) };
}

/// The key of `t`'s tables when they are all borrowed.
fn key(t: &TargetInfo<'_>) -> Option<Key> {
    match (
        &t.regs,
        &t.units,
        &t.classes,
        &t.callee_saved,
        &t.reserved,
        &t.frame_pointer,
        &t.base_pointer,
    ) {
        (
            Cow::Borrowed(r),
            Cow::Borrowed(u),
            Cow::Borrowed(c),
            Cow::Borrowed(s),
            Cow::Borrowed(res),
            Cow::Borrowed(fp),
            Cow::Borrowed(bp),
        ) => Some([
            r.as_ptr() as usize,
            r.len(),
            u.as_ptr() as usize,
            u.len(),
            c.as_ptr() as usize,
            c.len(),
            s.as_ptr() as usize,
            s.len(),
            res.as_ptr() as usize,
            res.len(),
            fp.as_ptr() as usize,
            fp.len(),
            bp.as_ptr() as usize,
            bp.len(),
        ]),
        _ => None,
    }
}

impl Tables {
    /// The tables for `t`: this thread's kept ones when they are `t`'s,
    /// else new ones.
    pub fn take(t: &TargetInfo<'_>) -> Box<Tables> {
        let k = key(t);
        if k.is_some()
            && let Some(c) = CACHE.with(|c| c.borrow_mut().take())
            && c.key == k
        {
            return c;
        }
        Box::new(Tables::new(t, k))
    }

    /// Keeps `self` for the next function (only for borrowed tables).
    pub fn give_back(self: Box<Self>) {
        if self.key.is_some() {
            CACHE.with(|c| *c.borrow_mut() = Some(self));
        }
    }

    fn new(t: &TargetInfo<'_>, key: Option<Key>) -> Tables {
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
            key,
            reserving: vec![
                reserving(t, false, false, plain),
                reserving(t, true, false, plain),
            ],
            reserving_at: vec![((false, false, plain), 0), ((true, false, plain), 1)],
            has_base_pointer_regs: t.base_pointer.iter().any(|&w| w != 0),
            default_csr: default_csr(t),
            csr_units: vec![None; t.callee_saved.len()],
            variants: Vec::new(),
            calls: call_bits(t),
            reg_units,
            unit_list,
            scratch: None,
        }
    }

    /// Whether opcode `o` is a call.
    #[inline]
    pub fn is_call(&self, o: Opcode) -> bool {
        self.calls
            .get(o.index() / 64)
            .is_some_and(|w| w >> (o.index() % 64) & 1 != 0)
    }

    /// The index of the order variant for these facts (made when new).
    pub fn variant(
        &mut self,
        t: &TargetInfo<'_>,
        fi: &FunctionInfo,
        csr: Option<CalleeSavedSet>,
    ) -> usize {
        let (has_calls, fp, bp) = (fi.has_calls, fi.has_frame_pointer, fi.has_base_pointer);
        let groups = t.reserved_groups(fi.features);
        if let Some(k) = self.variants.iter().position(|v| {
            v.has_calls == has_calls
                && v.fp == fp
                && v.bp == bp
                && v.groups == groups
                && v.csr == csr
        }) {
            return k;
        }
        let reserving = self.reserving_index(t, fp, bp, groups);
        self.variants.push(Variant {
            has_calls,
            fp,
            bp,
            groups,
            csr,
            reserving,
            orders: vec![None; t.classes.len()],
        });
        self.variants.len() - 1
    }

    /// The position in [`Tables::reserving`] of the facts of variant `k`.
    pub fn variant_reserving(&self, k: usize) -> usize {
        self.variants[k].reserving
    }

    /// The position in [`Tables::reserving`] of the facts of a function
    /// that keeps a frame pointer when `fp` and needs a base pointer when
    /// `bp` (made when new).
    fn reserving_index(&mut self, t: &TargetInfo<'_>, fp: bool, bp: bool, groups: u64) -> usize {
        let bp = bp && self.has_base_pointer_regs;
        let key = (fp, bp, groups);
        if let Some(&(_, k)) = self.reserving_at.iter().find(|(c, _)| *c == key) {
            return k;
        }
        self.reserving.push(reserving(t, fp, bp, groups));
        self.reserving_at.push((key, self.reserving.len() - 1));
        self.reserving.len() - 1
    }

    /// Makes sure variant `k` has the order of class `c`: usable registers
    /// in the class's order, callee-saved ones last unless the class says
    /// otherwise.
    pub fn fill_order(&mut self, t: &TargetInfo<'_>, k: usize, c: usize) {
        if self.variants[k].orders[c].is_some() {
            return;
        }
        let v = &self.variants[k];
        let (csr, at) = (v.csr, v.reserving);
        let fi = FunctionInfo {
            has_frame_pointer: v.fp,
            has_base_pointer: v.bp,
            has_calls: v.has_calls,
            ..FunctionInfo::default()
        };
        if let Some(s) = csr
            && self.csr_units[s.index()].is_none()
        {
            let mut units = vec![false; t.units.len()];
            for &r in t.callee_saved_set(s).saves.iter() {
                for &u in t.units(r) {
                    units[u.index()] = true;
                }
            }
            self.csr_units[s.index()] = Some(units.into());
        }
        let no_units: &[bool] = &[];
        let csr_unit = csr
            .and_then(|s| self.csr_units[s.index()].as_deref())
            .unwrap_or(no_units);
        let is_csr = |u: &RegUnit| csr_unit.get(u.index()).copied().unwrap_or(false);
        let reserved = &self.reserving[at].reserved;
        let class = RegClass::new(c);
        let csr_last = matches!(
            t.class(class).order_policy,
            AllocOrderPolicy::CalleeSavedLast
        );
        let mut head: Vec<Reg> = Vec::new();
        let mut tail: Vec<Reg> = Vec::new();
        for &r in t.alloc_order(class, &fi) {
            if reserved[r.index()] || t.reg(r).flags.contains(PhysFlags::ARTIFICIAL) {
                continue;
            }
            if csr_last && t.units(r).iter().any(is_csr) {
                tail.push(r);
            } else {
                head.push(r);
            }
        }
        head.extend_from_slice(&tail);
        self.variants[k].orders[c] = Some(head.into());
    }

    /// The orders of variant `k` (those filled).
    pub fn orders(&self, k: usize) -> &[Option<Box<[Reg]>>] {
        &self.variants[k].orders
    }
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
        clobbers: RefCell::new(vec![None; t.callee_saved.len()]),
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

/// The callee-saved set of a function without calls, which decides which
/// registers go last in allocation orders. The tables do not say which
/// convention a function follows; it is looked up by the names the four
/// targets give their C convention.
fn default_csr(t: &TargetInfo<'_>) -> Option<CalleeSavedSet> {
    for name in ["CSR_64", "CSR_AArch64_AAPCS", "HexagonCSR", "CSR"] {
        if let Some(s) = t.find_callee_saved(name) {
            return Some(s);
        }
    }
    (t.callee_saved.len() == 1).then(|| CalleeSavedSet::new(0))
}
