//! The rewriter: places the spill code, replaces virtual registers by physical ones (sub-register indices composed), removes identity copies and recomputes block live-ins.
//!
//! What it does, in order, as LLVM's `VirtRegRewriter` (plus the placement
//! of spill code that LLVM's spiller does eagerly):
//!
//! 1. spill slots are coloured ([`super::slots`]) and added as `spill-slot`
//!    stack objects;
//! 2. spill, reload and remat instructions get new ids and an [`Edit`] in
//!    the record, and are placed before or after their original instruction;
//! 3. every virtual register operand becomes the physical register assigned
//!    to it, or that register's sub-register for `%v.sub` operands, marked
//!    `renamable`. `killed` flags of rewritten operands are cleared (the
//!    simplest correct choice: a kill flag on a virtual register says
//!    nothing about other values later assigned to the same register).
//!    A sub-register definition also gets an `implicit-def` of the whole
//!    register (`dead` if the definition is), and, when it keeps the other
//!    lanes of a live value, an `implicit` use of it, as LLVM adds them;
//!    with sub-register liveness (Hexagon, registers with sub-ranges) it
//!    gets neither, and a sub-register use of lanes holding no value is
//!    marked `undef`, as LLVM's rewriter does then;
//! 4. identity copies (`$r1 = COPY $r1`) are removed and recorded;
//! 5. every block's `liveins:` is recomputed from the physical liveness of
//!    the allocated code (register units, reserved registers left out),
//!    listing the largest registers whose units are all live.
//!
//! [`rewrite_code`] does the first four; [`update_live_ins`] the fifth, which
//! the pipeline runs once the code no longer changes (after reload reuse).

use rustc_hash::FxHashMap as HashMap;

use crate::alloc::Decisions;
use crate::alloc::spiller::SpillKind;
use crate::alloc::virtmap::VirtRegMap;
use crate::analysis::{Analyses, Slot};
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{
    Block, BlockLiveIn, Inst, MachineFunction, Operand, RegFlags, RegMask, RegOperand, RegRef,
};
use crate::record::{AllocRecord, Edit, FoldedAccess, Removed};
use crate::target::{Reg, RegFlags as PhysFlags, TargetInfo};

use super::slots;

/// Flag of an instruction the spiller took out.
const DEAD: u8 = 1;
/// Flag of a COPY that became an identity copy.
const IDENTITY: u8 = 2;
/// Flag of a split copy left without meaning (taken out or identity).
const DROPPED: u8 = 4;

