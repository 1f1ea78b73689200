//! Function-wide facts the fast allocator gathers in one pass before allocating: which virtual registers may live across blocks, use and definition counts, definition lists for copy hints, allocation orders.

use super::block::{NO_REG, NO_SLOT};
use super::cache::{Scratch, Tables};
use crate::alloc::order::{CsrFallback, TargetOrders};
use crate::ir::{
    Block, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegMask, RegOperand,
    RegRef, VReg,
};
use crate::target::{CalleeSavedSet, RegClass, TargetInfo};
use crate::{AllocError, AllocErrorKind};

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
    /// Where its definitions are in `Facts::def_list`:
    /// `def_list[def_at..def_end]`, in layout order.
    pub def_at: u32,
    /// See `def_at`.
    pub def_end: u32,
    /// Its class index; `UNSEEN` until the gathering walk meets it in an
    /// operand (registers named by no operand, or only by debug ones, stay
    /// so).
    pub class: u16,
    /// It may be live across a block boundary, so it lives in a stack slot
    /// there. Grows during allocation (LLVM's limit of 8 uses or
    /// definitions also marks a register).
    pub across: bool,
    /// `block::LIVE_OUT` / `block::RELOADED`.
    pub flags: u8,
}

/// A register declared without a class (rejected when an operand names it).
const NO_CLASS: u16 = u16::MAX;
/// A register whose class the target does not have (rejected likewise).
const BAD_CLASS: u16 = u16::MAX - 1;
/// `VState::class` of a register no operand has named yet.
const UNSEEN: u16 = u16::MAX - 2;

/// A register's state before the gathering walk meets it.
const UNSEEN_STATE: VState = VState {
    phys: NO_REG,
    slot: NO_SLOT,
    live_epoch: 0,
    uses: 0,
    defs: 0,
    def_at: 0,
    def_end: 0,
    class: UNSEEN,
    across: false,
    flags: 0,
};

/// Per virtual register, what only the gathering walk needs.
#[derive(Copy, Clone)]
pub(super) struct Seen {
    use_block: u32,
    def_block: u32,
    defined_in: u32,
    /// A use before any definition in its block reads a value from
    /// elsewhere (or from a previous trip around a loop); such a value
    /// must be in a slot at the block's start even when LLVM's simpler
    /// block test would not say so.
    upward_exposed: bool,
}

/// One definition of a virtual register: the instruction, and what it
/// copies when it is a full COPY (no sub-registers on either side). Copy
/// hints follow these while allocating; reading them here, from the
/// instruction the gathering walk is looking at anyway, spares the walk a
/// visit to a defining instruction far above (in a large function, a
/// cache miss per value).
#[derive(Copy, Clone)]
pub(super) struct Def {
    /// The defining instruction.
    pub inst: Inst,
    /// The register a full COPY reads, or `None`.
    pub copy_of: Option<RegRef>,
}

/// The register `data` copies when it is a full COPY: two register
/// operands without sub-registers.
#[inline]
fn full_copy_source(data: &crate::ir::InstData) -> Option<RegRef> {
    if !data.op.is_copy() {
        return None;
    }
    match (data.operands.first(), data.operands.get(1)) {
        (Some(Operand::Reg(a)), Some(Operand::Reg(b))) if a.sub.is_none() && b.sub.is_none() => {
            Some(b.reg)
        }
        _ => None,
    }
}

/// What the allocator knows about a function before it starts.
pub(super) struct Facts {
    /// Per virtual register: see [`VState`].
    pub v: Vec<VState>,
    /// Definitions by register (see `VState::def_at`).
    pub def_list: Vec<Def>,
    /// Which of `Tables::reserving` applies (the function's frame-pointer
    /// and base-pointer registers).
    pub reserving: usize,
    /// The allocation orders of this function: `TargetOrders::variant_at`
    /// of it, filled for every class a virtual register uses.
    pub variant: usize,
    /// The id the next spill slot gets (`%stack.N`).
    pub next_slot: u32,
    /// The function's facts its spill code depends on (subtarget, whether
    /// a slot may be realigned).
    pub info: crate::target::FunctionInfo,
}

