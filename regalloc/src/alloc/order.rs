//! `AllocationOrder`: the registers a virtual register may take, in the order an allocator should try them (hints first); and the one builder of every allocator's base orders.
//!
//! The base order of a class is computed as LLVM's
//! `RegisterClassInfo::compute` does: the raw order
//! ([`TargetInfo::alloc_order`], which already applies the class's
//! `AltOrderSelect`), minus reserved, constant and artificial registers,
//! with the function's callee-saved registers moved after the others
//! (keeping their relative order) unless the class's
//! [`AllocOrderPolicy`] is `AsWritten`. `alloc_order` does not apply the
//! policy itself, so it is applied exactly once, here.
//!
//! A base order depends on the target and on a few facts of the function
//! only (whether it calls, keeps a frame pointer, needs a base pointer,
//! its subtarget features, and which callee-saved set it follows), so
//! [`TargetOrders`] builds each order once per combination of those facts
//! and keeps it for every later function and every allocator: the Fast
//! allocator reads it through `fast/cache.rs`, Basic, Greedy and PBQP
//! through [`ClassOrders`]. The target's
//! [`crate::alloc::context::TargetContext`] keeps the [`TargetOrders`].
//!
//! Registers reserved in one function ([`function_reserved`]) are the
//! tables' reserved set plus, when the function keeps a frame pointer, the
//! frame-pointer registers, and when it needs a base pointer, the
//! base-pointer registers, all from the target's `ReservedRegisters`.
//!
//! Per virtual register, copy hints come first: physical registers it is
//! copied to or from, and the registers of already-assigned virtual
//! registers it is copied to or from ([`Analyses::hints`], heaviest first),
//! each only if it is in the base order.

use std::sync::{Arc, OnceLock, RwLock};

use crate::analysis::{Analyses, Hint};
use crate::ir::{FramePointerKind, MachineFunction, Op, Operand, StackObjectKind, VReg};
use crate::target::{
    AllocOrderPolicy, CalleeSavedSet, FeatureSet, FunctionInfo, InstrFlags, Reg, RegClass,
    RegFlags, TargetInfo,
};

/// Which callee-saved set the orders of a function put last when its code
/// names no register mask and the target's tables name none of the four
/// targets' C conventions (`CSR_64`, `CSR_AArch64_AAPCS`, `HexagonCSR`,
/// `CSR`), so the function's convention is not known.
///
/// The two rules give the same orders on the four targets (each names its
/// C convention) and on any target with at most one set; they differ only
/// for a target with several sets, none of them named so. LLVM builds one
/// order for every allocator (`RegisterClassInfo`), but it knows the
/// function's convention; here each allocator keeps the rule it was
/// measured with, so that no allocation changes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum CsrFallback {
    /// The target's first set, whenever it has one: Basic, Greedy and PBQP
    /// (a guess that some register goes last rather than none).
    FirstSet,
    /// The target's set only when it has exactly one, else none (no
    /// register goes last): Fast, which does not guess between sets.
    OnlySet,
}

/// The allocation orders of one target, for every combination of the
/// function facts they depend on (see the module docs), built on first
/// need and then never changed. It is shared by every thread allocating
/// for the target: a new combination is added under a lock.
#[derive(Debug)]
pub(crate) struct TargetOrders {
    /// The set a function whose code names no register mask follows, per
    /// [`CsrFallback`] (`FirstSet`, `OnlySet`).
    default_csr: [Option<CalleeSavedSet>; 2],
    /// Per callee-saved set: which units its saved registers cover (made
    /// on first need).
    saved_units: Box<[OnceLock<Arc<[bool]>>]>,
    /// One entry per combination of function facts met.
    variants: RwLock<Vec<Arc<OrderVariant>>>,
}

/// The function facts a base order depends on.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct OrderKey {
    has_calls: bool,
    has_frame_pointer: bool,
    has_base_pointer: bool,
    /// The function's features: `AltOrderSelect` may ask for them, and
    /// some reserve registers ([`TargetInfo::reserved_groups`]).
    features: FeatureSet,
    /// The callee-saved set whose registers go last.
    csr: Option<CalleeSavedSet>,
}

impl OrderKey {
    /// The facts of `info` with callee-saved set `csr`.
    fn of(info: &FunctionInfo, csr: Option<CalleeSavedSet>) -> OrderKey {
        OrderKey {
            has_calls: info.has_calls,
            has_frame_pointer: info.has_frame_pointer,
            has_base_pointer: info.has_base_pointer,
            features: info.features,
            csr,
        }
    }

