//! Live intervals of virtual registers (with sub-register lane sub-ranges) and of register units, plus the register-mask slots of calls.

use super::cfg::Cfg;
use super::ranges::{Access, LiveRange, RangeBuilder};
use super::slots::{SlotIndex, SlotIndexes};
use crate::ir::{
    Block, Inst, MachineFunction, Operand, RegFlags, RegMask, RegOperand, RegRef, VReg,
};
use crate::target::{LaneMask, Reg, RegUnit, TargetInfo};

/// The live range of the lanes `lanes` of a virtual register.
#[derive(Clone, PartialEq, Debug)]
pub struct SubRange {
    /// The lanes this range describes.
    pub lanes: LaneMask,
    /// Their liveness.
    pub range: LiveRange,
}

/// A virtual register's live interval.
#[derive(Clone, Debug)]
pub struct LiveInterval {
    /// The register.
    pub vreg: VReg,
    /// Liveness of the whole register (any lane).
    pub range: LiveRange,
    /// Per-lane liveness, present when the register has sub-register
    /// operands and the intervals were asked for sub-ranges
    /// ([`LiveIntervals::sub_ranges`]).
    pub subranges: Vec<SubRange>,
    /// Whether some operand of the register names a sub-register (the
    /// register has sub-register structure), whether or not `subranges`
    /// were computed.
    pub has_sub_operands: bool,
    /// Spill weight (`f32::INFINITY` when unspillable); 0 until
    /// [`super::weights`] computes it.
    pub weight: f32,
    /// Blocks the register is live into.
    pub live_in_blocks: Vec<Block>,
    /// Which interval of the function this is: a number
    /// [`LiveIntervals`] gives each interval it stores
    /// ([`LiveIntervals::set_vreg`]), never twice, so that an answer
    /// remembered about one interval is never taken for another's (an
    /// interval is never changed in place once stored: a split or a spill
    /// makes new ones). 0: not stored, so not to be remembered by.
    pub(crate) generation: u32,
}

/// Intervals are equal when they describe the same liveness and weight,
/// whichever generation each is.
impl PartialEq for LiveInterval {
    fn eq(&self, o: &Self) -> bool {
        self.vreg == o.vreg
            && self.range == o.range
            && self.subranges == o.subranges
            && self.has_sub_operands == o.has_sub_operands
            && self.weight == o.weight
            && self.live_in_blocks == o.live_in_blocks
    }
}

impl LiveInterval {
    /// The interval's generation (see [`LiveIntervals::set_vreg`]); 0
    /// when it was not stored by [`LiveIntervals`].
    pub fn generation(&self) -> u32 {
        self.generation
    }
}

/// A call's register mask: where, and what it preserves.
#[derive(Clone, PartialEq, Debug)]
pub struct RegMaskSlot {
    /// The call's register slot.
    pub at: SlotIndex,
    /// The preserved registers.
    pub mask: RegMask,
}

/// All live intervals of a function.
#[derive(Clone, Debug)]
pub struct LiveIntervals {
    /// The numbering the intervals use.
    pub slots: SlotIndexes,
    /// Interval of each virtual register (`None` when it has no operands).
    pub vregs: Vec<Option<LiveInterval>>,
    /// Live range of each register unit, with the blocks it is live into
    /// (empty for units never mentioned).
    pub units: Vec<(LiveRange, Vec<Block>)>,
    /// Register masks of calls, in order.
    pub regmasks: Vec<RegMaskSlot>,
    /// The live range each split register had before its first split, by
    /// original register: its values say which original definition a
    /// split product's value comes from (LLVM keeps the original interval
    /// for rematerialization the same way).
    pub originals: Vec<Option<LiveRange>>,
    /// Whether intervals of registers with sub-register operands carry
    /// per-lane sub-ranges. Only an allocator that follows lanes reads
    /// them (LLVM computes them only where the target tracks sub-register
    /// liveness); elsewhere they are a few percent of the allocation time
    /// for nothing.
    pub sub_ranges: bool,
    /// The generation the last interval stored got
    /// ([`LiveInterval::generation`]).
    last_generation: u32,
}

