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
use crate::ir::{FramePointerKind, MachineFunction, Op, Operand, VReg};
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
        let info = function_info_with(t, func, frame_flags(func), calls);
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

/// The facts of the function's `frameInfo:` (kept verbatim by the MIR
/// reader) that [`function_info`] reads.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct FrameFlags {
    /// A line `hasCalls: true`.
    pub has_calls: bool,
    /// A line `isFrameAddressTaken: true`.
    pub frame_address_taken: bool,
    /// A line `hasOpaqueSPAdjustment: true`: something (inline assembly,
    /// a call sequence) moves the stack pointer by an amount the compiler
    /// does not know, so locals cannot be addressed from it.
    pub opaque_sp_adjustment: bool,
    /// `maxAlignment: N`: the largest alignment in bytes a stack object
    /// asks for (the largest such line; 0 without one).
    pub max_alignment: u64,
    /// `localFrameSize: N`: the bytes of the function's local objects (the
    /// largest such line; 0 without one).
    pub local_frame_size: u64,
}

/// The keys of `frameInfo` [`frame_flags`] reads: three flags (`true` or
/// not), then two byte counts.
const FRAME_KEYS: [&str; 5] = [
    "hasCalls",
    "isFrameAddressTaken",
    "hasOpaqueSPAdjustment",
    "maxAlignment",
    "localFrameSize",
];

/// The [`FrameFlags`] of `func` (each key first on its line, any colons
/// and surrounding whitespace allowed). Every function is asked, and the
/// text has some twenty lines: one pass over it for all keys rather than
/// a trim and compare per line and key.
pub fn frame_flags(func: &MachineFunction) -> FrameFlags {
    let mut f = FrameFlags::default();
    for k in &func.source_keys {
        if let crate::ir::SourceKey::Verbatim { key: name, text } = k
            && &**name == "frameInfo"
        {
            frame_flags_add(&mut f, text);
        }
    }
    f
}

/// Adds to `f` what one `frameInfo` text says: a flag is set when a line
/// sets it, a byte count is the largest a line gives.
pub(crate) fn frame_flags_add(f: &mut FrameFlags, text: &str) {
    each_key_value(text, &FRAME_KEYS, |k, v| match k {
        0 => f.has_calls |= v == "true",
        1 => f.frame_address_taken |= v == "true",
        2 => f.opaque_sp_adjustment |= v == "true",
        3 => f.max_alignment = f.max_alignment.max(int_value(v)),
        _ => f.local_frame_size = f.local_frame_size.max(int_value(v)),
    });
}

/// Per key: whether some line of `text` is the key, then colons, then
/// `true`, with only whitespace around (`text.lines().any(|l| line_is(l,
/// key))`).
#[cfg(test)]
fn frame_flags_in<const N: usize>(text: &str, keys: [&str; N]) -> [bool; N] {
    let mut found = [false; N];
    each_key_value(text, &keys, |k, v| found[k] |= v == "true");
    found
}

/// Per key: the largest integer some line of `text` gives it (the key,
/// then colons, then the number, with only whitespace around), 0 when
/// none does (`text.lines().filter_map(|l| line_int(l, key)).max()`).
#[cfg(test)]
fn frame_ints_in<const N: usize>(text: &str, keys: [&str; N]) -> [u64; N] {
    let mut found = [0; N];
    each_key_value(text, &keys, |k, v| found[k] = found[k].max(int_value(v)));
    found
}

/// Calls `found(k, value)` for every line of `text` that is `keys[k]`,
/// then colons, then `value`, with whitespace trimmed around each (what
/// [`line_value`] says of the line). One pass over the bytes for all keys;
/// a line is trimmed and compared only when its first non-blank byte is a
/// key's first, and nothing is allocated.
fn each_key_value(text: &str, keys: &[&str], mut found: impl FnMut(usize, &str)) {
    let b = text.as_bytes();
    let mut start = 0;
    while start < b.len() {
        let end = next_newline(b, start);
        let line = &b[start..end];
        let lead = line
            .iter()
            .take_while(|&&c| c < 0x80 && (c as char).is_whitespace())
            .count();
        if let Some(&c) = line.get(lead) {
            for (k, key) in keys.iter().enumerate() {
                // A non-ASCII byte may begin Unicode whitespace, which
                // `trim` would remove: such a line is compared too.
                if (c >= 0x80 || c == key.as_bytes()[0])
                    && let Some(v) = line_value(&text[start..end], key)
                {
                    found(k, v);
                }
            }
        }
        start = end + 1;
    }
}

/// The byte count a `frameInfo` value gives (0 when it is not an unsigned
/// integer: the fact is then unknown, and 0 asks for nothing).
pub(crate) fn int_value(v: &str) -> u64 {
    v.parse().unwrap_or(0)
}

/// The index of the first `\n` in `b` at or after `from`, or `b.len()`
/// (`memchr`: a byte-by-byte search costs more than the rest of reading
/// the text).
fn next_newline(b: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &b[from.min(b.len())..]).map_or(b.len(), |p| from + p)
}

