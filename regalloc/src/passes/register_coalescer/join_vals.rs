//! LLVM's `JoinVals`: the values of the two registers of a copy, compared lane by lane on whole-register intervals, to decide whether the registers can be one.
//!
//! Each value writes some lanes of the joined register (all of them for
//! a whole definition of the register kept, the lanes of its
//! sub-register index for the register renamed) and holds some valid
//! lanes (those it writes, plus those it keeps of the value before it
//! when it redefines a sub-register). A value defined where the other
//! register is live conflicts unless it is a copy of that value, an
//! `IMPLICIT_DEF`, a value identical through whole copies, or it writes
//! only lanes the other value does not hold (then it replaces the other
//! value there, LLVM's `CR_Replace`). LLVM's last case, lanes clobbered
//! that no instruction reads before the block ends (`CR_Unresolved`
//! settled by `resolveConflicts`), is taken as a conflict here.

use crate::analysis::{LiveIntervals, LiveRange, Slot, SlotIndex, ValNo};
use crate::ir::{Generic, InstData, MachineFunction, Op, Operand, RegRef, VReg};
use crate::target::{SubRegIndex, TargetInfo};

use super::pair::{Pair, compose, lanes};

/// What a query of a live range at one instruction finds (LLVM's
/// `LiveQueryResult`).
#[derive(Copy, Clone, Debug)]
pub(super) struct Query {
    /// The value live into the instruction.
    pub(super) early: Option<u32>,
    /// The value live out of it, or defined dead by it.
    pub(super) late: Option<u32>,
    /// The end of the last segment looked at.
    pub(super) end: SlotIndex,
    /// The value live in ends at the instruction.
    pub(super) kill: bool,
}

impl Query {
    /// The value the instruction defines.
    pub(super) fn defined(&self) -> Option<u32> {
        if self.early == self.late {
            None
        } else {
            self.late
        }
    }
}

fn same_instr(a: SlotIndex, b: SlotIndex) -> bool {
    a.base() == b.base()
}

/// `range` at the instruction (or block start) of `idx`, as LLVM's
/// `LiveRange::Query`.
pub(super) fn query(range: &LiveRange, idx: SlotIndex) -> Query {
    let base = idx.with(Slot::Block);
    let segs = &range.segments;
    let mut k = segs.partition_point(|s| s.end <= base);
    let mut q = Query {
        early: None,
        late: None,
        end: SlotIndex(0),
        kill: false,
    };
    let Some(&s) = segs.get(k) else { return q };
    if s.start <= base {
        q.early = Some(s.valno);
        q.end = s.end;
        if same_instr(idx, s.end) {
            q.kill = true;
            k += 1;
            if k == segs.len() {
                return q;
            }
        }
        // A value merging at a block start is not live into it.
        if range.valnos[s.valno as usize].def == base {
            q.early = None;
        }
    }
    let s = segs[k];
    if idx.base() >= s.start.base() {
        q.late = Some(s.valno);
        q.end = s.end;
    }
    q
}

/// Whether `inst` is a `COPY` of a whole register into a whole register.
pub(super) fn is_full_copy(inst: &InstData) -> Option<(RegRef, RegRef)> {
    if !inst.op.is_copy() || inst.operands.len() != 2 {
        return None;
    }
    let (Operand::Reg(d), Operand::Reg(s)) = (&inst.operands[0], &inst.operands[1]) else {
        return None;
    };
    (d.is_def() && !s.is_def() && d.sub.is_none() && s.sub.is_none()).then_some((d.reg, s.reg))
}

/// How a value of one register fares when joined with the other
/// (LLVM's `ConflictResolution`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Resolution {
    /// The value stays.
    Keep,
    /// The value is the other register's: its definition goes.
    Erase,
    /// Both registers define it at one place (a block start, or one
    /// instruction writing lanes apart).
    Merge,
    /// The value overlaps the other's, which holds none of the lanes it
    /// writes: it replaces the other value from there.
    Replace,
    /// The values conflict: no join.
    Impossible,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Status {
    Unvisited,
    Analyzing,
    Done(Resolution),
}

/// What the analysis knows of one value (LLVM's `JoinVals::Val`).
#[derive(Copy, Clone, Debug)]
struct Val {
    status: Status,
    /// The lanes its definition writes, in the joined register.
    write: u64,
    /// The lanes holding a defined value after its definition.
    valid: u64,
    /// An `IMPLICIT_DEF` that may go once another value replaces it.
    erasable_implicit_def: bool,
    /// Another value replaces this one somewhere.
    pruned: bool,
}