/// The instructions accessing each virtual register (debug uses aside),
/// each once with its block, in layout order: those of register `v` are
/// `list[start[v]..start[v + 1]]`.
pub(crate) struct Users {
    /// Where each register's run starts, and the end.
    pub start: Vec<usize>,
    /// The runs, register after register.
    pub list: Vec<(Inst, Block)>,
}

impl Users {
    /// The instructions accessing `v`.
    pub fn of(&self, v: usize) -> &[(Inst, Block)] {
        &self.list[self.start[v]..self.start[v + 1]]
    }
}

/// What one instruction does to one virtual register, all operands folded.
#[derive(Copy, Clone, Default, Debug)]
struct VAccess {
    /// Lanes read by plain uses.
    use_lanes: u64,
    /// A sub-register def without `undef` also reads the register.
    partial_def_read: bool,
    write_lanes: u64,
    writes: bool,
    early_clobber: bool,
}

impl VAccess {
    /// Folds one operand of the register (whose lanes are `all`) into
    /// the access.
    fn add(&mut self, t: &TargetInfo<'_>, all: LaneMask, r: &crate::ir::RegOperand) {
        let lanes = sub_lanes(t, all, r.sub);
        let undef = r.flags.has(RegFlags::UNDEF);
        if r.is_def() {
            self.writes = true;
            self.write_lanes |= lanes;
            self.early_clobber |= r.flags.has(RegFlags::EARLY_CLOBBER);
            self.partial_def_read |= r.sub.is_some() && !undef;
        } else if !undef {
            self.use_lanes |= lanes;
        }
    }
}

/// What step 1 of [`LiveIntervals::with_users`] finds in the code, in
/// layout order: per instruction, each virtual register once (its
/// operands there folded into one access), each register unit read or
/// written once, and each register mask.
struct CodeAccesses {
    /// (register, instruction, block, slot, access). One vector for the
    /// function instead of one per register (tens of thousands of small
    /// vectors growing one push at a time).
    vregs: Vec<(VReg, Inst, Block, SlotIndex, VAccess)>,
    /// Register unit accesses the same way.
    units: Vec<(RegUnit, Access)>,
    /// Per virtual register: some operand names a sub-register of it.
    has_sub: Vec<bool>,
    /// Register masks of calls, in order.
    regmasks: Vec<RegMaskSlot>,
}

/// Step 1 of [`LiveIntervals::with_users`]: every access of `f`'s code
/// (debug instructions and debug uses aside); `untracked` is the per-unit
/// cache of [`untracked_cached`].
fn gather_accesses(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    slots: &SlotIndexes,
    untracked: &mut [u8],
) -> CodeAccesses {
    let nv = f.vregs.len();
    // Room for two accesses an instruction, so that it rarely grows.
    let mut vflat: Vec<(VReg, Inst, Block, SlotIndex, VAccess)> =
        Vec::with_capacity(2 * f.insts.len());
    let mut uflat: Vec<(RegUnit, Access)> = Vec::with_capacity(f.insts.len());
    let mut has_sub = vec![false; nv];
    let mut regmasks = Vec::new();
    let mut per_inst_v: Vec<(VReg, VAccess)> = Vec::new();
    let mut per_inst_u: Vec<(RegUnit, Access)> = Vec::new();
    for (b, bd) in f.blocks.iter().enumerate() {
        let block = Block::new(b);
        for &i in &bd.insts {
            let Some(inst) = f.insts.get(i.index()) else {
                continue;
            };
            if inst.op.is_debug_or_probe() {
                continue;
            }
            let Some(at) = slots.inst(i) else { continue };
            per_inst_v.clear();
            per_inst_u.clear();
            for o in &inst.operands {
                match o {
                    Operand::RegMask(m) => regmasks.push(RegMaskSlot {
                        at: at.reg_slot(false),
                        mask: m.clone(),
                    }),
                    Operand::Reg(r) if !r.flags.has(RegFlags::DEBUG_USE) => match r.reg {
                        RegRef::Virt(v) if v.index() < nv => {
                            if r.sub.is_some() {
                                has_sub[v.index()] = true;
                            }
                            note_vreg_access(t, f, &mut per_inst_v, v, r);
                        }
                        RegRef::Phys(p) if p.index() < t.regs.len() => {
                            let p = phys_operand_reg(t, p, r.sub);
                            note_unit_accesses(t, &mut per_inst_u, untracked, p, r, block, at);
                        }
                        _ => {}
                    },
                    _ => {}
                }
            }
            for &(v, a) in &per_inst_v {
                vflat.push((v, i, block, at, a));
            }
            uflat.extend(per_inst_u.iter().filter(|(_, a)| a.reads || a.writes));
        }
    }
    CodeAccesses {
        vregs: vflat,
        units: uflat,
        has_sub,
        regmasks,
    }
}

