//! The rewriter: places the spill code, replaces virtual registers by physical ones (sub-register indices composed), removes identity copies and recomputes block live-ins.
//!
//! What it does, in order, as LLVM's `VirtRegRewriter` (plus the placement
//! of spill code that LLVM's spiller does eagerly):
//!
//! 1. spill slots are coloured ([`super::slots`]) and added as `spill-slot`
//!    stack objects;
//! 2. spill, reload and remat instructions get new ids and an [`Edit`] in
//!    the record, and are placed before or after their original
//!    instruction; stores and reloads get the memory operand of their slot,
//!    as LLVM's spiller gives them;
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
//! `rewrite_code` does the first four; the fifth is
//! `analysis::phys_liveness::update_live_ins`, which the pipeline
//! runs once the code no longer changes (after reload reuse).

use crate::alloc::Decisions;
use crate::alloc::spiller::{SpillCode, SpillKind};
use crate::alloc::virtmap::VirtRegMap;
use crate::analysis::{Analyses, Slot, SlotIndex};
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{
    Block, FrameRef, Inst, MachineFunction, MemFlags, MemOperand, Operand, RegFlags, RegOperand,
    RegRef, VReg,
};
use crate::record::{AllocRecord, Edit, FoldedAccess, Removed};
use crate::target::{Reg, SubRegIndex, TargetInfo};

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
/// the caller's to recompute
/// (`analysis::phys_liveness::update_live_ins`) once it has changed the
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
    // 1. Slots.
    let slot_ids = SlotIds::new(func, code);
    // 2. Spill code.
    place_spill_code(func, vrm, code, &slot_ids, record)?;
    // Instruction sets as bits of one flag byte by instruction (every
    // instruction is looked up in them): `DEAD`, `IDENTITY`, `DROPPED`.
    let mut flags = vec![0u8; func.insts.len()];
    for &i in &code.removed {
        flags[i.index()] |= DEAD;
    }
    // 3. Operands, and what the record says of the instructions the
    // allocator changed.
    rewrite_operands(t, func, an, vrm, *track_lanes, &mut flags)?;
    record_folded_copies(func, code, &slot_ids, &flags, record)?;
    record_memory_folds(func, code, &slot_ids, record);
    record_split_copies(func, split_copies, &mut flags, record)?;
    // 4. Removed instructions.
    take_out_removed(func, &flags, record);
    Ok(())
}

/// Step 1 of [`rewrite_code`]: the spill slots coloured and added as
/// stack objects, and the final id of each spiller slot.
struct SlotIds {
    /// Per spiller slot, its colour.
    colour_of: Vec<usize>,
    /// Per colour, the id of its stack object.
    ids: Vec<u32>,
}

impl SlotIds {
    fn new(func: &mut MachineFunction, code: &SpillCode) -> SlotIds {
        let (colour_of, colours) = slots::colour(&code.slots);
        let ids = slots::add_objects(func, &colours);
        SlotIds { colour_of, ids }
    }

    /// The stack object of spiller slot `s`.
    fn id(&self, s: u32) -> u32 {
        self.colour_of
            .get(s as usize)
            .and_then(|&c| self.ids.get(c))
            .copied()
            .unwrap_or(0)
    }
}