    /// What an order selector sees of a function with these facts (it
    /// reads nothing else: tdgen's `emit::select` language asks for
    /// features, calls, the frame pointer and the base pointer only).
    fn info(&self) -> FunctionInfo {
        FunctionInfo {
            has_frame_pointer: self.has_frame_pointer,
            has_base_pointer: self.has_base_pointer,
            has_calls: self.has_calls,
            features: self.features,
            ..FunctionInfo::default()
        }
    }
}

/// The base orders of every class for one combination of function facts.
#[derive(Debug)]
pub(crate) struct OrderVariant {
    key: OrderKey,
    /// Registers reserved in a function with these facts, by register
    /// ([`TargetInfo::reserved_in`]).
    reserved: Box<[bool]>,
    /// Per unit: covered by a register the key's callee-saved set saves
    /// (`None` without a set).
    saved_units: Option<Arc<[bool]>>,
    /// Per class: its base order, built on first need.
    orders: Box<[OnceLock<Box<[Reg]>>]>,
}

impl TargetOrders {
    /// No orders yet for `t` (its default callee-saved sets looked up).
    pub(crate) fn new(t: &TargetInfo<'_>) -> TargetOrders {
        TargetOrders {
            default_csr: [
                default_csr(t, CsrFallback::FirstSet),
                default_csr(t, CsrFallback::OnlySet),
            ],
            saved_units: (0..t.callee_saved.len()).map(|_| OnceLock::new()).collect(),
            variants: RwLock::new(Vec::new()),
        }
    }

    /// The callee-saved set a function follows: the one its first named
    /// register mask names (`mask`, the calling convention in use), else
    /// the target's usual C convention, chosen by `fallback` where the
    /// tables do not name it.
    pub(crate) fn function_csr(
        &self,
        t: &TargetInfo<'_>,
        mask: Option<CalleeSavedSet>,
        fallback: CsrFallback,
    ) -> Option<CalleeSavedSet> {
        let default = match fallback {
            CsrFallback::FirstSet => self.default_csr[0],
            CsrFallback::OnlySet => self.default_csr[1],
        };
        mask.filter(|s| s.index() < t.callee_saved.len())
            .or(default)
    }

    /// The index of the orders of a function with facts `info` following
    /// callee-saved set `csr` (made when new; see
    /// [`TargetOrders::variant_at`]).
    pub(crate) fn variant(
        &self,
        t: &TargetInfo<'_>,
        info: &FunctionInfo,
        csr: Option<CalleeSavedSet>,
    ) -> usize {
        let key = OrderKey::of(info, csr);
        let same = |v: &Arc<OrderVariant>| v.key == key;
        if let Some(k) = read(&self.variants).iter().position(same) {
            return k;
        }
        // Made outside the lock: another thread may make the same one
        // meanwhile, and the first pushed is kept.
        let made = Arc::new(self.make_variant(t, key));
        let mut variants = write(&self.variants);
        if let Some(k) = variants.iter().position(same) {
            return k;
        }
        variants.push(made);
        variants.len() - 1
    }

    /// Variant `k` (see [`TargetOrders::variant`]), held by the caller for
    /// one function: the list may grow meanwhile, the entry never changes.
    pub(crate) fn variant_at(&self, k: usize) -> Arc<OrderVariant> {
        Arc::clone(&read(&self.variants)[k])
    }

    /// Makes sure variant `k` has the order of class `c`.
    pub(crate) fn fill(&self, t: &TargetInfo<'_>, k: usize, c: RegClass) {
        self.variant_at(k).order(t, c);
    }

    /// The orders of a function with facts `key`, none built yet.
    fn make_variant(&self, t: &TargetInfo<'_>, key: OrderKey) -> OrderVariant {
        let saved_units = key.csr.map(|s| {
            Arc::clone(self.saved_units[s.index()].get_or_init(|| callee_saved_units(t, s)))
        });
        OrderVariant {
            reserved: t.reserved_in(&key.info()).into(),
            saved_units,
            orders: (0..t.classes.len()).map(|_| OnceLock::new()).collect(),
            key,
        }
    }
}

impl OrderVariant {
    /// Registers reserved in a function with these facts, by register.
    pub(crate) fn reserved(&self) -> &[bool] {
        &self.reserved
    }

    /// The callee-saved set whose registers go last.
    pub(crate) fn csr(&self) -> Option<CalleeSavedSet> {
        self.key.csr
    }