/// Carries out an allocator's `decisions` on `func` (slots, spill code,
/// operands, removed instructions), filling `record`'s edits and removed
/// instructions. The split copies (already in the blocks) that are left
/// become [`Edit::Copy`]s (or the spill or reload each was folded into);
/// those between one register and itself are dropped. Lane tracking
/// selects LLVM's sub-register-liveness rewriting. The block live-ins are
/// the caller's to recompute ([`update_live_ins`]) once it has changed the
/// code no further.
pub(crate) fn rewrite_code(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    decisions: &Decisions,
    record: &mut AllocRecord,
) -> Result<(), AllocError> {
    let Decisions {
        analyses: an,
        assignment: vrm,
        spill_code: code,
        split_copies,
        lanes: track_lanes,
        ..
    } = decisions;
    let track_lanes = *track_lanes;
    // 1. Slots.
    let (colour_of, colours) = slots::colour(&code.slots);
    let ids = slots::add_objects(func, &colours);
    let slot_id = |s: u32| {
        colour_of
            .get(s as usize)
            .and_then(|&c| ids.get(c))
            .copied()
            .unwrap_or(0)
    };

    // 2. Spill code.
    // Per original instruction, the spill code to place before and after
    // it; indexed by instruction rather than hashed (every instruction of
    // the function is looked up). Without spill code (most small
    // functions) the tables stay empty and the blocks are left alone.
    let spill_code = !code.insertions.is_empty();
    let table = if spill_code { func.insts.len() } else { 0 };
    let mut before: Vec<Vec<Inst>> = vec![Vec::new(); table];
    let mut after: Vec<Vec<Inst>> = vec![Vec::new(); table];
    for ins in &code.insertions {
        let Some(phys) = vrm.phys(ins.vreg) else {
            return Err(AllocError::new(
                AllocErrorKind::OutOfRegisters,
                &func.name,
                format!("spill register %{} was not assigned", ins.vreg.0),
            ));
        };
        let mut data = ins.inst.clone();
        let edit = match ins.kind {
            SpillKind::Spill { slot } | SpillKind::Reload { slot } => {
                let id = slot_id(slot);
                for o in &mut data.operands {
                    if let Operand::Frame(f, _) = o
                        && !f.fixed
                        && f.id == slot
                    {
                        f.id = id;
                    }
                }
                if matches!(ins.kind, SpillKind::Spill { .. }) {
                    Edit::Spill {
                        from: phys,
                        slot: id,
                    }
                } else {
                    Edit::Reload { slot: id, to: phys }
                }
            }
            SpillKind::Remat { vreg, of } => Edit::Remat { vreg, to: phys, of },
        };
        let id = Inst::new(func.insts.len());
        func.insts.push(data);
        record.edits.insert(id, edit);
        let side = if ins.after { &mut after } else { &mut before };
        side[ins.at.index()].push(id);
    }
    // Instruction sets as bits of one flag byte by instruction (every
    // instruction is looked up in them): `DEAD`, `IDENTITY`, `DROPPED`.
    let n = func.insts.len();
    let mut flags = vec![0u8; n];
    let dead = |flags: &[u8], i: Inst| flags[i.index()] & DEAD != 0;
    for &i in &code.removed {
        flags[i.index()] |= DEAD;
    }
    if spill_code {
        for bd in &mut func.blocks {
            // A block without spill code keeps its list.
            if !bd.insts.iter().any(|i| {
                [&before, &after]
                    .iter()
                    .any(|side| side.get(i.index()).is_some_and(|x| !x.is_empty()))
            }) {
                continue;
            }
            let mut list = Vec::with_capacity(bd.insts.len());
            for &i in &bd.insts {
                if let Some(b) = before.get(i.index()) {
                    list.extend_from_slice(b);
                }
                list.push(i);
                if let Some(a) = after.get(i.index()) {
                    list.extend_from_slice(a);
                }
            }
            bd.insts = list;
        }
    }

    // 3. Operands.
    for b in 0..func.blocks.len() {
        for k in 0..func.blocks[b].insts.len() {
            let i = func.blocks[b].insts[k];
            if dead(&flags, i) {
                continue;
            }
            rewrite_inst(t, func, an, vrm, track_lanes, i).map_err(|e| e.at(Block::new(b), i))?;
            if is_identity_copy(func, i) {
                flags[i.index()] |= IDENTITY;
            }
        }
    }

    // Original COPYs folded into a reload or a store: their slot gets its
    // final id, and their meaning goes into the record.
    for f in &code.folded {
        let (i, kind, k) = (f.inst, f.kind, f.operand);
        if dead(&flags, i) {
            // Taken out as redundant: the checker reads it as the original
            // COPY.
            continue;
        }
        let (SpillKind::Spill { slot } | SpillKind::Reload { slot }) = kind else {
            continue;
        };
        let id = slot_id(slot);
        let inst = &mut func.insts[i.index()];
        for o in &mut inst.operands {
            if let Operand::Frame(f, _) = o
                && !f.fixed
                && f.id == slot
            {
                f.id = id;
            }
        }
        let Some(Operand::Reg(RegOperand {
            reg: RegRef::Phys(p),
            ..
        })) = inst.operands.get(k)
        else {
            return Err(AllocError::new(
                AllocErrorKind::OutOfRegisters,
                &func.name,
                "a folded copy's register was not assigned",
            ));
        };
        let edit = match kind {
            SpillKind::Spill { .. } => Edit::Spill { from: *p, slot: id },
            _ => Edit::Reload { slot: id, to: *p },
        };
        record.edits.insert(i, edit);
    }

    // Instructions accessing a slot through a memory operand: the slot
    // gets its final id (at the fold's frame operand only: the instruction
    // may name other frame objects), memory operands say what is accessed,
    // and the record says which operand the address replaced.
    for f in &code.memory_folds {
        let id = slot_id(f.slot);
        let inst = &mut func.insts[f.inst.index()];
        if let Some(Operand::Frame(fr, _)) = inst.operands.get_mut(f.frame) {
            fr.id = id;
        }
        let bits = f.bits;
        if f.read.is_some() {
            inst.mem
                .push(format!("(load (s{bits}) from %stack.{id})").into_boxed_str());
        }
        if f.written.is_some() {
            inst.mem
                .push(format!("(store (s{bits}) into %stack.{id})").into_boxed_str());
        }
        record.memory_folds.insert(
            f.inst,
            FoldedAccess {
                operand: f.operand,
                slot: id,
            },
        );
    }

    // Copies from live-range splitting: their meaning, unless folded.
    for &i in split_copies {
        // A split copy whose value the spiller rematerializes at every use
        // is dead; like an identity copy it has no meaning to record.
        if flags[i.index()] & (IDENTITY | DEAD) != 0 {
            flags[i.index()] |= DROPPED;
            continue;
        }
        if record.edits.contains_key(&i) {
            continue;
        }
        let inst = &func.insts[i.index()];
        match (inst.operands.first(), inst.operands.get(1)) {
            (
                Some(Operand::Reg(RegOperand {
                    reg: RegRef::Phys(to),
                    ..
                })),
                Some(Operand::Reg(RegOperand {
                    reg: RegRef::Phys(from),
                    ..
                })),
            ) => {
                record.edits.insert(
                    i,
                    Edit::Copy {
                        from: *from,
                        to: *to,
                    },
                );
            }
            _ => {
                return Err(AllocError::new(
                    AllocErrorKind::OutOfRegisters,
                    &func.name,
                    "a split copy's registers were not assigned",
                ));
            }
        }
    }

    // 4. Removed instructions, with the instruction each came before.
    for b in 0..func.blocks.len() {
        // Most blocks lose nothing: they keep their list as it is.
        if !func.blocks[b].insts.iter().any(|i| flags[i.index()] != 0) {
            continue;
        }
        let old = std::mem::take(&mut func.blocks[b].insts);
        let mut kept = Vec::with_capacity(old.len());
        let mut pending = Vec::new();
        for i in old {
            if flags[i.index()] & DROPPED != 0 {
                continue;
            }
            if flags[i.index()] & (DEAD | IDENTITY) != 0 {
                pending.push(i);
            } else {
                for r in pending.drain(..) {
                    record.removed.push(Removed {
                        inst: r,
                        block: Block::new(b),
                        before: Some(i),
                    });
                }
                kept.push(i);
            }
        }
        for r in pending {
            record.removed.push(Removed {
                inst: r,
                block: Block::new(b),
                before: None,
            });
        }
        func.blocks[b].insts = kept;
    }
    Ok(())
}

