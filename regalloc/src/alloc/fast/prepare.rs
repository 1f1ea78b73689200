//! Function-wide facts the fast allocator gathers in one pass before allocating: which virtual registers may live across blocks, use and definition counts, definition lists for copy hints, allocation orders.

use super::block::{NO_REG, NO_SLOT};
use crate::alloc::{AllocError, AllocErrorKind};
use crate::ir::{Generic, Inst, MachineFunction, Op, Operand, RegFlags, RegMask, RegRef};
use crate::target::{
    AllocOrderPolicy, CalleeSavedSet, InstrFlags, Reg, RegClass, RegFlags as PhysFlags, TargetInfo,
};

/// "No block" / "several blocks" markers for the per-register block summary.
const NO_BLOCK: u32 = u32::MAX;
const MANY_BLOCKS: u32 = u32::MAX - 1;

/// Per virtual register, everything the allocator reads or writes about
/// it, in one record: a register met in an operand costs one cache line,
/// not one per table (there were ten), and a function one allocation.
#[derive(Copy, Clone)]
pub(super) struct VState {
    /// Its register now (`block::NO_REG` when none).
    pub phys: u32,
    /// Its spill slot id (`block::NO_SLOT` when none yet).
    pub slot: u32,
    /// The block epoch in which it was last met (see `block::Fast`).
    pub live_epoch: u32,
    /// Use operands not yet rewritten.
    pub uses: u32,
    /// Definition operands not yet rewritten.
    pub defs: u32,
    /// Its class index, or `NO_CLASS` / `BAD_CLASS` (never for a register
    /// that reaches allocation: the gathering pass rejects those).
    pub class: u32,
    /// It may be live across a block boundary, so it lives in a stack slot
    /// there. Grows during allocation (LLVM's limit of 8 uses or
    /// definitions also marks a register).
    pub across: bool,
    /// `block::LIVE_OUT` / `block::RELOADED`.
    pub flags: u8,
}

/// `VState::class` of a register declared without a class.
pub(super) const NO_CLASS: u32 = u32::MAX;
/// `VState::class` of a register whose class the target does not have.
pub(super) const BAD_CLASS: u32 = u32::MAX - 1;

/// Per virtual register, what only the gathering walk needs.
#[derive(Copy, Clone)]
struct Seen {
    use_block: u32,
    def_block: u32,
    defined_in: u32,
    /// A use before any definition in its block reads a value from
    /// elsewhere (or from a previous trip around a loop); such a value
    /// must be in a slot at the block's start even when LLVM's simpler
    /// block test would not say so.
    upward_exposed: bool,
}

/// What the allocator knows about a function before it starts.
pub(super) struct Facts {
    /// Per virtual register: see [`VState`].
    pub v: Vec<VState>,
    /// Definitions by register: `def_list[def_start[v]..def_start[v + 1]]`
    /// are the instructions defining `v`, in layout order.
    pub def_start: Vec<u32>,
    /// See `def_start`.
    pub def_list: Vec<Inst>,
    /// Per physical register: reserved (or constant), so never allocated and
    /// never tracked.
    pub reserved: Vec<bool>,
    /// The registers `reserved` marks.
    pub reserved_list: Vec<Reg>,
    /// Per class: the allocation order for this function (reserved
    /// registers removed, callee-saved registers last unless the class says
    /// otherwise); empty for classes no virtual register uses.
    pub orders: Vec<Box<[Reg]>>,
    /// The id the next spill slot gets (`%stack.N`).
    pub next_slot: u32,
}