    /// The base order of class `c` (built on the first call; empty for an
    /// unknown class).
    pub(crate) fn order(&self, t: &TargetInfo<'_>, c: RegClass) -> &[Reg] {
        let Some(slot) = self.orders.get(c.index()) else {
            return &[];
        };
        slot.get_or_init(|| {
            base_order(
                t,
                c,
                &self.key.info(),
                &self.reserved,
                self.saved_units.as_deref(),
            )
        })
    }

    /// Per class, its base order if built: for a caller that has built
    /// the orders it needs ([`TargetOrders::fill`]) and reads them often.
    pub(crate) fn orders(&self) -> &[OnceLock<Box<[Reg]>>] {
        &self.orders
    }
}

/// The base order of class `c` in a function with facts `info`: the
/// selected order minus the `reserved`, constant and artificial registers;
/// when the class puts callee-saved registers last, those with a unit in
/// `saved_units` after the others, each part in its own order. (A
/// register counts as callee-saved when it or a register overlapping it is
/// saved, as LLVM tests aliases too; every register has a unit, so a saved
/// register is found by its own units.)
fn base_order(
    t: &TargetInfo<'_>,
    c: RegClass,
    info: &FunctionInfo,
    reserved: &[bool],
    saved_units: Option<&[bool]>,
) -> Box<[Reg]> {
    let saved_last =
        saved_units.filter(|_| t.class(c).order_policy == AllocOrderPolicy::CalleeSavedLast);
    let saved = |r: Reg| {
        saved_last.is_some_and(|units| {
            t.units(r)
                .iter()
                .any(|u| units.get(u.index()).copied().unwrap_or(false))
        })
    };
    let mut head: Vec<Reg> = Vec::new();
    let mut tail: Vec<Reg> = Vec::new();
    for &r in t.alloc_order(c, info) {
        let usable = r.index() < t.regs.len()
            && !reserved.get(r.index()).copied().unwrap_or(true)
            && !t.reg(r).flags.contains(RegFlags::CONSTANT)
            && !t.reg(r).flags.contains(RegFlags::ARTIFICIAL);
        if !usable {
            continue;
        }
        if saved(r) {
            tail.push(r);
        } else {
            head.push(r);
        }
    }
    head.extend_from_slice(&tail);
    head.into()
}

/// Per unit of `t`: covered by a register callee-saved set `s` saves.
fn callee_saved_units(t: &TargetInfo<'_>, s: CalleeSavedSet) -> Arc<[bool]> {
    let mut units = vec![false; t.units.len()];
    for &r in t.callee_saved_set(s).saves.iter() {
        for &u in t.units(r) {
            if let Some(m) = units.get_mut(u.index()) {
                *m = true;
            }
        }
    }
    units.into()
}

/// The callee-saved set of a function whose code names no register mask:
/// the tables do not say which convention a function follows, so it is
/// looked up by the names the four targets give their C convention, else
/// chosen by `fallback`.
fn default_csr(t: &TargetInfo<'_>, fallback: CsrFallback) -> Option<CalleeSavedSet> {
    let named = ["CSR_64", "CSR_AArch64_AAPCS", "HexagonCSR", "CSR"]
        .iter()
        .find_map(|n| t.find_callee_saved(n));
    named.or_else(|| {
        let fallback_applies = match fallback {
            CsrFallback::FirstSet => !t.callee_saved.is_empty(),
            CsrFallback::OnlySet => t.callee_saved.len() == 1,
        };
        fallback_applies.then(|| CalleeSavedSet::new(0))
    })
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

/// The base allocation orders of every class for one function, as Basic,
/// Greedy and PBQP read them: a view of the target's `TargetOrders`
/// for the function's facts.
#[derive(Clone, Debug)]
pub struct ClassOrders {
    /// The orders of the function's combination of facts.
    variant: Arc<OrderVariant>,
}

impl ClassOrders {
    /// Orders for `func` alone, for a caller without a target context
    /// (an adapter, a test): builds the target's `TargetOrders` for this
    /// one function, which the allocators share per target instead.
    pub fn for_function(t: &TargetInfo<'_>, func: &MachineFunction) -> ClassOrders {
        ClassOrders::new(t, &TargetOrders::new(t), func)
    }

    /// Orders for `func` from the target's `orders`: its callee-saved set is
    /// the one its calls' register masks name (the calling convention in
    /// use), else the target's usual one ([`CsrFallback::FirstSet`]).
    pub(crate) fn new(
        t: &TargetInfo<'_>,
        orders: &TargetOrders,
        func: &MachineFunction,
    ) -> ClassOrders {
        // One walk for the first named register mask and for whether the
        // function calls (what `function_info` walks for); a named mask
        // answers both, so the walk stops there.
        let mut mask = None;
        let mut calls = false;
        'walk: for i in func.inst_ids() {
            let inst = func.inst(i);
            if !calls
                && let Op::Target(o) = inst.op
                && t.instrs
                    .get(o.index())
                    .is_some_and(|d| d.is(InstrFlags::CALL))
            {
                calls = true;
            }
            for o in &inst.operands {
                if let Operand::RegMask(m) = o {
                    calls = true;
                    if let crate::ir::RegMask::Named(s) = m {
                        mask = Some(*s);
                        break 'walk;
                    }
                }
            }
        }
        let csr = orders.function_csr(t, mask, CsrFallback::FirstSet);
        let info = function_info_with(t, func, calls);
        let k = orders.variant(t, &info, csr);
        ClassOrders {
            variant: orders.variant_at(k),
        }
    }

    /// The base order of class `c` (empty for an unknown class).
    pub fn base(&self, t: &TargetInfo<'_>, c: RegClass) -> &[Reg] {
        self.variant.order(t, c)
    }

    /// Registers reserved in this function, indexed by register.
    pub fn reserved(&self) -> &[bool] {
        self.variant.reserved()
    }

    /// The function's callee-saved set, if the target has one.
    pub fn csr(&self) -> Option<CalleeSavedSet> {
        self.variant.csr()
    }

    /// How many registers class `c` may allocate in this function.
    pub fn num_allocatable(&self, t: &TargetInfo<'_>, c: RegClass) -> usize {
        self.base(t, c).len()
    }
}