/// Rewrites the virtual register operands of `i`.
fn rewrite_inst(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    an: &Analyses,
    vrm: &VirtRegMap,
    track_lanes: bool,
    i: Inst,
) -> Result<(), AllocError> {
    // Borrowed beside the instruction (another field): only an error
    // needs it, and copying it for every instruction showed in profiles.
    let name = func.name.as_str();
    let at = an.intervals.slots.inst(i);
    let mut super_defs: Vec<(Reg, bool)> = Vec::new();
    let mut super_uses: Vec<Reg> = Vec::new();
    let inst = &mut func.insts[i.index()];
    for o in &mut inst.operands {
        let Operand::Reg(r) = o else { continue };
        let RegRef::Virt(v) = r.reg else { continue };
        if r.flags.has(RegFlags::DEBUG_USE) && vrm.phys(v).is_none() {
            r.reg = RegRef::NoReg;
            r.sub = None;
            continue;
        }
        let Some(p) = vrm.phys(v) else {
            return Err(AllocError::new(
                AllocErrorKind::OutOfRegisters,
                name,
                format!("%{} was given no register", v.0),
            ));
        };
        let mut reg = p;
        if let Some(s) = r.sub {
            let Some(sr) = t.sub_reg(p, s) else {
                return Err(AllocError::new(
                    AllocErrorKind::OverConstrained,
                    name,
                    format!(
                        "%{} was given {}, which has no sub-register {}",
                        v.0,
                        t.reg(p).name,
                        t.sub_reg_index(s).name
                    ),
                ));
            };
            reg = sr;
            let lanes = if track_lanes {
                an.intervals.vreg(v).filter(|iv| !iv.subranges.is_empty())
            } else {
                None
            };
            if let Some(iv) = lanes {
                // Sub-register liveness (LLVM's rewriter does the same):
                // no implicit operands for the whole register, and a use
                // of lanes that hold no value reads `undef`.
                if !r.is_def() {
                    let m = t.sub_reg_index(s).lane_mask;
                    let live = at.is_some_and(|at| {
                        iv.subranges.iter().any(|sr| {
                            sr.lanes.overlaps(m) && sr.range.live_at(at.with(Slot::Block))
                        })
                    });
                    if !live {
                        r.flags.set(RegFlags::UNDEF, true);
                    }
                }
                r.flags
                    .set(RegFlags::UNDEF, !r.is_def() && r.flags.has(RegFlags::UNDEF));
            } else if r.is_def() {
                super_defs.push((p, r.flags.has(RegFlags::DEAD)));
                // A partial definition keeps the other lanes of a live
                // value: LLVM records the read with an implicit use.
                let keeps = !r.flags.has(RegFlags::UNDEF)
                    && at.is_some_and(|at| {
                        an.intervals
                            .vreg(v)
                            .is_some_and(|iv| iv.range.live_at(at.with(Slot::Block)))
                    });
                if keeps {
                    super_uses.push(p);
                }
                r.flags.set(RegFlags::UNDEF, false);
            }
        }
        r.reg = RegRef::Phys(reg);
        r.sub = None;
        r.flags.set(RegFlags::KILLED, false);
        r.flags.set(RegFlags::RENAMABLE, true);
    }
    for p in super_uses {
        let present = inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Reg(r) if !r.is_def() && r.reg == RegRef::Phys(p)));
        if !present {
            let mut op = RegOperand::use_of(p);
            op.flags = RegFlags::IMPLICIT;
            inst.operands.push(Operand::Reg(op));
        }
    }
    for (p, dead) in super_defs {
        let present = inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Reg(r) if r.is_def() && r.reg == RegRef::Phys(p)));
        if !present {
            let mut op = RegOperand::def_of(p);
            op.flags = RegFlags::DEF | RegFlags::IMPLICIT;
            op.flags.set(RegFlags::DEAD, dead);
            inst.operands.push(Operand::Reg(op));
        }
    }
    Ok(())
}