/// Folds operand `r` of virtual register `v` into the instruction's
/// access of `v` in `per_inst` (added when it is the first).
fn note_vreg_access(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    per_inst: &mut Vec<(VReg, VAccess)>,
    v: VReg,
    r: &RegOperand,
) {
    let k = match per_inst.iter().position(|e| e.0 == v) {
        Some(k) => k,
        None => {
            per_inst.push((v, VAccess::default()));
            per_inst.len() - 1
        }
    };
    per_inst[k].1.add(t, vreg_lanes(t, f, v), r);
}

/// Folds operand `r`, naming physical register `p`, into the
/// instruction's access of each unit of `p` in `per_inst` (added when it
/// is the first): a definition writes, a use reads unless it is `undef`
/// or the unit is untracked (`untracked`, see [`untracked_cached`]).
fn note_unit_accesses(
    t: &TargetInfo<'_>,
    per_inst: &mut Vec<(RegUnit, Access)>,
    untracked: &mut [u8],
    p: Reg,
    r: &RegOperand,
    block: Block,
    at: SlotIndex,
) {
    let def = r.is_def();
    let undef = r.flags.has(RegFlags::UNDEF);
    let ec = r.flags.has(RegFlags::EARLY_CLOBBER);
    for &u in t.units(p) {
        let k = match per_inst.iter().position(|e| e.0 == u) {
            Some(k) => k,
            None => {
                per_inst.push((
                    u,
                    Access {
                        block,
                        at,
                        reads: false,
                        writes: false,
                        early_clobber: false,
                    },
                ));
                per_inst.len() - 1
            }
        };
        let a = &mut per_inst[k].1;
        if def {
            a.writes = true;
            a.early_clobber |= ec;
        } else if !undef && !untracked_cached(t, untracked, u) {
            a.reads = true;
        }
    }
}

/// Step 2 of [`LiveIntervals::with_users`]: each virtual register's
/// interval from its accesses `vflat` (see [`CodeAccesses`]), and the
/// instructions accessing it.
// The same separate inputs as `build_interval`'s, and the accesses.
#[allow(clippy::too_many_arguments)]
fn vreg_intervals(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    cfg: &Cfg,
    slots: &SlotIndexes,
    vflat: Vec<(VReg, Inst, Block, SlotIndex, VAccess)>,
    has_sub: &[bool],
    sub_ranges: bool,
    rb: &mut RangeBuilder,
) -> (Vec<Option<LiveInterval>>, Users) {
    let nv = f.vregs.len();
    let mut vregs = Vec::with_capacity(nv);
    // The builder's list of accesses: grown once, not once a function.
    let mut acc = rb.take_accesses();
    // A counting sort by register, stable: each register's accesses stay
    // in layout order.
    let mut vstart = vec![0usize; nv + 1];
    for a in &vflat {
        vstart[a.0.index() + 1] += 1;
    }
    for v in 0..nv {
        vstart[v + 1] += vstart[v];
    }
    let mut vacc: Vec<(Block, SlotIndex, VAccess)> =
        vec![(Block::new(0), SlotIndex(0), VAccess::default()); vflat.len()];
    // The same order for the spill weights: each register's
    // instructions with their blocks.
    let mut users: Vec<(Inst, Block)> = vec![(Inst::new(0), Block::new(0)); vflat.len()];
    let mut next = vstart.clone();
    for &(v, i, block, at, a) in &vflat {
        vacc[next[v.index()]] = (block, at, a);
        users[next[v.index()]] = (i, block);
        next[v.index()] += 1;
    }
    drop(vflat);
    for v in 0..nv {
        let list = &vacc[vstart[v]..vstart[v + 1]];
        if list.is_empty() {
            vregs.push(None);
            continue;
        }
        let vr = VReg::new(v);
        let all = vreg_lanes(t, f, vr);
        vregs.push(Some(build_interval(
            rb, cfg, slots, vr, all, list, has_sub[v], sub_ranges, &mut acc,
        )));
    }
    rb.keep_accesses(acc);
    (
        vregs,
        Users {
            start: vstart,
            list: users,
        },
    )
}

