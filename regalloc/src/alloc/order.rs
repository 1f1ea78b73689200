//! `AllocationOrder`: the registers a virtual register may take, in the order an allocator should try them (hints first).
//!
//! The base order of a class is computed once per function, as LLVM's
//! `RegisterClassInfo::compute` does: the raw order
//! ([`TargetInfo::alloc_order`], which already applies the class's
//! `AltOrderSelect`), minus reserved, constant and artificial registers,
//! with the function's callee-saved registers moved after the others
//! (keeping their relative order) unless the class's
//! [`AllocOrderPolicy`] is `AsWritten`. `alloc_order` does not apply the
//! policy itself, so it is applied exactly once, here.
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

use crate::analysis::{Analyses, Hint};
use crate::ir::{FramePointerKind, MachineFunction, Op, Operand, StackObjectKind, VReg};
use crate::target::{
    AllocOrderPolicy, CalleeSavedSet, FunctionInfo, InstrFlags, Reg, RegClass, RegFlags, TargetInfo,
};

/// The base allocation orders of every class for one function.
#[derive(Clone, Debug)]
pub struct ClassOrders {
    /// Per class: the order, computed on first use.
    orders: Vec<Option<Vec<Reg>>>,
    /// What the order selectors see.
    info: FunctionInfo,
    /// The function's callee-saved set, if the target has one.
    csr: Option<CalleeSavedSet>,
    /// Registers reserved in this function.
    reserved: Vec<bool>,
    /// The register units of the callee-saved registers, marked on first
    /// need (a class that puts them last).
    saved_units: Option<Vec<bool>>,
}

impl ClassOrders {
    /// Orders for `func`: its callee-saved set is the one its calls' register
    /// masks name (the calling convention in use), else the target's first.
    pub fn new(t: &TargetInfo<'_>, func: &MachineFunction) -> ClassOrders {
        // One walk for the first named register mask and for whether the
        // function calls (what `function_info` walks for); a named mask
        // answers both, so the walk stops there.
        let mut csr = None;
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
                        csr = Some(*s);
                        break 'walk;
                    }
                }
            }
        }
        // Without a call the convention is not visible: take the target's
        // usual C convention when it has one of the usual names.
        let csr = csr
            .filter(|s| s.index() < t.callee_saved.len())
            .or_else(|| {
                ["CSR_64", "CSR_AArch64_AAPCS", "HexagonCSR", "CSR"]
                    .iter()
                    .find_map(|n| t.find_callee_saved(n))
            })
            .or_else(|| (!t.callee_saved.is_empty()).then(|| CalleeSavedSet::new(0)));
        let info = function_info_with(t, func, calls);
        ClassOrders {
            reserved: t.reserved_in(&info),
            saved_units: None,
            orders: vec![None; t.classes.len()],
            info,
            csr,
        }
    }

    /// The base order of class `c` (empty for an unknown class).
    pub fn base(&mut self, t: &TargetInfo<'_>, c: RegClass) -> &[Reg] {
        if c.index() >= self.orders.len() {
            return &[];
        }
        if self.orders[c.index()].is_none() {
            let raw = t.alloc_order(c, &self.info);
            let usable: Vec<Reg> = raw
                .iter()
                .copied()
                .filter(|&r| {
                    r.index() < t.regs.len()
                        && !self.reserved.get(r.index()).copied().unwrap_or(true)
                        && !t.reg(r).flags.contains(RegFlags::CONSTANT)
                        && !t.reg(r).flags.contains(RegFlags::ARTIFICIAL)
                })
                .collect();
            let order = match (t.class(c).order_policy, self.csr) {
                (AllocOrderPolicy::CalleeSavedLast, Some(s)) => {
                    // A register counts as callee-saved when it or a register
                    // overlapping it is saved (LLVM tests aliases too):
                    // when it shares a unit with a saved register.
                    let saves = &t.callee_saved_set(s).saves;
                    let units = self.saved_units.get_or_insert_with(|| {
                        let mut marked = vec![false; t.units.len()];
                        for &c in saves.iter() {
                            for u in t.units(c) {
                                if let Some(m) = marked.get_mut(u.index()) {
                                    *m = true;
                                }
                            }
                        }
                        marked
                    });
                    let saved = |r: Reg| {
                        saves.contains(&r)
                            || t.units(r)
                                .iter()
                                .any(|u| units.get(u.index()).copied().unwrap_or(false))
                    };
                    let (csr, rest): (Vec<Reg>, Vec<Reg>) =
                        usable.into_iter().partition(|&r| saved(r));
                    rest.into_iter().chain(csr).collect()
                }
                _ => usable,
            };
            self.orders[c.index()] = Some(order);
        }
        self.orders[c.index()].as_deref().unwrap_or(&[])
    }
}

impl ClassOrders {
    /// Registers reserved in this function, indexed by register.
    pub fn reserved(&self) -> &[bool] {
        &self.reserved
    }

    /// The function's callee-saved set, if the target has one.
    pub fn csr(&self) -> Option<CalleeSavedSet> {
        self.csr
    }

    /// How many registers class `c` may allocate in this function.
    pub fn num_allocatable(&mut self, t: &TargetInfo<'_>, c: RegClass) -> usize {
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
        orders: &mut ClassOrders,
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
        orders: &'o mut ClassOrders,
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