/// Whether `i` is a COPY whose source and destination are the same
/// physical register.
fn is_identity_copy(func: &MachineFunction, i: Inst) -> bool {
    let inst = func.inst(i);
    if !inst.op.is_copy() {
        return false;
    }
    match (inst.operands.first(), inst.operands.get(1)) {
        (Some(Operand::Reg(d)), Some(Operand::Reg(s))) => {
            matches!(d.reg, RegRef::Phys(_)) && d.reg == s.reg && d.sub == s.sub
        }
        _ => false,
    }
}

/// A bit set over register units.
#[derive(Clone, PartialEq, Eq)]
struct Units(Vec<u64>);

impl Units {
    fn new(n: usize) -> Units {
        Units(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, u: usize, on: bool) {
        if let Some(w) = self.0.get_mut(u / 64) {
            if on {
                *w |= 1 << (u % 64);
            } else {
                *w &= !(1 << (u % 64));
            }
        }
    }
    /// Takes unit `u` out of the set and puts it into `other`: what a
    /// definition does to the live and the killed units, one word reached
    /// once. `u` must be below the size the sets were made for.
    fn move_to(&mut self, other: &mut Units, u: usize) {
        let bit = 1u64 << (u % 64);
        self.0[u / 64] &= !bit;
        other.0[u / 64] |= bit;
    }
    /// Puts unit `u` (below the size the set was made for) into the set.
    fn insert(&mut self, u: usize) {
        self.0[u / 64] |= 1 << (u % 64);
    }
    fn get(&self, u: usize) -> bool {
        self.0.get(u / 64).is_some_and(|w| w & (1 << (u % 64)) != 0)
    }
    /// The units in the set, in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + bit
                })
            })
        })
    }
}