impl Facts {
    /// Scans `func` once.
    pub fn gather(
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        tables: &Tables,
        orders: &TargetOrders,
        scratch: &mut Scratch,
    ) -> Result<Facts, AllocError> {
        let mut walk = Gathering::start(func, t.classes.len(), scratch);
        let facts = match walk.walk(func, tables) {
            Ok(()) => Ok(walk.facts(
                t,
                func,
                tables,
                orders,
                std::mem::take(&mut scratch.def_list),
            )),
            Err(e) => Err(e),
        };
        walk.give_back(scratch);
        facts
    }

    /// Gives the buffers back for the next function.
    pub fn give_back(self, scratch: &mut Scratch) {
        scratch.v = self.v;
        scratch.def_list = self.def_list;
    }
}

/// The gathering walk: the tables it fills (buffers lent by `Scratch`)
/// and what it has found so far.
struct Gathering {
    /// Per virtual register: see [`VState`].
    v: Vec<VState>,
    /// Per virtual register: see [`Seen`].
    seen: Vec<Seen>,
    /// The registers the code names, in the order met.
    touched: Vec<u32>,
    /// Per class: used by a virtual register; the classes so marked are
    /// listed in `classes`, so that neither marking nor unmarking visits
    /// every class.
    used_class: Vec<bool>,
    classes: Vec<u32>,
    /// A call instruction or a register mask operand anywhere (what
    /// `order::function_info` would otherwise find by walking the code
    /// again). When `frameInfo` already says the function calls, the
    /// walk need not look up each instruction's description for it.
    has_calls: bool,
    /// The callee-saved set the first named register mask names.
    mask_set: Option<CalleeSavedSet>,
    /// (register, instruction) per virtual definition, in layout order;
    /// sorted into `def_list` afterwards without a second walk over the
    /// code.
    defs: Vec<(u32, Def)>,
}

impl Gathering {
    /// Takes the buffers from `scratch` and readies them for `func`, whose
    /// target has `nc` classes.
    fn start(func: &MachineFunction, nc: usize, scratch: &mut Scratch) -> Gathering {
        let nv = func.vregs.len();
        // Only the registers the code names are looked at: a function at
        // -O0 declares more virtual registers than it has instructions, many
        // of them named nowhere. Each starts unseen (a fill, not a read of
        // its 64-byte `VRegData`); the first operand naming it reads its
        // class and starts its gathering record, and lists it in `touched`
        // for the per-register pass afterwards.
        let mut v = std::mem::take(&mut scratch.v);
        v.clear();
        v.resize(nv, UNSEEN_STATE);
        let mut seen = std::mem::take(&mut scratch.seen);
        if seen.len() < nv {
            seen.resize(nv, NOT_SEEN);
        }
        let mut touched = std::mem::take(&mut scratch.touched);
        touched.clear();
        let mut used_class = std::mem::take(&mut scratch.used_class);
        if used_class.len() != nc {
            used_class.clear();
            used_class.resize(nc, false);
        }
        let mut classes = std::mem::take(&mut scratch.classes);
        classes.clear();
        // Nearly every instruction defines at most one register: room for
        // that up front, so that the first large function does not grow
        // the buffer step by step.
        let mut defs = std::mem::take(&mut scratch.defs);
        defs.clear();
        defs.reserve(func.insts.len());
        Gathering {
            v,
            seen,
            touched,
            used_class,
            classes,
            has_calls: func.frame_info.has_calls,
            mask_set: None,
            defs,
        }
    }

    /// Gives the buffers back to `scratch` (what is left of `v` included).
    fn give_back(self, scratch: &mut Scratch) {
        scratch.v = self.v;
        scratch.seen = self.seen;
        scratch.touched = self.touched;
        scratch.used_class = self.used_class;
        scratch.classes = self.classes;
        scratch.defs = self.defs;
    }

    /// Visits every instruction of `func` in layout order.
    fn walk(&mut self, func: &MachineFunction, tables: &Tables) -> Result<(), AllocError> {
        for b in func.block_ids() {
            for &i in &func.block(b).insts {
                self.visit(func, tables, b, i)?;
            }
        }
        Ok(())
    }