/// What an order selector and the reserved-register tables need to know
/// about `func`: whether it calls (a call instruction, a register mask or
/// `hasCalls` in its `frameInfo`), whether it keeps a frame pointer
/// (variable-sized stack objects, a taken frame address, an opaque
/// stack-pointer adjustment, a realigned stack, or the frame-pointer
/// policy: the IR attribute, else calls on a target whose tables say every
/// non-leaf function keeps one), and whether it needs a base pointer (see
/// [`function_info_with`]).
pub fn function_info(t: &TargetInfo<'_>, func: &MachineFunction) -> FunctionInfo {
    let calls = !func.frame_info.has_calls
        && func.inst_ids().any(|i| {
            let inst = func.inst(i);
            let call = match inst.op {
                Op::Target(o) => t
                    .instrs
                    .get(o.index())
                    .is_some_and(|d| d.is(InstrFlags::CALL)),
                // A call by its register mask, below.
                Op::Generic(_) | Op::Unknown(_) => false,
            };
            call || inst
                .operands
                .iter()
                .any(|o| matches!(o, Operand::RegMask(_)))
        });
    function_info_with(t, func, calls)
}

/// [`function_info`] for a caller that has walked the code itself:
/// `calls` says whether some instruction is a call or has a register mask
/// operand (it need not be known when the function's `frameInfo` already
/// says it calls, [`crate::ir::FrameInfo::has_calls`]). The fast
/// allocator learns this in its own gathering walk, so the code is not
/// walked a second time.
///
/// The function needs a base pointer when the stack pointer cannot
/// address its locals (variable-sized objects or an opaque stack-pointer
/// adjustment) and the frame pointer cannot either: its stack is realigned
/// (`maxAlignment` above the target's `stack_alignment`), or its local
/// frame is at least the target's `base_pointer_frame_size` bytes.
pub fn function_info_with(t: &TargetInfo<'_>, func: &MachineFunction, calls: bool) -> FunctionInfo {
    let frame = &func.frame_info;
    let has_calls = frame.has_calls || calls;
    let var_sized = func
        .stack
        .iter()
        .any(|o| o.kind == StackObjectKind::VariableSized);
    // LLVM's `TargetOptions::DisableFramePointerElim`: the IR attribute
    // when the file has one, else the target's default policy.
    let kept_by_policy = match func.frame_pointer {
        Some(FramePointerKind::All) => true,
        Some(FramePointerKind::NonLeaf) => has_calls,
        Some(FramePointerKind::None) => false,
        None => has_calls && t.frame_pointer_in_non_leaf,
    };
    // LLVM realigns the stack (`TargetRegisterInfo::shouldRealignStack`)
    // when an object asks for more alignment than the calling convention
    // guarantees the stack; the incoming stack pointer is then rounded down
    // by an amount unknown when compiling, so arguments and the caller's
    // frame are reached through the frame pointer.
    let realigned = t.stack_alignment > 0 && frame.max_alignment > u64::from(t.stack_alignment);
    // The stack pointer moves by amounts unknown when compiling: it cannot
    // address locals.
    let sp_moves = var_sized || frame.opaque_sp_adjustment;
    // Then neither can the frame pointer, when the locals' distance from it
    // is unknown (realigned) or, on targets that say so, likely too far
    // for its short negative offsets (X86RegisterInfo and
    // AArch64RegisterInfo `hasBasePointer`): a third register, the base
    // pointer, keeps the realigned frame's address.
    let large_frame = t.base_pointer_frame_size > 0
        && frame.local_frame_size >= u64::from(t.base_pointer_frame_size);
    // x86's `hasFP` lists an opaque stack-pointer adjustment too; on
    // AArch64 the flag is not set, so counting it everywhere only reserves
    // more.
    let has_frame_pointer = var_sized
        || frame.frame_address_taken
        || frame.opaque_sp_adjustment
        || realigned
        || kept_by_policy;
    let has_base_pointer = sp_moves && (realigned || large_frame);
    FunctionInfo {
        has_frame_pointer,
        has_base_pointer,
        has_calls,
        features: func.features,
        // Realigning for a spill slot needs the frame pointer (and the base
        // pointer, where the stack pointer moves) that only a function
        // already keeping them has reserved (X86RegisterInfo's
        // canRealignStack).
        spill_realign: !t.spill_realign_needs_frame_pointer
            || (has_frame_pointer && (!sp_moves || has_base_pointer)),
    }
}