impl Facts {
    /// Scans `func` once.
    pub fn gather(t: &TargetInfo<'_>, func: &MachineFunction) -> Result<Facts, AllocError> {
        let nv = func.vregs.len();
        let nc = t.classes.len();
        // Classes read once, in order: the walk below then looks up four
        // bytes per operand instead of a 64-byte `VRegData` line.
        let mut v: Vec<VState> = func
            .vregs
            .iter()
            .map(|d| VState {
                phys: NO_REG,
                slot: NO_SLOT,
                live_epoch: 0,
                uses: 0,
                defs: 0,
                class: match d.class {
                    None => NO_CLASS,
                    Some(c) if c.index() >= nc => BAD_CLASS,
                    Some(c) => c.0,
                },
                across: false,
                flags: 0,
            })
            .collect();
        let mut seen = vec![
            Seen {
                use_block: NO_BLOCK,
                def_block: NO_BLOCK,
                defined_in: NO_BLOCK,
                upward_exposed: false,
            };
            nv
        ];
        let mut used_class = vec![false; nc];
        // A call instruction or a register mask operand anywhere (what
        // `order::function_info` would otherwise find by walking the code
        // again). When `frameInfo` already says the function calls, the
        // walk need not look up each instruction's description for it.
        let frame = crate::alloc::order::frame_flags(func);
        let mut has_calls = frame.has_calls;
        let mut mask_set: Option<CalleeSavedSet> = None;
        // (register, instruction) per virtual definition, in layout order;
        // sorted into `def_list` below without a second walk over the code.
        // Nearly every instruction defines at most one register: sized
        // for that, it seldom grows.
        let mut defs: Vec<(u32, Inst)> = Vec::with_capacity(func.insts.len());

        let note = |at: &mut u32, b: u32| {
            if *at == NO_BLOCK {
                *at = b;
            } else if *at != b {
                *at = MANY_BLOCKS;
            }
        };

        for b in func.block_ids() {
            let bn = b.0;
            for &i in &func.block(b).insts {
                let data = func.inst(i);
                match data.op {
                    Op::Generic(Generic::Phi) => {
                        return Err(AllocError::new(
                            AllocErrorKind::Unsupported,
                            &func.name,
                            "PHI instructions must be eliminated before the fast allocator runs",
                        )
                        .at(b, i));
                    }
                    Op::Target(o) if !has_calls => {
                        has_calls = t
                            .instrs
                            .get(o.index())
                            .is_some_and(|d| d.is(InstrFlags::CALL))
                    }
                    Op::Target(_) => {}
                    Op::Generic(_) => {}
                }
                if is_debug(data.op) {
                    has_calls |= data
                        .operands
                        .iter()
                        .any(|o| matches!(o, Operand::RegMask(_)));
                    continue;
                }
                let mut any_vdef = false;
                for (k, o) in data.operands.iter().enumerate() {
                    match o {
                        Operand::Reg(r) => {
                            let RegRef::Virt(vr) = r.reg else { continue };
                            let vi = vr.index();
                            if vi >= nv {
                                return Err(AllocError::new(
                                    AllocErrorKind::Unsupported,
                                    &func.name,
                                    format!("operand {k} names %{} which is not declared", vr.0),
                                )
                                .at(b, i));
                            }
                            let c = v[vi].class;
                            if c == NO_CLASS {
                                return Err(AllocError::new(
                                    AllocErrorKind::Unsupported,
                                    &func.name,
                                    format!("operand {k}: %{} has no register class", vr.0),
                                )
                                .at(b, i));
                            }
                            if c == BAD_CLASS {
                                return Err(AllocError::new(
                                    AllocErrorKind::Unsupported,
                                    &func.name,
                                    format!("operand {k}: %{} has an unknown class", vr.0),
                                )
                                .at(b, i));
                            }
                            used_class[c as usize] = true;
                            any_vdef |= r.is_def();
                            if !r.is_def() {
                                v[vi].uses += 1;
                                let sv = &mut seen[vi];
                                note(&mut sv.use_block, bn);
                                if !r.flags.has(RegFlags::UNDEF) && sv.defined_in != bn {
                                    sv.upward_exposed = true;
                                }
                            }
                        }
                        Operand::RegMask(m) => {
                            has_calls = true;
                            if let RegMask::Named(s) = m {
                                mask_set.get_or_insert(*s);
                            }
                        }
                        _ => {}
                    }
                }
                // Definitions after uses: an instruction reads before it
                // writes. (Many instructions define no virtual register:
                // no second look at their operands then.)
                if !any_vdef {
                    continue;
                }
                for o in &data.operands {
                    let Some(r) = o.as_reg() else { continue };
                    let RegRef::Virt(vr) = r.reg else { continue };
                    if !r.is_def() {
                        continue;
                    }
                    let vi = vr.index();
                    let sv = &mut seen[vi];
                    // A sub-register definition without `undef` keeps the other lanes.
                    if r.sub.is_some() && !r.flags.has(RegFlags::UNDEF) && sv.defined_in != bn {
                        sv.upward_exposed = true;
                    }
                    defs.push((vr.0, i));
                    v[vi].defs += 1;
                    note(&mut sv.def_block, bn);
                    sv.defined_in = bn;
                }
            }
        }

        for (x, sv) in v.iter_mut().zip(&seen) {
            let (u, d) = (sv.use_block, sv.def_block);
            x.across = u == MANY_BLOCKS
                || (u != NO_BLOCK && d != NO_BLOCK && d != u)
                || (sv.upward_exposed && d != NO_BLOCK);
        }
        drop(seen);

        // Definition lists, counted then filled (compressed rows).
        let mut def_start = vec![0u32; nv + 1];
        for (k, x) in v.iter().enumerate() {
            def_start[k + 1] = def_start[k] + x.defs;
        }
        let mut fill = def_start.clone();
        let mut def_list = vec![Inst(0); def_start[nv] as usize];
        for &(w, i) in &defs {
            let slot = &mut fill[w as usize];
            def_list[*slot as usize] = i;
            *slot += 1;
        }

        let fi = crate::alloc::order::function_info_with(t, func, frame, has_calls);
        let (reserved, reserved_list) = reserved_or_constant(t, fi.has_frame_pointer);
        let csr = function_csr(t, mask_set);
        let mut csr_unit = vec![false; t.units.len()];
        if let Some(s) = csr {
            for &r in t.callee_saved_set(s).saves.iter() {
                for &u in t.units(r) {
                    csr_unit[u.index()] = true;
                }
            }
        }
        // One pass per used class: usable registers go straight into the
        // order, callee-saved ones into a tail appended after (no iterator
        // chains re-testing every register twice).
        let mut orders: Vec<Box<[Reg]>> = Vec::with_capacity(t.classes.len());
        let mut head: Vec<Reg> = Vec::new();
        let mut tail: Vec<Reg> = Vec::new();
        for (c, &used) in used_class.iter().enumerate() {
            if !used {
                orders.push(Box::default());
                continue;
            }
            let c = RegClass::new(c);
            let raw = t.alloc_order(c, &fi);
            let csr_last = matches!(t.class(c).order_policy, AllocOrderPolicy::CalleeSavedLast);
            head.clear();
            tail.clear();
            for &r in raw {
                if reserved[r.index()] || t.reg(r).flags.contains(PhysFlags::ARTIFICIAL) {
                    continue;
                }
                if csr_last && t.units(r).iter().any(|u| csr_unit[u.index()]) {
                    tail.push(r);
                } else {
                    head.push(r);
                }
            }
            head.extend_from_slice(&tail);
            orders.push(head.as_slice().into());
        }

        let next_slot = func.stack.iter().map(|o| o.id + 1).max().unwrap_or(0);
        Ok(Facts {
            v,
            def_start,
            def_list,
            reserved,
            reserved_list,
            orders,
            next_slot,
        })
    }