/// Per register unit of `f`'s target, the blocks it is live into (each
/// once, in block order), untracked units aside (`untracked`, see
/// [`untracked_cached`]).
fn unit_live_in_starts(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    untracked: &mut [u8],
) -> Vec<Vec<Block>> {
    let mut unit_starts: Vec<Vec<Block>> = vec![Vec::new(); t.units.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        for li in &bd.live_ins {
            if li.reg.index() >= t.regs.len() {
                continue;
            }
            for &u in t.units(li.reg) {
                if !untracked_cached(t, untracked, u)
                    && unit_starts[u.index()].last() != Some(&Block::new(b))
                {
                    unit_starts[u.index()].push(Block::new(b));
                }
            }
        }
    }
    unit_starts
}

/// Step 3 of [`LiveIntervals::with_users`]: each register unit's range
/// from its accesses `uflat` (see [`CodeAccesses`]) and the blocks it is
/// live into (`unit_starts`, by unit).
fn unit_ranges(
    cfg: &Cfg,
    slots: &SlotIndexes,
    uflat: &[(RegUnit, Access)],
    unit_starts: &[Vec<Block>],
    rb: &mut RangeBuilder,
) -> Vec<(LiveRange, Vec<Block>)> {
    let nu = unit_starts.len();
    // The unit accesses by unit, stable (a counting sort, as for the
    // virtual registers).
    let mut ustart = vec![0usize; nu + 1];
    for a in uflat {
        ustart[a.0.index() + 1] += 1;
    }
    for u in 0..nu {
        ustart[u + 1] += ustart[u];
    }
    let mut uacc: Vec<Access> = Vec::with_capacity(uflat.len());
    if let Some(&(_, first)) = uflat.first() {
        uacc.resize(uflat.len(), first);
    }
    let mut next = ustart.clone();
    for &(u, a) in uflat {
        uacc[next[u.index()]] = a;
        next[u.index()] += 1;
    }
    (0..nu)
        .map(|u| {
            let list = &uacc[ustart[u]..ustart[u + 1]];
            if list.is_empty() && unit_starts[u].is_empty() {
                (LiveRange::default(), Vec::new())
            } else {
                rb.build(cfg, slots, list, &unit_starts[u])
            }
        })
        .collect()
}

/// The interval of `v` from its accesses (in layout order, several
/// operands of one instruction folded into one); `has_sub` says whether
/// some operand names a sub-register, and lane sub-ranges are computed
/// when it does and `sub_ranges` asks for them; `acc` is scratch space.
// The builder's scratch, the numbering and the register's facts are
// separate inputs of both callers; a struct would only move the list.
#[allow(clippy::too_many_arguments)]
fn build_interval(
    rb: &mut RangeBuilder,
    cfg: &Cfg,
    slots: &SlotIndexes,
    v: VReg,
    all: LaneMask,
    list: &[(Block, SlotIndex, VAccess)],
    has_sub: bool,
    sub_ranges: bool,
    acc: &mut Vec<Access>,
) -> LiveInterval {
    acc.clear();
    acc.extend(list.iter().map(|&(block, at, a)| Access {
        block,
        at,
        reads: a.use_lanes != 0 || a.partial_def_read,
        writes: a.writes,
        early_clobber: a.early_clobber,
    }));
    let (range, live_in_blocks) = rb.build(cfg, slots, acc, &[]);
    let mut subranges = Vec::new();
    if has_sub && sub_ranges {
        for m in lane_partition(
            all.0,
            list.iter().flat_map(|x| [x.2.use_lanes, x.2.write_lanes]),
        ) {
            acc.clear();
            acc.extend(list.iter().filter_map(|&(block, at, a)| {
                let reads = a.use_lanes & m != 0;
                let writes = a.write_lanes & m != 0;
                (reads || writes).then_some(Access {
                    block,
                    at,
                    reads,
                    writes,
                    early_clobber: a.early_clobber,
                })
            }));
            let (r, _) = rb.build(cfg, slots, acc, &[]);
            subranges.push(SubRange {
                lanes: LaneMask(m),
                range: r,
            });
        }
    }
    LiveInterval {
        vreg: v,
        range,
        subranges,
        has_sub_operands: has_sub,
        weight: 0.0,
        live_in_blocks,
        generation: 0,
    }
}