/// Recomputes every block's live-in registers from the physical registers
/// its code and its successors read (a backward dataflow over register
/// units; reserved registers (`reserved`, by register, on top of the
/// table's) and constant registers are not tracked).
pub fn update_live_ins(t: &TargetInfo<'_>, func: &mut MachineFunction, reserved: &[bool]) {
    let nu = t.units.len();
    let is_reserved =
        |r: Reg| t.is_reserved(r) || reserved.get(r.index()).copied().unwrap_or(false);
    let mut tracked = Tracked {
        reserved,
        known: vec![0; nu],
        named: vec![None; nu],
    };
    let nb = func.blocks.len();
    let words = nu.div_ceil(64);
    // Per block, `words` words each: units read before written (gen),
    // units written (kill), and live on entry; one flat vector for the
    // three, so the dataflow below allocates nothing per block or per
    // round.
    let mut sets = vec![0u64; 3 * nb * words];
    let (gen_, rest) = sets.split_at_mut(nb * words);
    let (kill, live_in) = rest.split_at_mut(nb * words);
    let mut clobbers = MaskUnits::default();
    let mut live = Units::new(nu);
    let mut killed = Units::new(nu);
    for b in 0..nb {
        live.0.fill(0);
        killed.0.fill(0);
        for &i in func.blocks[b].insts.iter().rev() {
            step_back(
                t,
                func,
                i,
                &mut tracked,
                &mut clobbers,
                &mut live,
                &mut killed,
            );
        }
        gen_[b * words..(b + 1) * words].copy_from_slice(&live.0);
        kill[b * words..(b + 1) * words].copy_from_slice(&killed.0);
    }
    live_in.copy_from_slice(gen_);
    let mut out = vec![0u64; words];
    // The predecessors of every block, block after block, from the
    // successor lists (those of the IR may be stale).
    // Counted into `pred_at[k]`, summed into where each list ends, and
    // filled from the ends backwards, which leaves `pred_at[k]` where the
    // list of `k` starts: no second vector of positions.
    let mut pred_at = vec![0usize; nb + 1];
    for bd in &func.blocks {
        for s in &bd.succs {
            if s.block.index() < nb {
                pred_at[s.block.index()] += 1;
            }
        }
    }
    for b in 1..=nb {
        pred_at[b] += pred_at[b - 1];
    }
    let mut preds = vec![0usize; pred_at[nb]];
    for (b, bd) in func.blocks.iter().enumerate().rev() {
        for s in bd.succs.iter().rev() {
            let k = s.block.index();
            if k < nb {
                pred_at[k] -= 1;
                preds[pred_at[k]] = b;
            }
        }
    }
    // A worklist, every block in reverse layout order first, then the
    // predecessors of each block whose set grew: the sets only grow from
    // `gen_`, so this reaches the same least fixed point as rounds over
    // every block, without a last round that changes nothing.
    let mut work: Vec<usize> = (0..nb).collect();
    let mut queued = vec![true; nb];
    while let Some(b) = work.pop() {
        queued[b] = false;
        out.fill(0);
        for s in &func.blocks[b].succs {
            let k = s.block.index();
            if k < nb {
                for (w, x) in out.iter_mut().zip(&live_in[k * words..(k + 1) * words]) {
                    *w |= x;
                }
            }
        }
        let r = b * words..(b + 1) * words;
        let mut changed = false;
        for (((w, g), o), k) in live_in[r.clone()]
            .iter_mut()
            .zip(&gen_[r.clone()])
            .zip(&out)
            .zip(&kill[r])
        {
            let inn = g | (o & !k);
            if inn != *w {
                *w = inn;
                changed = true;
            }
        }
        if changed {
            for &p in &preds[pred_at[b]..pred_at[b + 1]] {
                if !queued[p] {
                    queued[p] = true;
                    work.push(p);
                }
            }
        }
    }
    // Per register, the last block (plus one) it was a candidate of and
    // found fully live in: stamps instead of a sort and a search per
    // block.
    // Per unit, the registers that may be listed (neither reserved,
    // artificial nor constant, and with units) among its roots and their
    // super-registers, found when a block first needs them:
    // `cands[cand_at[u].0..cand_at[u].1]`, the pair `(1, 0)` while not
    // yet found. A unit is live into many blocks.
    let mut cand_at = vec![(1u32, 0u32); nu];
    // Room for a few registers a unit, so that the list is allocated once.
    let mut cands: Vec<Reg> = Vec::with_capacity(4 * nu);
    let listable = |r: Reg| {
        let d = t.reg(r);
        !is_reserved(r)
            && !d.flags.contains(PhysFlags::ARTIFICIAL)
            && !d.flags.contains(PhysFlags::CONSTANT)
            && !d.units.is_empty()
    };
    // The first block with each live unit set: blocks with the same set
    // get the same list (common after allocation, where values stay in
    // the same registers across many blocks).
    let mut first_with: HashMap<&[u64], usize> = HashMap::default();
    for b in 0..nb {
        let set = &live_in[b * words..(b + 1) * words];
        if let Some(&a) = first_with.get(set) {
            func.blocks[b].live_ins = func.blocks[a].live_ins.clone();
            continue;
        }
        first_with.insert(set, b);
        live.0.clear();
        live.0.extend_from_slice(set);
        // Each live unit under the name the code uses for it, when that
        // register is wholly live (`$xmm0` and `$d8`, as LLVM's rewriter
        // lists the registers it assigned, rather than `$zmm0` or the
        // tuple `$z8_z9`, whose units are the same); a unit without one,
        // under the largest wholly live register holding it.
        killed.0.fill(0);
        let mut list: Vec<BlockLiveIn> = Vec::new();
        for u in live.iter() {
            if killed.get(u) {
                continue;
            }
            let wholly_live = |r: Reg| t.units(r).iter().all(|v| live.get(v.index()));
            let named = tracked.named[u].filter(|&n| listable(n) && wholly_live(n));
            let pick = named.or_else(|| {
                if cand_at[u].0 > cand_at[u].1 {
                    let start = cands.len();
                    for root in t.unit_roots(crate::target::RegUnit::new(u)) {
                        for r in std::iter::once(root).chain(t.super_regs(root).iter().copied()) {
                            if listable(r) && !cands[start..].contains(&r) {
                                cands.push(r);
                            }
                        }
                    }
                    cand_at[u] = (start as u32, cands.len() as u32);
                }
                let (from, to) = cand_at[u];
                cands[from as usize..to as usize]
                    .iter()
                    .copied()
                    .find(|&r| {
                        wholly_live(r)
                            && !t
                                .super_regs(r)
                                .iter()
                                .any(|&s| listable(s) && wholly_live(s))
                    })
            });
            if let Some(reg) = pick {
                for &v in t.units(reg) {
                    killed.insert(v.index());
                }
                list.push(BlockLiveIn { reg, lanes: None });
            }
        }
        list.sort_unstable_by_key(|l| l.reg);
        list.dedup_by_key(|l| l.reg);
        func.blocks[b].live_ins = list;
    }
}