const UNVISITED: Val = Val {
    status: Status::Unvisited,
    write: 0,
    valid: 0,
    erasable_implicit_def: false,
    pruned: false,
};

/// One register of the pair, with where it lands in the joined register.
#[derive(Copy, Clone)]
pub(super) struct Side<'j> {
    pub(super) reg: VReg,
    pub(super) idx: Option<SubRegIndex>,
    pub(super) range: &'j LiveRange,
}

/// A definition whose value replaces the other register's value: its
/// flags change with the join (LLVM's `pruneValues`).
#[derive(Copy, Clone, Debug)]
pub(super) struct Replaced {
    /// The register it defines.
    pub(super) reg: VReg,
    /// Where.
    pub(super) def: SlotIndex,
    /// The value replaced is an `IMPLICIT_DEF` that goes.
    pub(super) replaces_implicit_def: bool,
}

/// The values of the two registers of a copy, compared: side 0 is the
/// register kept, side 1 the one renamed.
pub(super) struct JoinVals<'j, 't> {
    t: &'j TargetInfo<'t>,
    func: &'j MachineFunction,
    li: &'j LiveIntervals,
    pair: Pair,
    sides: [Side<'j>; 2],
    vals: [Vec<Val>; 2],
}

impl<'j, 't> JoinVals<'j, 't> {
    pub(super) fn new(
        t: &'j TargetInfo<'t>,
        func: &'j MachineFunction,
        li: &'j LiveIntervals,
        pair: Pair,
        sides: [Side<'j>; 2],
    ) -> Self {
        JoinVals {
            t,
            func,
            li,
            pair,
            sides,
            vals: [
                vec![UNVISITED; sides[0].range.valnos.len()],
                vec![UNVISITED; sides[1].range.valnos.len()],
            ],
        }
    }

    /// Whether every value of both sides can be joined.
    pub(super) fn resolve_all(&mut self) -> bool {
        for side in 0..2 {
            for vn in 0..self.sides[side].range.valnos.len() {
                if self.assign(side, vn) == Resolution::Impossible {
                    return false;
                }
            }
        }
        true
    }

    fn resolution(&self, side: usize, vn: usize) -> Option<Resolution> {
        match self.vals[side][vn].status {
            Status::Done(r) => Some(r),
            _ => None,
        }
    }

    /// The definitions that go with the join: values found equal to the
    /// other side's, and `IMPLICIT_DEF`s another value replaces (LLVM's
    /// `eraseInstrs`).
    pub(super) fn erased(&self) -> Vec<SlotIndex> {
        let mut out = Vec::new();
        for side in 0..2 {
            for (vn, v) in self.vals[side].iter().enumerate() {
                let r = self.resolution(side, vn);
                let pruned_implicit_def =
                    r == Some(Resolution::Keep) && v.erasable_implicit_def && v.pruned;
                if r == Some(Resolution::Erase) || pruned_implicit_def {
                    out.push(self.sides[side].range.valnos[vn].def);
                }
            }
        }
        out
    }

    /// The values of side `side` that go with the join: `IMPLICIT_DEF`s
    /// another value replaces (LLVM removes them from the range).
    pub(super) fn dropped(&self, side: usize) -> Vec<u32> {
        (0..self.vals[side].len())
            .filter(|&vn| {
                let v = self.vals[side][vn];
                self.resolution(side, vn) == Some(Resolution::Keep)
                    && v.erasable_implicit_def
                    && v.pruned
            })
            .map(|vn| vn as u32)
            .collect()
    }

    /// The instruction definitions that replace a value of the other side.
    pub(super) fn replaced(&self) -> Vec<Replaced> {
        let mut out = Vec::new();
        for side in 0..2 {
            let other = 1 - side;
            for (vn, vni) in self.sides[side].range.valnos.iter().enumerate() {
                if self.resolution(side, vn) != Some(Resolution::Replace) || vni.is_phi() {
                    continue;
                }
                let replaces_implicit_def = query(self.sides[other].range, vni.def)
                    .early
                    .is_some_and(|ov| {
                        let o = self.vals[other][ov as usize];
                        o.erasable_implicit_def
                            && self.resolution(other, ov as usize) == Some(Resolution::Keep)
                    });
                out.push(Replaced {
                    reg: self.sides[side].reg,
                    def: vni.def,
                    replaces_implicit_def,
                });
            }
        }
        out
    }

    fn assign(&mut self, side: usize, vn: usize) -> Resolution {
        match self.vals[side][vn].status {
            Status::Done(r) => r,
            // Analysis goes up the dominator tree and never comes back to
            // a value being analyzed; if it did, refuse rather than guess.
            Status::Analyzing => Resolution::Impossible,
            Status::Unvisited => {
                self.vals[side][vn].status = Status::Analyzing;
                let (r, other) = self.analyze(side, vn);
                if r == Resolution::Replace
                    && let Some(ov) = other
                {
                    self.vals[1 - side][ov as usize].pruned = true;
                }
                self.vals[side][vn].status = Status::Done(r);
                r
            }
        }
    }

    /// The lanes `inst` writes of side `side`'s register, and whether it
    /// keeps the others (a sub-register definition without `undef`);
    /// `None` when a sub-register does not compose with the side's.
    fn write_lanes(&self, side: usize, inst: &InstData) -> Option<(u64, bool)> {
        let s = self.sides[side];
        let (mut write, mut redef) = (0, false);
        for o in &inst.operands {
            let Operand::Reg(r) = o else { continue };
            if !r.is_def() || r.reg != RegRef::Virt(s.reg) {
                continue;
            }
            write |= lanes(self.t, compose(self.t, s.idx, r.sub)?);
            redef |= r.sub.is_some() && !r.flags.has(crate::ir::RegFlags::UNDEF);
        }
        (write != 0).then_some((write, redef))
    }

    /// Sets the lanes of value `vn` from its definition; the defining
    /// instruction, `None` for a merge at a block start, `Err` when the
    /// definition cannot be read.
    fn compute_lanes(&mut self, side: usize, vn: usize) -> Result<Option<&'j InstData>, ()> {
        let vni = self.sides[side].range.valnos[vn];
        if vni.is_phi() {
            let l = lanes(self.t, self.sides[side].idx);
            let v = &mut self.vals[side][vn];
            (v.write, v.valid) = (l, l);
            return Ok(None);
        }
        let Some(mi) = self.li.slots.inst_at(vni.def) else {
            return Err(());
        };
        let func = self.func;
        let inst = func.inst(mi);
        let Some((write, redef)) = self.write_lanes(side, inst) else {
            return Err(());
        };
        let mut valid = write;
        if redef && let Some(before) = query(self.sides[side].range, vni.def).early {
            self.assign(side, before as usize);
            valid |= self.vals[side][before as usize].valid;
        }
        let v = &mut self.vals[side][vn];
        (v.write, v.valid) = (write, valid);
        // Its lanes are cleared only once it is sure to go.
        v.erasable_implicit_def = inst.op == Op::Generic(Generic::ImplicitDef);
        Ok(Some(inst))
    }