/// Step 2 of [`rewrite_code`]: spill, reload and remat instructions get
/// new ids and an [`Edit`] in the record, and are placed before or after
/// their original instruction.
fn place_spill_code(
    func: &mut MachineFunction,
    vrm: &VirtRegMap,
    code: &SpillCode,
    slot_ids: &SlotIds,
    record: &mut AllocRecord,
) -> Result<(), AllocError> {
    // Without spill code (most small functions) the blocks are left alone.
    if code.insertions.is_empty() {
        return Ok(());
    }
    // Per original instruction, the spill code to place before and after
    // it; indexed by instruction rather than hashed (every instruction of
    // the function is looked up).
    let table = func.insts.len();
    let mut before: Vec<Vec<Inst>> = vec![Vec::new(); table];
    let mut after: Vec<Vec<Inst>> = vec![Vec::new(); table];
    for ins in &code.insertions {
        let Some(phys) = vrm.phys(ins.vreg) else {
            return Err(AllocError::new(
                AllocErrorKind::OutOfRegisters,
                &func.name,
                format!(
                    "spill register {} was not assigned",
                    func.vreg_text(ins.vreg)
                ),
            ));
        };
        let mut data = ins.inst.clone();
        let edit = match ins.kind {
            SpillKind::Spill { slot } | SpillKind::Reload { slot } => {
                let id = slot_ids.id(slot);
                for o in &mut data.operands {
                    if let Operand::Frame(f, _) = o
                        && !f.fixed
                        && f.id == slot
                    {
                        f.id = id;
                    }
                }
                let spill = matches!(ins.kind, SpillKind::Spill { .. });
                data.mem = vec![slot_access(code, slot, id, spill)];
                if spill {
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
    Ok(())
}

/// The memory operand of a store to (`spill`) or reload from spiller slot
/// `slot`, now stack object `id`: the whole slot, as LLVM's
/// `storeRegToStackSlot` and `loadRegFromStackSlot` describe it. Without
/// it, the passes after allocation must assume the instruction touches
/// any memory (the scheduler keeps it in order with every other access,
/// stack-slot colouring keeps its dead stores).
fn slot_access(code: &SpillCode, slot: u32, id: u32, spill: bool) -> MemOperand {
    let bytes = code.slots.get(slot as usize).map_or(0, |s| s.size);
    let access = if spill {
        MemFlags::STORE
    } else {
        MemFlags::LOAD
    };
    let frame = FrameRef { fixed: false, id };
    MemOperand::frame_access(access, (bytes * 8) as u32, frame)
}

/// Whether `flags` marks `i` as taken out by the spiller.
fn dead(flags: &[u8], i: Inst) -> bool {
    flags[i.index()] & DEAD != 0
}

/// Step 3 of [`rewrite_code`]: every operand of the instructions kept
/// rewritten ([`rewrite_inst`]); identity copies marked in `flags`.
fn rewrite_operands(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    an: &Analyses,
    vrm: &VirtRegMap,
    track_lanes: bool,
    flags: &mut [u8],
) -> Result<(), AllocError> {
    for b in 0..func.blocks.len() {
        for k in 0..func.blocks[b].insts.len() {
            let i = func.blocks[b].insts[k];
            if dead(flags, i) {
                continue;
            }
            rewrite_inst(t, func, an, vrm, track_lanes, i).map_err(|e| e.at(Block::new(b), i))?;
            if is_identity_copy(func, i) {
                flags[i.index()] |= IDENTITY;
            }
        }
    }
    Ok(())
}

/// Original COPYs folded into a reload or a store: their slot gets its
/// final id and its memory operand, and their meaning goes into the
/// record.
fn record_folded_copies(
    func: &mut MachineFunction,
    code: &SpillCode,
    slot_ids: &SlotIds,
    flags: &[u8],
    record: &mut AllocRecord,
) -> Result<(), AllocError> {
    for f in &code.folded {
        let (i, kind, k) = (f.inst, f.kind, f.operand);
        if dead(flags, i) {
            // Taken out as redundant: the checker reads it as the original
            // COPY.
            continue;
        }
        let (SpillKind::Spill { slot } | SpillKind::Reload { slot }) = kind else {
            continue;
        };
        let id = slot_ids.id(slot);
        let inst = &mut func.insts[i.index()];
        let spill = matches!(kind, SpillKind::Spill { .. });
        inst.mem = vec![slot_access(code, slot, id, spill)];
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
    Ok(())
}

/// Instructions accessing a slot through a memory operand: the slot gets
/// its final id (at the fold's frame operand only: the instruction may
/// name other frame objects), memory operands say what is accessed, and
/// the record says which operand the address replaced.
fn record_memory_folds(
    func: &mut MachineFunction,
    code: &SpillCode,
    slot_ids: &SlotIds,
    record: &mut AllocRecord,
) {
    for f in &code.memory_folds {
        let id = slot_ids.id(f.slot);
        let inst = &mut func.insts[f.inst.index()];
        if let Some(Operand::Frame(fr, _)) = inst.operands.get_mut(f.frame) {
            fr.id = id;
        }
        let slot = FrameRef { fixed: false, id };
        if f.read.is_some() {
            inst.mem
                .push(MemOperand::frame_access(MemFlags::LOAD, f.bits, slot));
        }
        if f.written.is_some() {
            inst.mem
                .push(MemOperand::frame_access(MemFlags::STORE, f.bits, slot));
        }
        record.memory_folds.insert(
            f.inst,
            FoldedAccess {
                operand: f.operand,
                slot: id,
            },
        );
    }
}

/// Copies from live-range splitting: their meaning, unless folded; those
/// left without one are marked `DROPPED` in `flags`.
fn record_split_copies(
    func: &MachineFunction,
    split_copies: &[Inst],
    flags: &mut [u8],
    record: &mut AllocRecord,
) -> Result<(), AllocError> {
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
    Ok(())
}

/// Step 4 of [`rewrite_code`]: the instructions `flags` marks taken out of
/// their blocks, each recorded with the instruction it came before.
fn take_out_removed(func: &mut MachineFunction, flags: &[u8], record: &mut AllocRecord) {
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
    let mut whole = WholeRegister::default();
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
        let reg = match r.sub {
            Some(s) => rewrite_sub_operand(t, an, track_lanes, name, at, r, v, p, s, &mut whole)?,
            None => p,
        };
        r.reg = RegRef::Phys(reg);
        r.sub = None;
        r.flags.set(RegFlags::KILLED, false);
        r.flags.set(RegFlags::RENAMABLE, true);
    }
    whole.add_to(&mut inst.operands);
    Ok(())
}

/// The implicit operands of whole registers a sub-register rewrite adds
/// (without sub-register liveness): a definition of the whole register
/// (`dead` if the sub-register definition is), and a use of it where a
/// partial definition keeps the other lanes of a live value.
#[derive(Default)]
struct WholeRegister {
    defs: Vec<(Reg, bool)>,
    uses: Vec<Reg>,
}

impl WholeRegister {
    /// Appends the operands to `operands`, each unless it is there.
    fn add_to(self, operands: &mut Vec<Operand>) {
        for p in self.uses {
            let present = operands
                .iter()
                .any(|o| matches!(o, Operand::Reg(r) if !r.is_def() && r.reg == RegRef::Phys(p)));
            if !present {
                let mut op = RegOperand::use_of(p);
                op.flags = RegFlags::IMPLICIT;
                operands.push(Operand::Reg(op));
            }
        }
        for (p, dead) in self.defs {
            let present = operands
                .iter()
                .any(|o| matches!(o, Operand::Reg(r) if r.is_def() && r.reg == RegRef::Phys(p)));
            if !present {
                let mut op = RegOperand::def_of(p);
                op.flags = RegFlags::DEF | RegFlags::IMPLICIT;
                op.flags.set(RegFlags::DEAD, dead);
                operands.push(Operand::Reg(op));
            }
        }
    }
}

/// The register operand `r` of virtual register `v` (assigned `p`) with
/// sub-register index `s` becomes: `p`'s sub-register. Sets its `undef`
/// flag as LLVM's rewriter does and notes the whole-register operands it
/// needs in `whole`.
#[allow(clippy::too_many_arguments)]
fn rewrite_sub_operand(
    t: &TargetInfo<'_>,
    an: &Analyses,
    track_lanes: bool,
    name: &str,
    at: Option<SlotIndex>,
    r: &mut RegOperand,
    v: VReg,
    p: Reg,
    s: SubRegIndex,
    whole: &mut WholeRegister,
) -> Result<Reg, AllocError> {
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
                iv.subranges
                    .iter()
                    .any(|sr| sr.lanes.overlaps(m) && sr.range.live_at(at.with(Slot::Block)))
            });
            if !live {
                r.flags.set(RegFlags::UNDEF, true);
            }
        }
        r.flags
            .set(RegFlags::UNDEF, !r.is_def() && r.flags.has(RegFlags::UNDEF));
    } else if r.is_def() {
        whole.defs.push((p, r.flags.has(RegFlags::DEAD)));
        // A partial definition keeps the other lanes of a live
        // value: LLVM records the read with an implicit use.
        let keeps = !r.flags.has(RegFlags::UNDEF)
            && at.is_some_and(|at| {
                an.intervals
                    .vreg(v)
                    .is_some_and(|iv| iv.range.live_at(at.with(Slot::Block)))
            });
        if keeps {
            whole.uses.push(p);
        }
        r.flags.set(RegFlags::UNDEF, false);
    }
    Ok(sr)
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