/// The units each distinct call mask of a function clobbers (among the
/// tracked ones), computed on its first call: a function with many calls
/// of one convention tests every unit against the mask once, not once
/// per call.
#[derive(Default)]
struct MaskUnits(Vec<(RegMask, Units)>);

/// What the scan learns of each unit over the whole function: whether it
/// is tracked (not untracked by the target, nor a unit of a register the
/// function reserves), found when first asked, since a function without
/// calls asks about few of a target's units; and the name the code uses
/// for it ([`note_name`]).
struct Tracked<'r> {
    /// The function's reserved registers, by register.
    reserved: &'r [bool],
    /// By unit: 0 not yet asked, 1 untracked, 2 tracked.
    known: Vec<u8>,
    /// By unit: the widest register an operand names with the unit first.
    named: Vec<Option<Reg>>,
}

impl Tracked<'_> {
    /// Whether unit `u` (of the target) is tracked.
    fn get(&mut self, t: &TargetInfo<'_>, u: usize) -> bool {
        match self.known[u] {
            0 => {
                let tracked = !crate::analysis::intervals::unit_untracked_in(t, self.reserved, u);
                self.known[u] = 1 + u8::from(tracked);
                tracked
            }
            k => k == 2,
        }
    }
}

impl MaskUnits {
    /// The tracked units `m` clobbers.
    fn get(&mut self, t: &TargetInfo<'_>, tracked: &mut Tracked<'_>, m: &RegMask) -> &Units {
        if let Some(k) = self.0.iter().position(|(x, _)| x == m) {
            return &self.0[k].1;
        }
        let nu = t.units.len();
        let mut units = Units::new(nu);
        for u in 0..nu {
            if !tracked.get(t, u) {
                continue;
            }
            let clobbered = t
                .unit_roots(crate::target::RegUnit::new(u))
                .any(|r| match m {
                    RegMask::Named(s) => {
                        s.index() >= t.callee_saved.len() || !t.mask_preserves(*s, r)
                    }
                    RegMask::Custom(list) => !list.contains(&r),
                });
            if clobbered {
                units.set(u, true);
            }
        }
        self.0.push((m.clone(), units));
        &self.0.last().expect("just pushed").1
    }
}