    /// Visits instruction `i` of block `b`: its calls, then its uses, then
    /// its definitions (an instruction reads before it writes).
    #[inline]
    fn visit(
        &mut self,
        func: &MachineFunction,
        tables: &Tables,
        b: Block,
        i: Inst,
    ) -> Result<(), AllocError> {
        let data = func.inst(i);
        self.note_call(func, tables, b, i, data)?;
        if is_debug(data.op) {
            self.has_calls |= has_reg_mask(data);
            return Ok(());
        }
        // Virtual definitions met, in operand order (register, keeps
        // other lanes), handled after the uses; more than fit here
        // send the instruction through a second look at its
        // operands.
        let mut vdefs = [(0u32, false); 4];
        let mut n_vdefs = 0;
        for (k, o) in data.operands.iter().enumerate() {
            match o {
                Operand::Reg(r) => {
                    let RegRef::Virt(vr) = r.reg else { continue };
                    self.meet(func, b, i, k, vr)?;
                    if r.is_def() {
                        if let Some(d) = vdefs.get_mut(n_vdefs) {
                            *d = (vr.0, keeps_lanes(r));
                        }
                        n_vdefs += 1;
                    } else {
                        self.note_use(vr.index(), r, b.0);
                    }
                }
                Operand::RegMask(m) => {
                    self.has_calls = true;
                    if let RegMask::Named(s) = m {
                        self.mask_set.get_or_insert(*s);
                    }
                }
                _ => {}
            }
        }
        if n_vdefs == 0 {
            return Ok(());
        }
        let copy_of = full_copy_source(data);
        if n_vdefs <= vdefs.len() {
            for &(w, keeps) in &vdefs[..n_vdefs] {
                self.define(w, keeps, Def { inst: i, copy_of }, b.0);
            }
        } else {
            for o in &data.operands {
                let Some(r) = o.as_reg() else { continue };
                let RegRef::Virt(vr) = r.reg else { continue };
                if r.is_def() {
                    self.define(vr.0, keeps_lanes(r), Def { inst: i, copy_of }, b.0);
                }
            }
        }
        Ok(())
    }

    /// Refuses a PHI, and notes whether instruction `i` is a call.
    #[inline]
    fn note_call(
        &mut self,
        func: &MachineFunction,
        tables: &Tables,
        b: Block,
        i: Inst,
        data: &InstData,
    ) -> Result<(), AllocError> {
        match data.op {
            Op::Generic(Generic::Phi) => {
                return Err(AllocError::new(
                    AllocErrorKind::Unsupported,
                    &func.name,
                    "PHI instructions must be eliminated before the fast allocator runs",
                )
                .at(b, i));
            }
            Op::Target(o) if !self.has_calls => self.has_calls = tables.is_call(o),
            Op::Target(_) => {}
            Op::Generic(_) => {}
            // A call by its register mask.
            Op::Unknown(_) => self.has_calls |= has_reg_mask(data),
        }
        Ok(())
    }

    /// Meets `vr` in operand `k` of instruction `i`: refuses an undeclared
    /// register or one without a usable class; on first sight reads its
    /// class and starts its record; marks its class used.
    #[inline]
    fn meet(
        &mut self,
        func: &MachineFunction,
        b: Block,
        i: Inst,
        k: usize,
        vr: VReg,
    ) -> Result<(), AllocError> {
        let vi = vr.index();
        if vi >= self.v.len() {
            return Err(AllocError::new(
                AllocErrorKind::Unsupported,
                &func.name,
                format!(
                    "operand {k} names %{} which is not declared",
                    func.vreg_number(vr)
                ),
            )
            .at(b, i));
        }
        let x = &mut self.v[vi];
        if x.class == UNSEEN {
            let nc = self.used_class.len();
            x.class = match func.vregs[vi].class {
                None => NO_CLASS,
                Some(c) if c.index() >= nc.min(usize::from(UNSEEN)) => BAD_CLASS,
                Some(c) => c.0 as u16,
            };
            self.seen[vi] = NOT_SEEN;
            self.touched.push(vr.0);
        }
        let c = x.class;
        if c == NO_CLASS {
            return Err(AllocError::new(
                AllocErrorKind::Unsupported,
                &func.name,
                format!("operand {k}: {} has no register class", func.vreg_text(vr)),
            )
            .at(b, i));
        }
        if c == BAD_CLASS {
            return Err(AllocError::new(
                AllocErrorKind::Unsupported,
                &func.name,
                format!("operand {k}: {} has an unknown class", func.vreg_text(vr)),
            )
            .at(b, i));
        }
        if !self.used_class[usize::from(c)] {
            self.used_class[usize::from(c)] = true;
            self.classes.push(u32::from(c));
        }
        Ok(())
    }