/// What line `l` gives `key`: the rest of the line after the key and its
/// colons, trimmed, when the line starts (after whitespace) with the key
/// (`lines()` would strip a trailing `\r`, which `trim` removes anyway).
pub(crate) fn line_value<'l>(l: &'l str, key: &str) -> Option<&'l str> {
    l.trim()
        .strip_prefix(key)
        .map(|r| r.trim_start_matches(':').trim())
}

/// Whether line `l` says `key: true`.
#[cfg(test)]
fn line_is(l: &str, key: &str) -> bool {
    line_value(l, key) == Some("true")
}

/// The integer line `l` gives `key`, if it says `key: N`.
#[cfg(test)]
fn line_int(l: &str, key: &str) -> Option<u64> {
    line_value(l, key).and_then(|v| v.parse().ok())
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
    let frame = frame_flags(func);
    let calls = !frame.has_calls
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
    function_info_with(t, func, frame, calls)
}

/// [`function_info`] for a caller that has read `frame` and walked the
/// code itself: `calls` says whether some instruction is a call or has a
/// register mask operand (it need not be known when `frame.has_calls`
/// already says so). The fast allocator learns this in its own gathering
/// walk, so the code is not walked a second time.
///
/// The function needs a base pointer when the stack pointer cannot
/// address its locals (variable-sized objects or an opaque stack-pointer
/// adjustment) and the frame pointer cannot either: its stack is realigned
/// (`maxAlignment` above the target's `stack_alignment`), or its local
/// frame is at least the target's `base_pointer_frame_size` bytes.
pub fn function_info_with(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    frame: FrameFlags,
    calls: bool,
) -> FunctionInfo {
    let has_calls = frame.has_calls || calls;
    let var_sized = func.stack.iter().any(|o| &*o.kind == "variable-sized");
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

#[cfg(test)]
mod tests {
    use super::{frame_flags_in, frame_ints_in, line_int, line_is, next_newline};

    /// The search finds what a byte loop finds.
    #[test]
    fn next_newline_finds_the_first_newline() {
        let texts: [&[u8]; 5] = [
            b"",
            b"\n",
            b"abcdefgh\nijklmnopqrstuvw\n\nxyz",
            b"\x8a\x0a\xff\x0b\x09\n\n\x01\x00\n0123456789abcdef",
            b"no newline at all, long enough for several chunks",
        ];
        for b in texts {
            for from in 0..=b.len() {
                let want = b[from..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| from + p);
                assert_eq!(next_newline(b, from), want, "{b:?} from {from}");
            }
        }
    }

    /// The byte scan says what trimming and comparing every line says.
    #[test]
    fn frame_flags_match_the_line_by_line_reading() {
        let keys = ["hasCalls", "isFrameAddressTaken"];
        let texts = [
            "",
            "\n  hasCalls:        true\n",
            "  hasCalls:        false\n  isFrameAddressTaken: true",
            "hasCalls: true",
            "  hasCallsX: true\n  xhasCalls: true\n",
            "  hasCalls:: true \r\n",
            "\t hasCalls:true\n",
            "\u{a0}hasCalls: true\n",
            "\u{2003}isFrameAddressTaken: true\n",
            "  hasCalls: true, more\n",
            "  hasCalls\n  : true\n",
            "  hasTailCall: true\n  adjustsStack: true\n",
            "  isFrameAddressTaken:\ttrue\t\n  hasCalls: TRUE\n",
            "\u{b}hasCalls: true\n",
            "  stackSize:       0\n  maxAlignment:    8\n  hasCalls:        true",
            "0123456\n  hasCalls: true\n\n\n\n\n\n\n\n\n  isFrameAddressTaken: true\n",
        ];
        for text in texts {
            let want = keys.map(|k| text.lines().any(|l| line_is(l, k)));
            assert_eq!(frame_flags_in(text, keys), want, "{text:?}");
        }
    }

    /// The byte scan reads the integers that parsing every line reads.
    #[test]
    fn frame_ints_match_the_line_by_line_reading() {
        let keys = ["maxAlignment", "localFrameSize"];
        let texts = [
            "",
            "  maxAlignment:    32\n",
            "  stackSize:       0\n  maxAlignment:    8\n  hasCalls:        true\n  localFrameSize:  256\n",
            "maxAlignment: 16",
            "  maxAlignmentX: 64\n  xmaxAlignment: 64\n",
            "  maxAlignment:: 64 \r\n",
            "\t localFrameSize:255\n",
            "\u{a0}maxAlignment: 128\n",
            "  maxAlignment: -4\n  localFrameSize: 12abc\n",
            "  maxAlignment: 4\n  maxAlignment: 32\n  maxAlignment: 8\n",
            "  localFrameSize: 18446744073709551615\n  localFrameSize: 18446744073709551616\n",
            "  maxAlignment\n  : 32\n",
            "  maxAlignment: 32, more\n",
        ];
        for text in texts {
            let want = keys.map(|k| {
                text.lines()
                    .filter_map(|l| line_int(l, k))
                    .max()
                    .unwrap_or(0)
            });
            assert_eq!(frame_ints_in(text, keys), want, "{text:?}");
        }
        assert_eq!(frame_ints_in(texts[2], keys), [8, 256]);
    }
}