    /// LLVM's `analyzeValue` on whole-register intervals: the resolution
    /// of value `vn` of side `side`, and the other side's value it
    /// overlaps.
    fn analyze(&mut self, side: usize, vn: usize) -> (Resolution, Option<u32>) {
        let other = 1 - side;
        let vni = self.sides[side].range.valnos[vn];
        let Ok(def_inst) = self.compute_lanes(side, vn) else {
            return (Resolution::Impossible, None);
        };
        let q = query(self.sides[other].range, vni.def);
        if let Some(ov) = q.defined() {
            // Both registers define a value at this instruction or block
            // start: the first one analyzed stays, the other merges.
            let other_def = self.sides[other].range.valnos[ov as usize].def;
            if other_def < vni.def {
                self.assign(other, ov as usize);
            } else if vni.def < other_def && q.early.is_some() {
                // An early-clobber definition over the other's live value.
                return (Resolution::Impossible, q.early);
            }
            if self.resolution(other, ov as usize).is_none() {
                return (Resolution::Keep, Some(ov));
            }
            let overlap = self.vals[side][vn].valid & self.vals[other][ov as usize].valid;
            let r = if vni.is_phi() || overlap == 0 {
                Resolution::Merge
            } else {
                Resolution::Impossible
            };
            return (r, Some(ov));
        }
        let Some(ov) = q.early else {
            return (Resolution::Keep, None);
        };
        (self.analyze_overlap(side, vn, def_inst, ov, q), Some(ov))
    }