/// The lanes of virtual register `v` (its class's mask; 1 when the class
/// has none, i.e. no sub-registers).
pub fn vreg_lanes(t: &TargetInfo<'_>, f: &MachineFunction, v: VReg) -> LaneMask {
    let m = f
        .vregs
        .get(v.index())
        .and_then(|d| d.class)
        .filter(|c| c.index() < t.classes.len())
        .map_or(LaneMask::NONE, |c| t.class(c).lane_mask);
    if m == LaneMask::NONE { LaneMask(1) } else { m }
}

/// The lanes sub-register index `sub` of `v` covers (all of `v` without one).
fn sub_lanes(t: &TargetInfo<'_>, all: LaneMask, sub: Option<crate::target::SubRegIndex>) -> u64 {
    match sub.filter(|s| s.index() < t.sub_reg_indices.len()) {
        Some(s) => {
            let m = t.sub_reg_index(s).lane_mask.0 & all.0;
            if m == 0 { all.0 } else { m }
        }
        None => all.0,
    }
}

/// Whether unit `u` belongs to a reserved or constant register, whose uses
/// LLVM does not track (only its definitions).
pub fn unit_untracked(t: &TargetInfo<'_>, u: RegUnit) -> bool {
    t.unit_roots(u)
        .any(|r| t.is_reserved(r) || t.reg(r).flags.contains(crate::target::RegFlags::CONSTANT))
}

/// [`unit_untracked`] of `u`, remembered in `known` (by unit: 0 not yet
/// asked, 1 tracked, 2 untracked).
fn untracked_cached(t: &TargetInfo<'_>, known: &mut [u8], u: RegUnit) -> bool {
    match known[u.index()] {
        0 => {
            let untracked = unit_untracked(t, u);
            known[u.index()] = 1 + u8::from(untracked);
            untracked
        }
        k => k == 2,
    }
}

/// [`unit_untracked`] of unit `u`, plus (when `reserved` says so, by
/// register) whether it is a unit of one of the function's reserved
/// registers.
pub fn unit_untracked_in(t: &TargetInfo<'_>, reserved: &[bool], u: usize) -> bool {
    let untracked = |r: Reg| {
        t.is_reserved(r)
            || t.reg(r).flags.contains(crate::target::RegFlags::CONSTANT)
            || reserved.get(r.index()).copied().unwrap_or(false)
    };
    let d = &t.units[u];
    untracked(d.root) || d.root2.is_some_and(untracked)
}

/// The register a physical operand names (its sub-register when it has one).
pub fn phys_operand_reg(
    t: &TargetInfo<'_>,
    r: Reg,
    sub: Option<crate::target::SubRegIndex>,
) -> Reg {
    sub.and_then(|s| t.sub_reg(r, s)).unwrap_or(r)
}

impl LiveIntervals {
    /// Computes every interval of `f`, with lane sub-ranges.
    pub fn new(t: &TargetInfo<'_>, f: &MachineFunction, cfg: &Cfg) -> LiveIntervals {
        LiveIntervals::with_sub_ranges(t, f, cfg, true)
    }

    /// Computes every interval of `f`, with lane sub-ranges only when
    /// `sub_ranges` (see [`LiveIntervals::sub_ranges`]).
    pub fn with_sub_ranges(
        t: &TargetInfo<'_>,
        f: &MachineFunction,
        cfg: &Cfg,
        sub_ranges: bool,
    ) -> LiveIntervals {
        let mut rb = RangeBuilder::default();
        LiveIntervals::with_users(t, f, cfg, sub_ranges, &mut rb).0
    }