/// Liveness across instruction `i`, backwards: its definitions end
/// liveness (and are recorded in `killed`), its reads start it.
/// Records `p`, named by an operand, as the name of its first register
/// unit unless a wider register was named there: the name the live-in
/// lists use for a register whose super-registers share its units.
fn note_name(t: &TargetInfo<'_>, named: &mut [Option<Reg>], p: Reg) {
    let Some(u) = t.units(p).first() else {
        return;
    };
    let slot = &mut named[u.index()];
    match *slot {
        Some(n) if n == p => {}
        Some(n) if !t.super_regs(n).contains(&p) => {}
        _ => *slot = Some(p),
    }
}

fn step_back(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    i: Inst,
    tracked: &mut Tracked<'_>,
    clobbers: &mut MaskUnits,
    live: &mut Units,
    killed: &mut Units,
) {
    let inst = func.inst(i);
    for o in &inst.operands {
        match o {
            Operand::Reg(r) if r.is_def() => {
                if let RegRef::Phys(p) = r.reg
                    && p.index() < t.regs.len()
                {
                    let p = crate::analysis::intervals::phys_operand_reg(t, p, r.sub);
                    note_name(t, &mut tracked.named, p);
                    for &u in t.units(p) {
                        live.move_to(killed, u.index());
                    }
                }
            }
            Operand::RegMask(m) => {
                let c = clobbers.get(t, tracked, m);
                for ((l, k), x) in live.0.iter_mut().zip(killed.0.iter_mut()).zip(&c.0) {
                    *l &= !x;
                    *k |= x;
                }
            }
            _ => {}
        }
    }
    for o in &inst.operands {
        if let Operand::Reg(r) = o
            && !r.is_def()
            && !r.flags.has(RegFlags::UNDEF)
            && !r.flags.has(RegFlags::DEBUG_USE)
            && let RegRef::Phys(p) = r.reg
            && p.index() < t.regs.len()
        {
            let p = crate::analysis::intervals::phys_operand_reg(t, p, r.sub);
            note_name(t, &mut tracked.named, p);
            for &u in t.units(p) {
                if tracked.get(t, u.index()) {
                    live.insert(u.index());
                }
            }
        }
    }
}