    /// The instructions defining `v`.
    #[inline]
    pub fn defs_of(&self, v: usize) -> &[Inst] {
        &self.def_list[self.def_start[v] as usize..self.def_start[v + 1] as usize]
    }
}

/// Per register: reserved in this function (what
/// [`TargetInfo::reserved_in`] says) or constant; and the list of those
/// registers. Built from the tables' bit sets a word at a time: every
/// function asks, and AArch64 has 700 registers, nearly all of them
/// neither.
fn reserved_or_constant(t: &TargetInfo<'_>, frame_pointer: bool) -> (Vec<bool>, Vec<Reg>) {
    let n = t.regs.len();
    let mut out = vec![false; n];
    let mut list = Vec::with_capacity(64);
    let fp: &[u32] = if frame_pointer { &t.frame_pointer } else { &[] };
    for w in 0..t.reserved.len().max(fp.len()) {
        let mut bits = t.reserved.get(w).copied().unwrap_or(0) | fp.get(w).copied().unwrap_or(0);
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
        if d.flags.contains(PhysFlags::CONSTANT) && !out[r] {
            out[r] = true;
            list.push(Reg::new(r));
        }
    }
    (out, list)
}

/// Whether `op` is a debug pseudo-instruction (never allocated for).
pub(super) fn is_debug(op: Op) -> bool {
    matches!(
        op,
        Op::Generic(
            Generic::DbgValue
                | Generic::DbgValueList
                | Generic::DbgInstrRef
                | Generic::DbgPhi
                | Generic::DbgLabel
        )
    )
}

/// The callee-saved set of the function itself, which decides which
/// registers go last in allocation orders. The tables do not say which
/// convention a function follows; the mask its calls carry is the C
/// convention of the target, and without calls the set is looked up by the
/// names the four targets give their C convention.
fn function_csr(t: &TargetInfo<'_>, from_calls: Option<CalleeSavedSet>) -> Option<CalleeSavedSet> {
    if from_calls.is_some() {
        return from_calls;
    }
    for name in ["CSR_64", "CSR_AArch64_AAPCS", "HexagonCSR", "CSR"] {
        if let Some(s) = t.find_callee_saved(name) {
            return Some(s);
        }
    }
    (t.callee_saved.len() == 1).then(|| CalleeSavedSet::new(0))
}