    /// [`LiveIntervals::with_sub_ranges`], with the instructions accessing
    /// each register, found on the way, for the spill weights; `rb` is the
    /// caller's scratch (kept from one function to the next, its storage
    /// grows once rather than once a function).
    pub(crate) fn with_users(
        t: &TargetInfo<'_>,
        f: &MachineFunction,
        cfg: &Cfg,
        sub_ranges: bool,
        rb: &mut RangeBuilder,
    ) -> (LiveIntervals, Users) {
        let slots = SlotIndexes::new(f);
        // Per unit, whether it is untracked, found when first asked: a
        // function names few of a target's units.
        let mut untracked = vec![0u8; t.units.len()];
        // 1. Every access of the code, in layout order.
        let CodeAccesses {
            vregs: vflat,
            units: uflat,
            has_sub,
            regmasks,
        } = gather_accesses(t, f, &slots, &mut untracked);
        rb.reserve_blocks(cfg.num_blocks());
        // 2. The virtual registers' intervals, and their users.
        let (vregs, users) = vreg_intervals(t, f, cfg, &slots, vflat, &has_sub, sub_ranges, rb);
        // 3. The register units' ranges, from their accesses and the
        // blocks' live-ins.
        let unit_starts = unit_live_in_starts(t, f, &mut untracked);
        let units = unit_ranges(cfg, &slots, &uflat, &unit_starts, rb);
        (
            LiveIntervals::stamped(LiveIntervals {
                slots,
                vregs,
                units,
                regmasks,
                originals: Vec::new(),
                sub_ranges,
                last_generation: 0,
            }),
            users,
        )
    }

    /// `li` with a generation given to each interval, in register order.
    fn stamped(mut li: LiveIntervals) -> LiveIntervals {
        for iv in li.vregs.iter_mut().flatten() {
            li.last_generation += 1;
            iv.generation = li.last_generation;
        }
        li
    }

    /// Stores `iv` as `v`'s interval (room made for `v`), with a new
    /// generation: an interval made again for a register, or for a new
    /// register, is never taken for one stored before.
    pub fn set_vreg(&mut self, v: VReg, mut iv: LiveInterval) {
        if self.vregs.len() <= v.index() {
            self.vregs.resize(v.index() + 1, None);
        }
        // Past the last number (four billion intervals: not in a function
        // the slot indexes can number), intervals go unstamped, so unmemoized.
        iv.generation = match self.last_generation.checked_add(1) {
            Some(g) => {
                self.last_generation = g;
                g
            }
            None => 0,
        };
        self.vregs[v.index()] = Some(iv);
    }

    /// Remembers `range` as original register `v`'s range before its first
    /// split (later calls for `v` change nothing).
    pub fn keep_original(&mut self, v: VReg, range: &LiveRange) {
        if self.originals.len() <= v.index() {
            // Room for every register there is now at once: the registers
            // split first are the original ones, asked for one by one.
            let n = (v.index() + 1).max(self.vregs.len());
            self.originals.resize(n, None);
        }
        self.originals[v.index()].get_or_insert_with(|| range.clone());
    }

    /// Original register `v`'s range before its first split, if it was split.
    pub fn original(&self, v: VReg) -> Option<&LiveRange> {
        self.originals.get(v.index()).and_then(|r| r.as_ref())
    }

    /// The interval of `v`.
    pub fn vreg(&self, v: VReg) -> Option<&LiveInterval> {
        self.vregs.get(v.index()).and_then(|i| i.as_ref())
    }

    /// The virtual registers live into block `b`, sorted (derived from
    /// the intervals: a register is live in when its range covers the
    /// block start).
    pub fn live_in_vregs(&self, b: Block) -> Vec<VReg> {
        self.vregs
            .iter()
            .flatten()
            .filter(|i| i.live_in_blocks.binary_search(&b).is_ok())
            .map(|i| i.vreg)
            .collect()
    }