    /// The rest of `analyze`: value `vn` is defined where the other
    /// side's value `ov` is live.
    fn analyze_overlap(
        &mut self,
        side: usize,
        vn: usize,
        def_inst: Option<&InstData>,
        ov: u32,
        q: Query,
    ) -> Resolution {
        let other = 1 - side;
        let vni = self.sides[side].range.valnos[vn];
        self.assign(other, ov as usize);
        if self.vals[other][ov as usize].erasable_implicit_def {
            self.settle_implicit_def(side, vni, ov);
        }
        // Merges at a block start may overlap: a conflict shows in a
        // predecessor.
        let Some(inst) = def_inst else {
            return Resolution::Replace;
        };
        if inst.op == Op::Generic(Generic::ImplicitDef) {
            return Resolution::Erase;
        }
        let other_valid = self.vals[other][ov as usize].valid;
        if self.pair.is_coalescable(self.t, inst) {
            // Lanes undefined in the value copied are undefined here too.
            let v = &mut self.vals[side][vn];
            v.valid &= !v.write | other_valid;
            return Resolution::Erase;
        }
        // The other value ends where this one starts.
        if q.kill && q.end <= vni.def {
            return Resolution::Keep;
        }
        if !self.pair.partial
            && is_full_copy(inst).is_some()
            && self.values_identical(side, vni, ov)
        {
            return Resolution::Erase;
        }
        let write = self.vals[side][vn].write;
        if write & other_valid == 0 {
            return Resolution::Replace;
        }
        // Lanes the other value holds are clobbered: LLVM proves some
        // unread before the block ends; not done here.
        Resolution::Impossible
    }

    /// The other side's `IMPLICIT_DEF` value `ov` is live where value
    /// `vni` is defined: it stays a value when it reaches another block
    /// (or an EH pad might see it), else its lanes count as undefined.
    fn settle_implicit_def(&mut self, side: usize, vni: ValNo, ov: u32) {
        let other = 1 - side;
        let slots = &self.li.slots;
        let odef = self.sides[other].range.valnos[ov as usize].def;
        let (Some(oi), Some(ob)) = (slots.inst_at(odef), slots.block_of(odef)) else {
            return;
        };
        let escapes = !vni.is_phi()
            && (slots.block_of(vni.def) != Some(ob)
                || self.sides[side].range.live_at(slots.block_start(ob)));
        let eh = self.func.block(ob).succs.iter().any(|s| {
            self.func
                .block(s.block)
                .attrs
                .iter()
                .any(|a| matches!(&**a, "landing-pad" | "ehpad" | "ehfunclet-entry"))
        });
        let o = &mut self.vals[other][ov as usize];
        if escapes || eh {
            // LLVM's `mustKeepImplicitDef`.
            o.erasable_implicit_def = false;
            let sub = self
                .func
                .inst(oi)
                .operands
                .first()
                .and_then(|x| x.as_reg())
                .and_then(|r| r.sub);
            o.valid = lanes(self.t, sub);
        } else {
            o.valid &= !o.write;
        }
    }

    /// Whether value `vni` of side `side` and value `ov` of the other are
    /// the same value, followed back through whole-register copies
    /// (LLVM's `valuesIdentical`).
    fn values_identical(&self, side: usize, vni: ValNo, ov: u32) -> bool {
        let other = 1 - side;
        let (reg_side, reg_other) = (self.sides[side].reg, self.sides[other].reg);
        let value1 = self.sides[other].range.valnos[ov as usize];
        let (orig0, reg0) = self.follow_copies(reg_side, vni);
        if orig0 == Some(value1) && reg0 == reg_other {
            return true;
        }
        let (orig1, reg1) = self.follow_copies(reg_other, value1);
        match (orig0, orig1) {
            (Some(a), Some(b)) => a.def == b.def && reg0 == reg1,
            (a, b) => a.is_none() && b.is_none() && reg0 == reg1,
        }
    }

    /// The value `vni` of `reg` comes from, through whole-register copies
    /// from virtual registers, and its register; `None` when a copy reads
    /// an undefined value (LLVM's `followCopyChain`).
    fn follow_copies(&self, mut reg: VReg, mut vni: ValNo) -> (Option<ValNo>, VReg) {
        // Each step goes to a value defined earlier; the bound only guards
        // against a malformed function.
        for _ in 0..1024 {
            if vni.is_phi() {
                break;
            }
            let Some(mi) = self.li.slots.inst_at(vni.def) else {
                break;
            };
            let Some((_, RegRef::Virt(src))) = is_full_copy(self.func.inst(mi)) else {
                break;
            };
            let Some(iv) = self.li.vreg(src) else {
                return (None, src);
            };
            let Some(v) = query(&iv.range, vni.def).early else {
                return (None, src);
            };
            vni = iv.range.valnos[v as usize];
            reg = src;
        }
        (Some(vni), reg)
    }
}