/// The registers reserved in `func`, by register: the tables' reserved set
/// and, when the function keeps a frame pointer or needs a base pointer,
/// the frame-pointer or base-pointer registers (see [`function_info`] and
/// [`TargetInfo::reserved_in`]).
pub fn function_reserved(t: &TargetInfo<'_>, func: &MachineFunction) -> Vec<bool> {
    t.reserved_in(&function_info(t, func))
}

/// The registers one virtual register may take, hints first.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AllocationOrder {
    /// The registers in order; each once.
    pub regs: Vec<Reg>,
    /// How many of `regs` (at the front) are hints.
    pub hints: usize,
}

impl AllocationOrder {
    /// The order for `v` of class `c`: hints from `analyses` (virtual hints
    /// through `assigned`, which gives the register a virtual register has
    /// now), then the base order.
    pub fn new(
        t: &TargetInfo<'_>,
        orders: &ClassOrders,
        c: RegClass,
        v: VReg,
        analyses: &Analyses,
        assigned: impl Fn(VReg) -> Option<Reg>,
    ) -> AllocationOrder {
        let base = orders.base(t, c);
        let mut regs = Vec::with_capacity(base.len());
        push_hints(base, v, analyses, assigned, &mut regs);
        let hints = regs.len();
        // Most ranges have no hint in the order: the base order as it is,
        // copied in one go.
        if hints == 0 {
            regs.extend_from_slice(base);
        } else {
            for &r in base {
                if !regs[..hints].contains(&r) {
                    regs.push(r);
                }
            }
        }
        AllocationOrder { regs, hints }
    }

    /// The order [`AllocationOrder::new`] makes, without making it: its
    /// hints are pushed onto `hints` (cleared first), and class `c`'s base
    /// order is returned; the order is the hints, then the base order
    /// without them. For a caller walking the order once.
    pub fn parts<'o>(
        t: &TargetInfo<'_>,
        orders: &'o ClassOrders,
        c: RegClass,
        v: VReg,
        analyses: &Analyses,
        assigned: impl Fn(VReg) -> Option<Reg>,
        hints: &mut Vec<Reg>,
    ) -> &'o [Reg] {
        let base = orders.base(t, c);
        hints.clear();
        push_hints(base, v, analyses, assigned, hints);
        base
    }

    /// Whether `r` is one of the hints.
    pub fn is_hint(&self, r: Reg) -> bool {
        self.regs[..self.hints].contains(&r)
    }
}

/// Pushes onto `regs` the registers of `v`'s copy hints (virtual ones
/// through `assigned`) that are in `base`, each once, heaviest first.
fn push_hints(
    base: &[Reg],
    v: VReg,
    analyses: &Analyses,
    assigned: impl Fn(VReg) -> Option<Reg>,
    regs: &mut Vec<Reg>,
) {
    let Some(h) = analyses.hints.get(v.index()) else {
        return;
    };
    for &(hint, _) in h {
        let r = match hint {
            Hint::Phys(r) => Some(r),
            Hint::Virt(w) => assigned(w),
        };
        if let Some(r) = r
            && base.contains(&r)
            && !regs.contains(&r)
        {
            regs.push(r);
        }
    }
}