    /// The virtual registers live out of block `b`, sorted.
    pub fn live_out_vregs(&self, b: Block) -> Vec<VReg> {
        let e = self.slots.block_end(b);
        self.vregs
            .iter()
            .flatten()
            .filter(|i| {
                i.range
                    .segments
                    .iter()
                    .any(|s| s.end == e || (s.start < e && e < s.end))
            })
            .map(|i| i.vreg)
            .collect()
    }
}

impl LiveIntervals {
    /// Computes the interval of `v` again from the instructions of
    /// `blocks` (in any order; every block where `v` is accessed must be
    /// among them), with the current slot indexes, which may include
    /// instructions inserted since the intervals were first computed (the
    /// copies of live-range splitting). The weight is left at 0. `None`
    /// when `v` is not accessed in those blocks.
    pub fn compute_vreg(
        &self,
        t: &TargetInfo<'_>,
        f: &MachineFunction,
        cfg: &Cfg,
        v: VReg,
        blocks: &[Block],
    ) -> Option<LiveInterval> {
        let mut blocks = blocks.to_vec();
        blocks.sort();
        blocks.dedup();
        let insts: Vec<(Inst, Block)> = blocks
            .iter()
            .filter_map(|&b| f.blocks.get(b.index()).map(|bd| (b, bd)))
            .flat_map(|(b, bd)| bd.insts.iter().map(move |&i| (i, b)))
            .collect();
        self.compute_vreg_from(
            t,
            f,
            cfg,
            v,
            &insts,
            &mut RangeBuilder::new(cfg.num_blocks()),
        )
    }

    /// [`LiveIntervals::compute_vreg`] from a list of instructions, each
    /// with its block, that holds every instruction accessing `v` (others
    /// are ignored), with the caller's scratch `rb`: a split that already
    /// knows each new register's users need not scan whole blocks again,
    /// and one builder serves every split of a function.
    pub fn compute_vreg_from(
        &self,
        t: &TargetInfo<'_>,
        f: &MachineFunction,
        cfg: &Cfg,
        v: VReg,
        insts: &[(Inst, Block)],
        rb: &mut RangeBuilder,
    ) -> Option<LiveInterval> {
        let all = vreg_lanes(t, f, v);
        // At most one access an instruction: sized once.
        let mut list: Vec<(Block, SlotIndex, VAccess)> = Vec::with_capacity(insts.len());
        let mut has_sub = false;
        for &(i, b) in insts {
            let Some(inst) = f.insts.get(i.index()) else {
                continue;
            };
            if inst.op.is_debug_or_probe() {
                continue;
            }
            let Some(at) = self.slots.inst(i) else {
                continue;
            };
            let mut a = VAccess::default();
            let mut touched = false;
            for o in &inst.operands {
                let Operand::Reg(r) = o else { continue };
                if r.reg != RegRef::Virt(v) || r.flags.has(RegFlags::DEBUG_USE) {
                    continue;
                }
                touched = true;
                has_sub |= r.sub.is_some();
                a.add(t, all, r);
            }
            if touched {
                list.push((b, at, a));
            }
        }
        if list.is_empty() {
            return None;
        }
        // Callers usually list the instructions in layout order already;
        // two entries never share an index unless they are the same
        // instruction twice, identical, so an unstable sort is exact.
        if !list.is_sorted_by_key(|x| x.1) {
            list.sort_unstable_by_key(|x| x.1);
        }
        rb.reserve_blocks(cfg.num_blocks());
        // The builder's list of accesses, lent for the computation: one
        // allocation for every register the caller recomputes.
        let mut acc = rb.take_accesses();
        let interval = build_interval(
            rb,
            cfg,
            &self.slots,
            v,
            all,
            &list,
            has_sub,
            self.sub_ranges,
            &mut acc,
        );
        rb.keep_accesses(acc);
        Some(interval)
    }
}

/// Splits `all` into the coarsest lane sets that every mask in `masks`
/// either contains or misses (LLVM refines sub-ranges the same way).
pub fn lane_partition(all: u64, masks: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut parts = vec![all];
    for m in masks {
        let m = m & all;
        if m == 0 || m == all {
            continue;
        }
        parts = parts
            .into_iter()
            .flat_map(|p| [p & m, p & !m])
            .filter(|&p| p != 0)
            .collect();
    }
    parts
}