    /// Counts a use `r` of register `vi` in block `bn`.
    #[inline]
    fn note_use(&mut self, vi: usize, r: &RegOperand, bn: u32) {
        self.v[vi].uses += 1;
        let sv = &mut self.seen[vi];
        note_block(&mut sv.use_block, bn);
        if !r.flags.has(RegFlags::UNDEF) && sv.defined_in != bn {
            sv.upward_exposed = true;
        }
    }

    /// Records definition `def` of register `w` in block `bn`.
    #[inline]
    fn define(&mut self, w: u32, keeps_lanes: bool, def: Def, bn: u32) {
        let sv = &mut self.seen[w as usize];
        // A sub-register definition without `undef` keeps the other lanes.
        if keeps_lanes && sv.defined_in != bn {
            sv.upward_exposed = true;
        }
        self.defs.push((w, def));
        self.v[w as usize].defs += 1;
        note_block(&mut sv.def_block, bn);
        sv.defined_in = bn;
    }

    /// The facts, once the walk is done: the block test and definition
    /// lists per register, the allocation orders of the classes used.
    fn facts(
        &mut self,
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        tables: &Tables,
        orders: &TargetOrders,
        def_list: Vec<Def>,
    ) -> Facts {
        let def_list = self.place_definitions(def_list);
        let fi = crate::alloc::order::function_info_with(t, func, self.has_calls);
        // The mask the function's calls carry is the C convention of the
        // target; without calls, the one the tables name as such (and no
        // guess between several sets).
        let csr = orders.function_csr(t, self.mask_set, CsrFallback::OnlySet);
        let variant = orders.variant(t, &fi, csr);
        for &c in &self.classes {
            orders.fill(t, variant, RegClass::new(c as usize));
            self.used_class[c as usize] = false;
        }
        let (reserving, _) = tables.reserving_index(
            t,
            fi.has_frame_pointer,
            fi.has_base_pointer,
            t.reserved_groups(fi.features),
        );
        let next_slot = func.stack.iter().map(|o| o.id + 1).max().unwrap_or(0);
        Facts {
            v: std::mem::take(&mut self.v),
            def_list,
            reserving,
            variant,
            next_slot,
            info: fi,
        }
    }

    /// One pass over the registers the code names: the block test, and
    /// where each one's definitions go in `def_list` (rows in the order
    /// the registers were met), filled from `defs`.
    fn place_definitions(&mut self, mut def_list: Vec<Def>) -> Vec<Def> {
        // `def_at` starts at the row's end and comes down to its start as
        // the row is filled from its end.
        let mut total = 0;
        for &w in &self.touched {
            let (x, sv) = (&mut self.v[w as usize], &self.seen[w as usize]);
            let (u, d) = (sv.use_block, sv.def_block);
            x.across = u == MANY_BLOCKS
                || (u != NO_BLOCK && d != NO_BLOCK && d != u)
                || (sv.upward_exposed && d != NO_BLOCK);
            total += x.defs;
            x.def_at = total;
            x.def_end = total;
        }
        def_list.clear();
        def_list.resize(
            total as usize,
            Def {
                inst: Inst(0),
                copy_of: None,
            },
        );
        // Backwards, so that each row ends up in layout order.
        for &(w, d) in self.defs.iter().rev() {
            let at = &mut self.v[w as usize].def_at;
            *at -= 1;
            def_list[*at as usize] = d;
        }
        def_list
    }
}

/// A register's gathering record before the walk meets it.
const NOT_SEEN: Seen = Seen {
    use_block: NO_BLOCK,
    def_block: NO_BLOCK,
    defined_in: NO_BLOCK,
    upward_exposed: false,
};

/// Notes block `b` in a per-register block summary: the block, or
/// `MANY_BLOCKS` once a second one is met.
#[inline]
fn note_block(at: &mut u32, b: u32) {
    if *at == NO_BLOCK {
        *at = b;
    } else if *at != b {
        *at = MANY_BLOCKS;
    }
}

/// Whether definition `r` keeps the other lanes: a sub-register
/// definition without `undef`.
#[inline]
fn keeps_lanes(r: &RegOperand) -> bool {
    r.sub.is_some() && !r.flags.has(RegFlags::UNDEF)
}

/// Whether `data` has a register mask operand.
#[inline]
fn has_reg_mask(data: &InstData) -> bool {
    data.operands
        .iter()
        .any(|o| matches!(o, Operand::RegMask(_)))
}

/// Whether `op` is a debug pseudo-instruction (never allocated for).
pub(super) fn is_debug(op: Op) -> bool {
    op.is_debug()
}
