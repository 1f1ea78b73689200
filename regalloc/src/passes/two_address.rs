//! `twoaddressinstruction`: LLVM's TwoAddressInstructionPass. A use tied to a definition (`%a = OP %b(tied), %c`) becomes a copy and the instruction rewritten in place (`%a = COPY %b; %a = OP %a, %c`), after trying what LLVM tries to save the copy.
//!
//! Block by block, instruction by instruction, as LLVM's:
//!
//! - `REG_SEQUENCE` is expanded into sub-register copies (the first one
//!   `undef`), `INSERT_SUBREG` (whose base is tied to its result) becomes
//!   a sub-register `COPY` once its tie is lowered;
//! - a tied use that is `undef` is simply renamed to the definition;
//! - an instruction with one tied pair is first commuted when that lets
//!   the copy be coalesced: the other commutable operand dies here and
//!   the tied one does not, or LLVM's profitability rules say so (the
//!   physical registers copies connect the operands to, uses between a
//!   definition and the instruction, reversed copy chains, the nearer
//!   definition);
//! - else, with the `livevars` facts at hand, the instruction is moved
//!   below the last use of its tied source in the block (LLVM's
//!   rescheduling, at most ten instructions, one-cycle instructions only);
//! - else an `isConvertibleToThreeAddress` instruction whose tied source
//!   lives on (or comes from one physical register and goes to another)
//!   is replaced by its three-address form from the description
//!   ([`TargetInfo::three_address_forms`], x86's `ADD` to `LEA`; the
//!   `three_address` submodule), also after commuting it;
//! - else that last use is moved above the instruction, when nothing in
//!   between depends on either;
//! - what is left is a copy before the instruction, the tied use (and any
//!   other use of the same value) reading the copy; the source's kill
//!   moves to the copy and [`LiveVariables`] with it.
//!
//! Commutable operands are those of the description: an instruction whose
//! record says `isCommutable` swaps its first two uses (LLVM's default
//! `findCommutedOpIndices`), and [`TargetInfo::commute_rule`] gives what
//! LLVM's targets decide in code: a condition code that is reversed when
//! the operands swap (x86's `CMOV`), or an instruction that does not
//! commute by swapping alone (x86's `MOVSD`, `SHLD`), which is not commuted
//! here.
//!
//! Not done, each a target hook of LLVM's: unfolding a load to save a
//! copy (x86's `ADD64rm` to `MOV64rm` and `ADD64rr`; the instruction keeps
//! its load and gets a copy), and an instruction's
//! latency from a target's itineraries (Hexagon's): an instruction is
//! taken as one cycle, two when it loads, as LLVM takes it without
//! itineraries. LLVM 19's pass rematerializes nothing (the coalescer
//! does); neither does this.

use std::collections::{HashMap, HashSet};

use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{
    Block, Generic, Inst, InstAttrs, InstData, MachineFunction, MemFlags, Op, Operand, RegFlags,
    RegMask, RegOperand, RegRef, VReg,
};
use crate::target::{InstrFlags, Reg, RegClass, TargetInfo};

use super::LiveVariables;
use super::edit::{insert, is_debug, is_position};

mod three_address;

const COPY: Op = Op::Generic(Generic::Copy);

/// LLVM's `CommuteAnyOperandIndex`: either operand that commutes.
const ANY: usize = usize::MAX;

/// How far LLVM follows a copy chain back (`-dataflow-edge-limit`).
const MAX_DATAFLOW_EDGES: usize = 3;

/// Runs the pass on `func`, using and updating `lv` when given (without
/// it, as LLVM without `livevars`, nothing is rescheduled).
pub fn run(
    target: &TargetInfo<'_>,
    func: &mut MachineFunction,
    lv: Option<&mut LiveVariables>,
) -> Result<(), AllocError> {
    let mut pass = TwoAddress::new(target, func, lv);
    for b in func.block_ids() {
        pass.block(func, b)?;
    }
    Ok(())
}

/// Which instructions name each virtual register, kept as instructions
/// are added and operands renamed (stale entries are filtered by reading
/// the operands again): LLVM's use and definition lists.
struct RegIndex {
    /// By virtual register: the instructions with a definition of it.
    defs: Vec<Vec<Inst>>,
    /// ... with a use of it, in program order as first seen.
    uses: Vec<Vec<Inst>>,
}

impl RegIndex {
    fn of(func: &MachineFunction) -> RegIndex {
        let mut index = RegIndex {
            defs: vec![Vec::new(); func.vregs.len()],
            uses: vec![Vec::new(); func.vregs.len()],
        };
        for b in func.block_ids() {
            for &i in &func.block(b).insts {
                index.add(func.inst(i), i);
            }
        }
        index
    }

    /// Records the operands of `inst` (instruction `i`).
    fn add(&mut self, inst: &InstData, i: Inst) {
        for o in &inst.operands {
            let Some(r) = o.as_reg() else { continue };
            let RegRef::Virt(v) = r.reg else { continue };
            if self.defs.len() <= v.index() {
                self.defs.resize(v.index() + 1, Vec::new());
                self.uses.resize(v.index() + 1, Vec::new());
            }
            let list = if r.is_def() {
                &mut self.defs[v.index()]
            } else {
                &mut self.uses[v.index()]
            };
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
}

pub(crate) struct TwoAddress<'a, 't, 'l> {
    t: &'a TargetInfo<'t>,
    lv: Option<&'l mut LiveVariables>,
    regs: RegIndex,
    /// The block of each placed instruction.
    block_of: Vec<Option<Block>>,
    /// The block being rewritten.
    block: Block,
    /// Position of each visited instruction of the block (LLVM's
    /// `DistanceMap`).
    distance: HashMap<Inst, u32>,
    /// Copies already looked at (`Processed`).
    processed: HashSet<Inst>,
    /// The physical register each virtual register is likely to be
    /// coalesced with, through copies from it (`SrcRegMap`) ...
    src_map: HashMap<VReg, RegRef>,
    /// ... and through copies into it (`DstRegMap`).
    dst_map: HashMap<VReg, RegRef>,
}

impl<'a, 't, 'l> TwoAddress<'a, 't, 'l> {
    fn new(
        t: &'a TargetInfo<'t>,
        func: &MachineFunction,
        lv: Option<&'l mut LiveVariables>,
    ) -> Self {
        let mut block_of = vec![None; func.insts.len()];
        for b in func.block_ids() {
            for &i in &func.block(b).insts {
                block_of[i.index()] = Some(b);
            }
        }
        TwoAddress {
            t,
            lv,
            regs: RegIndex::of(func),
            block_of,
            block: Block::new(0),
            distance: HashMap::new(),
            processed: HashSet::new(),
            src_map: HashMap::new(),
            dst_map: HashMap::new(),
        }
    }

    /// Places `data` at `pos` of the current block, noting it everywhere.
    fn insert(&mut self, func: &mut MachineFunction, pos: usize, data: InstData) -> Inst {
        let i = insert(func, self.block, pos, data);
        self.regs.add(func.inst(i), i);
        if self.block_of.len() <= i.index() {
            self.block_of.resize(i.index() + 1, None);
        }
        self.block_of[i.index()] = Some(self.block);
        if let Some(lv) = self.lv.as_deref_mut() {
            lv.placed(i, Some(self.block));
        }
        i
    }

    fn position(&self, func: &MachineFunction, i: Inst) -> usize {
        func.block(self.block)
            .insts
            .iter()
            .position(|&x| x == i)
            .expect("an instruction of the block")
    }

    fn block(&mut self, func: &mut MachineFunction, b: Block) -> Result<(), AllocError> {
        self.block = b;
        self.distance.clear();
        self.processed.clear();
        self.src_map.clear();
        self.dst_map.clear();
        let mut dist = 0u32;
        let mut next = func.block(b).insts.first().copied();
        while let Some(mut mi) = next {
            let pos = self.position(func, mi);
            let mut nmi = func.block(b).insts.get(pos + 1).copied();
            if is_debug(func.inst(mi).op) {
                next = nmi;
                continue;
            }
            if func.inst(mi).op == Op::Generic(Generic::RegSequence) {
                mi = self.eliminate_reg_sequence(func, mi);
            }
            dist += 1;
            self.distance.entry(mi).or_insert(dist);
            self.process_copy(func, mi);
            let Some(tied) = self.collect_tied_operands(func, mi)? else {
                self.remove_clobbered_src_map(func, mi);
                next = nmi;
                continue;
            };
            if let [(_, pairs)] = &tied[..]
                && let [(src, dst)] = pairs[..]
                && reg_at(func, mi, src) != reg_at(func, mi, dst)
                && self.try_transform(func, &mut mi, &mut nmi, src, dst, &mut dist)
            {
                self.remove_clobbered_src_map(func, mi);
                next = nmi;
                continue;
            }
            for (_, pairs) in &tied {
                self.process_tied_pairs(func, mi, pairs, &mut dist);
            }
            if func.inst(mi).op == Op::Generic(Generic::InsertSubreg) {
                insert_subreg_to_copy(func, mi);
            }
            self.remove_clobbered_src_map(func, mi);
            next = nmi;
        }
        Ok(())
    }

    /// LLVM's `collectTiedOperands`: the tied pairs (use, definition) by
    /// source register, in the order LLVM's map gives them; `undef` tied
    /// uses renamed on the spot. `None` when the instruction has no tie.
    #[allow(clippy::type_complexity)]
    fn collect_tied_operands(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
    ) -> Result<Option<Vec<(RegRef, Vec<(usize, usize)>)>>, AllocError> {
        let mut any = false;
        let mut groups: Vec<(RegRef, Vec<(usize, usize)>)> = Vec::new();
        for src in 0..func.inst(mi).operands.len() {
            let Some(dst) = tied_def(func.inst(mi), src) else {
                continue;
            };
            any = true;
            let (Some(s), Some(d)) = (
                func.inst(mi).operands[src].as_reg().cloned(),
                func.inst(mi).operands[dst].as_reg().cloned(),
            ) else {
                continue;
            };
            if s.reg == d.reg {
                continue;
            }
            if s.flags.has(RegFlags::UNDEF) && d.sub.is_none() {
                if let (RegRef::Virt(dv), RegRef::Virt(sv)) = (d.reg, s.reg)
                    && let Some(c) = func.vreg_class(sv)
                {
                    constrain_class(self.t, func, dv, c);
                }
                if let Some(r) = func.inst_mut(mi).operands[src].as_reg_mut() {
                    r.reg = d.reg;
                    r.sub = None;
                }
                self.regs.add(func.inst(mi), mi);
                continue;
            }
            if !matches!(s.reg, RegRef::Virt(_)) {
                return Err(AllocError::new(
                    AllocErrorKind::Unsupported,
                    &func.name,
                    format!(
                        "a tied use of a physical register (operand {src}) cannot be made two-address"
                    ),
                ));
            }
            match groups.iter_mut().find(|(r, _)| *r == s.reg) {
                Some((_, pairs)) => pairs.push((src, dst)),
                None => groups.push((s.reg, vec![(src, dst)])),
            }
        }
        if !any {
            return Ok(None);
        }
        let keys: Vec<u64> = groups
            .iter()
            .map(|(r, _)| register_number(func, *r))
            .collect();
        let order = dense_map_order(&keys);
        let mut ordered: Vec<Option<(RegRef, Vec<(usize, usize)>)>> =
            groups.into_iter().map(Some).collect();
        Ok(Some(
            order
                .into_iter()
                .filter_map(|k| ordered[k].take())
                .collect(),
        ))
    }

    /// LLVM's `processTiedPairs`: a copy per pair before `mi`, the tied
    /// uses (and, when every pair was copied, the other uses of the same
    /// value) reading the copy, the source's kill moved to the copy.
    fn process_tied_pairs(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        pairs: &[(usize, usize)],
        dist: &mut u32,
    ) {
        let early_clobber = pairs.iter().any(|&(_, d)| {
            func.inst(mi).operands[d]
                .as_reg()
                .is_some_and(|r| r.flags.has(RegFlags::EARLY_CLOBBER))
        });
        let mut removed_kill = false;
        let mut all_copied = true;
        let mut last_copied = None;
        let mut reg_b = RegRef::NoReg;
        let mut sub_b = None;
        for &(src, dst) in pairs {
            let reg_a = reg_at(func, mi, dst);
            let src_op = func.inst(mi).operands[src]
                .as_reg()
                .cloned()
                .expect("a tied register");
            reg_b = src_op.reg;
            sub_b = src_op.sub;
            if reg_a == reg_b {
                all_copied = false;
                continue;
            }
            last_copied = Some(reg_a);
            let mut copy = InstData::new(COPY);
            copy.operands.push(Operand::Reg(RegOperand::def_of(reg_a)));
            let mut from = RegOperand::use_of(reg_b);
            from.sub = sub_b;
            copy.operands.push(Operand::Reg(from));
            if let Some(l) = func
                .inst(mi)
                .attrs
                .as_ref()
                .and_then(|a| a.debug_location.clone())
            {
                copy.attrs = Some(Box::new(InstAttrs {
                    debug_location: Some(l),
                    ..Default::default()
                }));
            }
            let at = self.position(func, mi);
            let c = self.insert(func, at, copy);
            self.distance.entry(c).or_insert(*dist);
            *dist += 1;
            self.distance.insert(mi, *dist);
            if plainly_killed_operand(func.inst(mi), src) {
                set_killed(func.inst_mut(mi), src, false);
                removed_kill = true;
            }
            if let (RegRef::Virt(a), RegRef::Virt(b)) = (reg_a, reg_b)
                && sub_b.is_none()
                && let Some(c) = func.vreg_class(b)
            {
                constrain_class(self.t, func, a, c);
            }
            if let Some(r) = func.inst_mut(mi).operands[src].as_reg_mut() {
                r.reg = reg_a;
                r.sub = None;
            }
        }
        let Some(last_copied) = last_copied else {
            if all_copied {
                return;
            }
            if removed_kill {
                mark_first_use_killed(func.inst_mut(mi), reg_b);
            }
            return;
        };
        if all_copied {
            let mut remaining_uses = false;
            for k in 0..func.inst(mi).operands.len() {
                let Some(r) = func.inst(mi).operands[k].as_reg() else {
                    continue;
                };
                if r.is_def() || r.reg != reg_b {
                    continue;
                }
                if r.sub == sub_b && !early_clobber {
                    if plainly_killed_operand(func.inst(mi), k) {
                        set_killed(func.inst_mut(mi), k, false);
                        removed_kill = true;
                    }
                    let r = func.inst_mut(mi).operands[k]
                        .as_reg_mut()
                        .expect("a register");
                    r.reg = last_copied;
                    r.sub = None;
                } else {
                    remaining_uses = true;
                }
            }
            self.regs.add(func.inst(mi), mi);
            let prev = func.block(self.block).insts[self.position(func, mi) - 1];
            if removed_kill
                && !remaining_uses
                && let RegRef::Virt(b) = reg_b
                && let Some(lv) = self.lv.as_deref_mut()
                && lv.var(b).remove_kill(mi)
            {
                lv.add_killed(self.t, func, b, prev);
            }
            if removed_kill
                && !remaining_uses
                && let RegRef::Virt(a) = last_copied
            {
                self.src_map.insert(a, reg_b);
            }
        } else if removed_kill {
            self.regs.add(func.inst(mi), mi);
            mark_first_use_killed(func.inst_mut(mi), reg_b);
        }
    }

    /// LLVM's `tryInstructionTransform` for the one tied pair (`src`,
    /// `dst`) of `mi`: true when no copy is needed now (the instruction
    /// was moved, or its tied use's last use moved above it).
    fn try_transform(
        &mut self,
        func: &mut MachineFunction,
        mi: &mut Inst,
        nmi: &mut Option<Inst>,
        src: usize,
        dst: usize,
        dist: &mut u32,
    ) -> bool {
        let reg_a = reg_at(func, *mi, dst);
        let reg_b = reg_at(func, *mi, src);
        let reg_b_killed = self.is_killed(func, *mi, reg_b, true);
        if let RegRef::Virt(a) = reg_a {
            self.scan_uses(func, a);
        }
        let commuted = self.try_commute(func, *mi, dst, src, reg_b_killed, *dist);
        let convertible =
            desc_flags(self.t, func.inst(*mi)).contains(InstrFlags::CONVERTIBLE_TO_3ADDR);
        if commuted && !convertible {
            return false;
        }
        if !commuted && self.reschedule_below_kill(func, *mi, nmi, reg_b) {
            return true;
        }
        // Commuting may have changed the tied source.
        let (reg_b, reg_b_killed) = if commuted {
            let b = reg_at(func, *mi, src);
            (b, self.is_killed(func, *mi, b, true))
        } else {
            (reg_b, reg_b_killed)
        };
        if convertible
            && (!reg_b_killed || self.profitable_to_convert(reg_a, reg_b))
            && self.convert_to_three_address(func, mi, nmi, reg_a, reg_b, dist)
        {
            return true;
        }
        if commuted {
            return false;
        }
        self.reschedule_kill_above(func, *mi, nmi, reg_b)
    }

    /// LLVM's `isProfitableToConv3Addr`: the tied source comes from a
    /// physical register and the result goes to another one, so the copy
    /// would not be coalesced even when the source dies here.
    fn profitable_to_convert(&self, reg_a: RegRef, reg_b: RegRef) -> bool {
        let Some(from_b) = mapped(reg_b, &self.src_map) else {
            return false;
        };
        mapped(reg_a, &self.dst_map).is_some_and(|to_a| !self.compatible(from_b, to_a))
    }

    /// LLVM's `convertInstTo3Addr`: replaces `mi` by the first of the
    /// description's three-address forms of it that applies
    /// ([`three_address`]); the instructions it places get distances, and
    /// `mi` becomes the last of them.
    fn convert_to_three_address(
        &mut self,
        func: &mut MachineFunction,
        mi: &mut Inst,
        nmi: &mut Option<Inst>,
        reg_a: RegRef,
        reg_b: RegRef,
        dist: &mut u32,
    ) -> bool {
        let Some(placed) = three_address::convert(self, func, *mi) else {
            return false;
        };
        self.distance.remove(mi);
        for &i in &placed {
            self.distance.entry(i).or_insert(*dist);
            *dist += 1;
        }
        *dist -= 1;
        let last = *placed.last().expect("the new instruction");
        *mi = last;
        let at = self.position(func, last);
        *nmi = func.block(self.block).insts.get(at + 1).copied();
        if let RegRef::Virt(a) = reg_a {
            self.src_map.remove(&a);
        }
        if let RegRef::Virt(b) = reg_b {
            self.dst_map.remove(&b);
        }
        true
    }

    /// LLVM's `tryInstructionCommute`.
    fn try_commute(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        dst: usize,
        base: usize,
        mut base_killed: bool,
        dist: u32,
    ) -> bool {
        let Op::Target(op) = func.inst(mi).op else {
            return false;
        };
        let desc = self.t.instr(op);
        if !desc.is(InstrFlags::COMMUTABLE) {
            return false;
        }
        let reg_a = reg_at(func, mi, dst);
        let mut base_reg = reg_at(func, mi, base);
        let count = desc.operands.len();
        let mut changed = false;
        for other in usize::from(desc.num_defs)..count {
            if other == base
                || func
                    .inst(mi)
                    .operands
                    .get(other)
                    .and_then(Operand::as_reg)
                    .is_none()
                || self.commuted_operands(func.inst(mi), base, other).is_none()
            {
                continue;
            }
            let other_reg = reg_at(func, mi, other);
            let other_killed = self.is_killed(func, mi, other_reg, false);
            let mut commute = !base_killed && other_killed;
            if !commute && self.profitable_to_commute(func, reg_a, base_reg, other_reg, mi, dist) {
                commute = true;
            }
            if commute && self.commute(func, mi, dst, base, other) {
                changed = true;
                base_reg = other_reg;
                base_killed = other_killed;
            }
        }
        changed
    }

    /// LLVM's `findCommutedOpIndices`: the two operands that commute, one
    /// of them `first` and `second` (either may be [`ANY`]).
    fn commuted_operands(
        &self,
        inst: &InstData,
        first: usize,
        second: usize,
    ) -> Option<(usize, usize)> {
        let Op::Target(op) = inst.op else { return None };
        let desc = self.t.instr(op);
        if !desc.is(InstrFlags::COMMUTABLE) || self.t.commute_rule(op).is_some_and(|r| !r.commutes)
        {
            return None;
        }
        let c1 = usize::from(desc.num_defs);
        let c2 = c1 + 1;
        let (a, b) = match (first, second) {
            (ANY, ANY) => (c1, c2),
            (ANY, s) | (s, ANY) => {
                let o = if s == c1 {
                    c2
                } else if s == c2 {
                    c1
                } else {
                    return None;
                };
                if first == ANY { (o, s) } else { (s, o) }
            }
            (f, s) if (f == c1 && s == c2) || (f == c2 && s == c1) => (f, s),
            _ => return None,
        };
        let is_reg = |k: usize| inst.operands.get(k).and_then(Operand::as_reg).is_some();
        (is_reg(a) && is_reg(b)).then_some((a, b))
    }

    /// Commutes operands `b` and `c` of `mi` (LLVM's
    /// `commuteInstruction`, in place): registers, sub-registers and their
    /// flags swap; a condition the description names is reversed.
    fn commute(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        dst: usize,
        b: usize,
        c: usize,
    ) -> bool {
        let reg_c = reg_at(func, mi, c);
        let Op::Target(op) = func.inst(mi).op else {
            return false;
        };
        if let Some(rule) = self.t.commute_rule(op)
            && let Some((k, xor)) = rule.condition
        {
            let Some(Operand::Imm(v)) = func.inst_mut(mi).operands.get_mut(usize::from(k)) else {
                return false;
            };
            *v ^= xor;
        }
        let inst = func.inst_mut(mi);
        let (Some(x), Some(y)) = (
            inst.operands[b].as_reg().cloned(),
            inst.operands[c].as_reg().cloned(),
        ) else {
            return false;
        };
        const SWAPPED: [RegFlags; 4] = [
            RegFlags::KILLED,
            RegFlags::UNDEF,
            RegFlags::INTERNAL,
            RegFlags::RENAMABLE,
        ];
        for (to, from) in [(b, &y), (c, &x)] {
            let r = inst.operands[to].as_reg_mut().expect("a register");
            r.reg = from.reg;
            r.sub = from.sub;
            for f in SWAPPED {
                r.flags.set(f, from.flags.has(f));
            }
        }
        self.regs.add(func.inst(mi), mi);
        if let Some(from_c) = mapped(reg_c, &self.src_map)
            && let RegRef::Virt(a) = reg_at(func, mi, dst)
        {
            self.src_map.insert(a, RegRef::Phys(from_c));
        }
        true
    }

    /// LLVM's `isProfitableToCommute`.
    fn profitable_to_commute(
        &self,
        func: &MachineFunction,
        reg_a: RegRef,
        reg_b: RegRef,
        reg_c: RegRef,
        mi: Inst,
        dist: u32,
    ) -> bool {
        if !kills(func.inst(mi), reg_c) {
            return false;
        }
        if let Some(to_a) = mapped(reg_a, &self.dst_map) {
            let from_b = mapped(reg_b, &self.src_map);
            let from_c = mapped(reg_c, &self.src_map);
            let comp_b = from_b.is_some_and(|f| self.compatible(f, to_a));
            let comp_c = from_c.is_some_and(|f| self.compatible(f, to_a));
            if (from_b.is_none() && comp_c)
                || (from_b.is_some() && !comp_b && (from_c.is_none() || comp_c))
            {
                return true;
            }
            if (from_c.is_none() && comp_b)
                || (from_c.is_some() && !comp_c && (from_b.is_none() || comp_b))
            {
                return false;
            }
        }
        let Some(last_def_c) = self.no_use_after_last_def(func, reg_c, dist) else {
            return false;
        };
        let Some(last_def_b) = self.no_use_after_last_def(func, reg_b, dist) else {
            return true;
        };
        if self.reversed_copy_chain(func, reg_c, reg_a) {
            return true;
        }
        if self.reversed_copy_chain(func, reg_b, reg_a) {
            return false;
        }
        last_def_b != 0 && last_def_c != 0 && last_def_c > last_def_b
    }

    fn compatible(&self, a: Reg, b: Reg) -> bool {
        a == b || self.t.regs_overlap(a, b)
    }

    /// LLVM's `noUseAfterLastDef`: the position of `reg`'s last definition
    /// in the block before `dist` (0 for none), or `None` when a use
    /// follows that definition before `dist`.
    fn no_use_after_last_def(&self, func: &MachineFunction, reg: RegRef, dist: u32) -> Option<u32> {
        let mut last_def = 0;
        let mut last_use = dist;
        for &i in &func.block(self.block).insts {
            let inst = func.inst(i);
            if is_debug(inst.op) {
                continue;
            }
            let Some(&d) = self.distance.get(&i) else {
                continue;
            };
            for r in inst.operands.iter().filter_map(Operand::as_reg) {
                if r.reg != reg {
                    continue;
                }
                if !r.is_def() && d < last_use {
                    last_use = d;
                }
                if r.is_def() && d > last_def {
                    last_def = d;
                }
            }
        }
        (!(last_use > last_def && last_use < dist)).then_some(last_def)
    }

    /// LLVM's `isRevCopyChain`: `from` is a copy (of a copy ...) of `to`
    /// within the block.
    fn reversed_copy_chain(&self, func: &MachineFunction, from: RegRef, to: RegRef) -> bool {
        let mut reg = from;
        for _ in 0..MAX_DATAFLOW_EDGES {
            let Some(def) = self.single_def_in_block(func, reg) else {
                return false;
            };
            if func.inst(def).op != COPY {
                return false;
            }
            reg = reg_at(func, def, 1);
            if reg == to {
                return true;
            }
        }
        false
    }

    /// LLVM's `getSingleDef`: the one instruction of the block defining
    /// `reg`.
    fn single_def_in_block(&self, func: &MachineFunction, reg: RegRef) -> Option<Inst> {
        let mut found = None;
        for &i in &func.block(self.block).insts {
            let inst = func.inst(i);
            if inst.op == Op::Generic(Generic::DbgValue) {
                continue;
            }
            if inst
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|r| r.is_def() && r.reg == reg)
            {
                if found.is_some() {
                    return None;
                }
                found = Some(i);
            }
        }
        found
    }

    /// The placed instructions defining `v`, one entry per definition
    /// operand.
    fn def_operands(&self, func: &MachineFunction, v: VReg) -> Vec<Inst> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for &i in self.regs.defs.get(v.index()).into_iter().flatten() {
            if self.block_of.get(i.index()).copied().flatten().is_none() || !seen.insert(i) {
                continue;
            }
            let n = func
                .inst(i)
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .filter(|r| r.is_def() && r.reg == RegRef::Virt(v))
                .count();
            out.extend(std::iter::repeat_n(i, n));
        }
        out
    }

    /// LLVM's `isKilled`: `reg` dies at `mi`, looking through the copies
    /// defining it (a value copied from one that lives on is not taken as
    /// killed, so that the copy may be coalesced).
    fn is_killed(
        &self,
        func: &MachineFunction,
        mi: Inst,
        reg: RegRef,
        allow_false_positives: bool,
    ) -> bool {
        let mut at = mi;
        let mut reg = reg;
        loop {
            if let RegRef::Phys(p) = reg
                && (allow_false_positives || self.has_one_use(func, p))
            {
                return true;
            }
            if !kills(func.inst(at), reg) {
                return false;
            }
            let RegRef::Virt(v) = reg else {
                return true;
            };
            let defs = self.def_operands(func, v);
            if defs.len() != 1 {
                return true;
            }
            at = defs[0];
            match copy_to_reg(func.inst(at)) {
                Some((src, _)) => reg = src,
                None => return true,
            }
        }
    }

    /// Whether physical register `p` is read exactly once in the function.
    fn has_one_use(&self, func: &MachineFunction, p: Reg) -> bool {
        func.inst_ids()
            .flat_map(|i| func.inst(i).operands.iter())
            .filter_map(Operand::as_reg)
            .filter(|r| !r.is_def() && r.reg == RegRef::Phys(p))
            .take(2)
            .count()
            == 1
    }

    /// LLVM's `processCopy`: a copy between a physical and a virtual
    /// register records the likely coalescing in the maps.
    fn process_copy(&mut self, func: &MachineFunction, mi: Inst) {
        if self.processed.contains(&mi) {
            return;
        }
        if let Some((src, dst)) = copy_to_reg(func.inst(mi)) {
            match (src, dst) {
                (RegRef::Virt(s), RegRef::Phys(_)) => {
                    self.dst_map.entry(s).or_insert(dst);
                }
                (RegRef::Phys(_), RegRef::Virt(d)) => {
                    self.src_map.entry(d).or_insert(src);
                    self.scan_uses(func, d);
                }
                _ => {}
            }
        }
        self.processed.insert(mi);
    }

    /// LLVM's `scanUses`: follows `dst`'s only interesting use (a copy or
    /// a two-address use, in this block, killing it) forward, recording
    /// where each value is likely to end up.
    fn scan_uses(&mut self, func: &MachineFunction, dst: VReg) {
        let mut pairs: Vec<RegRef> = Vec::new();
        let mut is_copy = false;
        let mut reg = dst;
        while let Some((use_mi, new_reg)) = self.only_interesting_use(func, reg, &mut is_copy) {
            if is_copy && !self.processed.insert(use_mi) {
                break;
            }
            if self.distance.contains_key(&use_mi) {
                break;
            }
            let RegRef::Virt(n) = new_reg else {
                pairs.push(new_reg);
                break;
            };
            self.src_map.insert(n, RegRef::Virt(reg));
            pairs.push(new_reg);
            reg = n;
        }
        let Some(mut to) = pairs.pop() else {
            return;
        };
        while let Some(from) = pairs.pop() {
            if let RegRef::Virt(f) = from {
                self.dst_map.entry(f).or_insert(to);
            }
            to = from;
        }
        self.dst_map.entry(dst).or_insert(to);
    }

    /// LLVM's `findOnlyInterestingUse`: when every use of `reg` is in the
    /// block, the last one that kills it, if it is a copy or a
    /// two-address use (or commutes into one); with the register it
    /// defines. `is_copy` is set (and stays set) when it is a copy.
    fn only_interesting_use(
        &self,
        func: &MachineFunction,
        reg: VReg,
        is_copy: &mut bool,
    ) -> Option<(Inst, RegRef)> {
        let mut use_op: Option<(Inst, usize)> = None;
        let mut seen = HashSet::new();
        for &i in self.regs.uses.get(reg.index()).into_iter().flatten() {
            if !seen.insert(i) {
                continue;
            }
            let Some(b) = self.block_of.get(i.index()).copied().flatten() else {
                continue;
            };
            let inst = func.inst(i);
            if is_debug(inst.op) {
                continue;
            }
            for (k, r) in inst.operands.iter().enumerate() {
                let Some(r) = r.as_reg() else { continue };
                if r.is_def() || r.reg != RegRef::Virt(reg) {
                    continue;
                }
                if b != self.block {
                    return None;
                }
                if kills(inst, RegRef::Virt(reg)) {
                    use_op = Some((i, k));
                }
            }
        }
        let (use_mi, k) = use_op?;
        let inst = func.inst(use_mi);
        if let Some((_, dst)) = copy_to_reg(inst) {
            *is_copy = true;
            return Some((use_mi, dst));
        }
        if let Some(dst) = two_address_use(inst, RegRef::Virt(reg)) {
            return Some((use_mi, dst));
        }
        if let Some((src1, _)) = self.commuted_operands(inst, ANY, k)
            && let Some(r) = inst.operands[src1].as_reg()
            && !r.is_def()
            && let Some(dst) = two_address_use(inst, r.reg)
        {
            return Some((use_mi, dst));
        }
        None
    }

    /// LLVM's `removeClobberedSrcRegMap`: entries mapped to a physical
    /// register `mi` overwrites are forgotten.
    fn remove_clobbered_src_map(&mut self, func: &MachineFunction, mi: Inst) {
        let inst = func.inst(mi);
        if inst.op == COPY {
            let dst = reg_at(func, mi, 0);
            if !matches!(dst, RegRef::Phys(_)) {
                return;
            }
            let src = reg_at(func, mi, 1);
            if let (RegRef::Phys(d), Some(m)) = (dst, mapped(src, &self.src_map))
                && self.compatible(d, m)
            {
                return;
            }
        }
        for o in &inst.operands {
            let clobbered: Box<dyn Fn(Reg) -> bool> = match o {
                Operand::RegMask(m) => {
                    let m = m.clone();
                    let t = self.t;
                    Box::new(move |r| match &m {
                        RegMask::Named(s) => !t.mask_preserves(*s, r),
                        RegMask::Custom(list) => !list.contains(&r),
                    })
                }
                Operand::Reg(r) if r.is_def() => {
                    let RegRef::Phys(p) = r.reg else { continue };
                    let t = self.t;
                    Box::new(move |x| x == p || t.regs_overlap(x, p))
                }
                _ => continue,
            };
            self.src_map
                .retain(|_, to| !matches!(to, RegRef::Phys(p) if clobbered(*p)));
        }
    }

    /// The instruction of this block that kills `v`, when there is one
    /// (live variables known) and it is neither `mi` nor copy-like: the
    /// other end of both reschedulings below.
    fn other_kill_in_block(&mut self, func: &MachineFunction, mi: Inst, v: VReg) -> Option<Inst> {
        let block = self.block;
        let kill = self.lv.as_deref_mut()?.find_kill(v, block)?;
        (kill != mi && !is_copy_like(func.inst(kill).op)).then_some(kill)
    }

    /// LLVM's `rescheduleMIBelowKill`: moves `mi` (and the copies of its
    /// results that follow it) below the last use of `reg` in the block.
    fn reschedule_below_kill(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        nmi: &mut Option<Inst>,
        reg: RegRef,
    ) -> bool {
        let RegRef::Virt(v) = reg else { return false };
        if !self.distance.contains_key(&mi) {
            return false;
        }
        let Some(kill) = self.other_kill_in_block(func, mi, v) else {
            return false;
        };
        let (t, block) = (self.t, self.block);
        if unmovable(t, func.inst(kill)) || two_address_use(func.inst(kill), reg).is_some() {
            return false;
        }
        if !safe_to_move(t, func.inst(mi)) || latency(t, func.inst(mi)) > 1 {
            return false;
        }
        let (mut uses, mut kills_, mut defs) = (Vec::new(), Vec::new(), Vec::new());
        for r in func.inst(mi).operands.iter().filter_map(Operand::as_reg) {
            if r.reg == RegRef::NoReg {
                continue;
            }
            if r.is_def() {
                defs.push(r.reg);
            } else {
                uses.push(r.reg);
                if r.reg != reg && r.flags.has(RegFlags::KILLED) {
                    kills_.push(r.reg);
                }
            }
        }
        let insts = func.block(block).insts.clone();
        let mut begin = self.position(func, mi);
        let mut end = begin + 1;
        while end < insts.len() {
            while end < insts.len() && is_debug(func.inst(insts[end]).op) {
                end += 1;
            }
            if end == insts.len() {
                break;
            }
            let e = func.inst(insts[end]);
            if e.op == COPY && self.overlaps_set(&defs, reg_of(e, 1)) {
                defs.push(reg_of(e, 0));
                end += 1;
            } else {
                break;
            }
        }
        let Some(kill_pos) = insts.iter().position(|&x| x == kill) else {
            return false;
        };
        if kill_pos < end {
            return false;
        }
        let mut visited = 0;
        for &other in &insts[end..=kill_pos] {
            let o = func.inst(other);
            if is_debug(o.op) || o.op == Op::Generic(Generic::PseudoProbe) {
                continue;
            }
            if visited > 10 {
                return false;
            }
            visited += 1;
            if unmovable(t, o) {
                return false;
            }
            for r in o.operands.iter().filter_map(Operand::as_reg) {
                if r.reg == RegRef::NoReg {
                    continue;
                }
                if r.is_def() {
                    if self.overlaps_set(&uses, r.reg) {
                        return false;
                    }
                    if !r.flags.has(RegFlags::DEAD) && self.overlaps_set(&defs, r.reg) {
                        return false;
                    }
                } else {
                    if self.overlaps_set(&defs, r.reg) {
                        return false;
                    }
                    let killed = r.flags.has(RegFlags::KILLED);
                    if r.reg != reg
                        && ((killed && self.overlaps_set(&uses, r.reg))
                            || self.overlaps_set(&kills_, r.reg))
                    {
                        return false;
                    }
                    if r.reg == reg && !killed {
                        return false;
                    }
                }
            }
        }
        while begin > 0 && is_debug(func.inst(insts[begin - 1]).op) {
            begin -= 1;
        }
        *nmi = insts.get(end).copied();
        let moved: Vec<Inst> = insts[begin..end].to_vec();
        let list = &mut func.blocks[block.index()].insts;
        list.drain(begin..end);
        let at = list.iter().position(|&x| x == kill).expect("the kill") + 1;
        list.splice(at..at, moved);
        self.distance.remove(&mi);
        let lv = self.lv.as_deref_mut().expect("live variables");
        lv.remove_killed(func, v, kill);
        lv.add_killed(t, func, v, mi);
        true
    }

    /// LLVM's `rescheduleKillAboveMI`: moves the last use of `reg` in the
    /// block above `mi`, so that `mi` kills it.
    fn reschedule_kill_above(
        &mut self,
        func: &mut MachineFunction,
        mi: Inst,
        nmi: &mut Option<Inst>,
        reg: RegRef,
    ) -> bool {
        let RegRef::Virt(v) = reg else { return false };
        let Some(&mi_dist) = self.distance.get(&mi) else {
            return false;
        };
        let Some(kill) = self.other_kill_in_block(func, mi, v) else {
            return false;
        };
        let (t, block) = (self.t, self.block);
        if two_address_use(func.inst(kill), reg).is_some() || !safe_to_move(t, func.inst(kill)) {
            return false;
        }
        let (mut uses, mut kills_, mut defs, mut live_defs) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for r in func.inst(kill).operands.iter().filter_map(Operand::as_reg) {
            if !r.is_def() {
                if r.reg == RegRef::NoReg {
                    continue;
                }
                if self.def_too_close(func, r.reg, mi_dist, mi) {
                    return false;
                }
                let killed = r.flags.has(RegFlags::KILLED);
                if r.reg == reg && !killed {
                    return false;
                }
                uses.push(r.reg);
                if killed && r.reg != reg {
                    kills_.push(r.reg);
                }
            } else if let RegRef::Phys(_) = r.reg {
                defs.push(r.reg);
                if !r.flags.has(RegFlags::DEAD) {
                    live_defs.push(r.reg);
                }
            }
        }
        let insts = func.block(block).insts.clone();
        let mi_pos = self.position(func, mi);
        let Some(kill_pos) = insts.iter().position(|&x| x == kill) else {
            return false;
        };
        if kill_pos < mi_pos {
            return false;
        }
        let mut visited = 0;
        for &other in &insts[mi_pos..kill_pos] {
            let o = func.inst(other);
            if is_debug(o.op) || o.op == Op::Generic(Generic::PseudoProbe) {
                continue;
            }
            if visited > 10 {
                return false;
            }
            visited += 1;
            if unmovable(t, o) {
                return false;
            }
            let mut other_defs = Vec::new();
            for r in o.operands.iter().filter_map(Operand::as_reg) {
                if r.reg == RegRef::NoReg {
                    continue;
                }
                if r.is_def() {
                    other_defs.push(r.reg);
                    continue;
                }
                if self.overlaps_set(&defs, r.reg) || self.overlaps_set(&kills_, r.reg) {
                    return false;
                }
                if other != mi && r.reg == reg && !r.flags.has(RegFlags::KILLED) {
                    return false;
                }
            }
            for d in other_defs {
                if self.overlaps_set(&uses, d) {
                    return false;
                }
                if matches!(d, RegRef::Phys(_)) && self.overlaps_set(&live_defs, d) {
                    return false;
                }
                defs.retain(|&x| x != d);
            }
        }
        let mut insert_at = mi_pos;
        while insert_at > 0 && is_debug(func.inst(insts[insert_at - 1]).op) {
            insert_at -= 1;
        }
        let mut from = kill_pos;
        while from > 0 && is_debug(func.inst(insts[from - 1]).op) {
            from -= 1;
        }
        let moved: Vec<Inst> = insts[from..=kill_pos].to_vec();
        let list = &mut func.blocks[block.index()].insts;
        list.drain(from..=kill_pos);
        list.splice(insert_at..insert_at, moved);
        *nmi = Some(kill);
        self.distance.remove(&mi);
        let lv = self.lv.as_deref_mut().expect("live variables");
        lv.remove_killed(func, v, kill);
        lv.add_killed(t, func, v, mi);
        true
    }

    /// LLVM's `isDefTooClose`: a definition of `reg` in the block is `mi`
    /// itself, below it, or too few instructions above it for its latency.
    fn def_too_close(&self, func: &MachineFunction, reg: RegRef, dist: u32, mi: Inst) -> bool {
        for &i in &func.block(self.block).insts {
            let inst = func.inst(i);
            if !inst
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|r| r.is_def() && r.reg == reg)
            {
                continue;
            }
            if is_copy_like(inst.op) {
                continue;
            }
            if i == mi {
                return true;
            }
            let Some(&d) = self.distance.get(&i) else {
                return true;
            };
            if latency(self.t, inst) > dist.saturating_sub(d) {
                return true;
            }
        }
        false
    }

    /// LLVM's `regOverlapsSet`.
    fn overlaps_set(&self, set: &[RegRef], reg: RegRef) -> bool {
        set.iter().any(|&r| match (r, reg) {
            (RegRef::Phys(a), RegRef::Phys(b)) => self.compatible(a, b),
            _ => r == reg,
        })
    }

    /// LLVM's `eliminateRegSequence`: `%d = REG_SEQUENCE %a, sub0, %b,
    /// sub1` becomes `undef %d.sub0 = COPY %a; %d.sub1 = COPY %b`; the
    /// instruction to go on with (the first copy, or the instruction
    /// itself turned into an `IMPLICIT_DEF` when every input is `undef`).
    fn eliminate_reg_sequence(&mut self, func: &mut MachineFunction, mi: Inst) -> Inst {
        let dst = reg_at(func, mi, 0);
        let mut first = None;
        let n = func.inst(mi).operands.len();
        let mut k = 1;
        while k + 1 < n {
            let Some(mut use_op) = func.inst(mi).operands[k].as_reg().cloned() else {
                k += 2;
                continue;
            };
            let Operand::SubRegIndex(idx) = func.inst(mi).operands[k + 1] else {
                k += 2;
                continue;
            };
            if use_op.flags.has(RegFlags::UNDEF) {
                k += 2;
                continue;
            }
            let mut killed = use_op.flags.has(RegFlags::KILLED);
            if killed {
                let later = (k + 2..n).step_by(2).find(|&j| {
                    func.inst(mi).operands[j]
                        .as_reg()
                        .is_some_and(|r| r.reg == use_op.reg)
                });
                if let Some(j) = later {
                    set_killed(func.inst_mut(mi), j, true);
                    set_killed(func.inst_mut(mi), k, false);
                    use_op.flags.set(RegFlags::KILLED, false);
                    killed = false;
                }
            }
            let mut def = RegOperand::def_of(dst);
            def.sub = Some(idx);
            def.flags.set(RegFlags::UNDEF, first.is_none());
            let mut copy = InstData::new(COPY);
            copy.attrs = func.inst(mi).attrs.as_ref().and_then(|a| {
                a.debug_location.clone().map(|l| {
                    Box::new(InstAttrs {
                        debug_location: Some(l),
                        ..Default::default()
                    })
                })
            });
            copy.operands.push(Operand::Reg(def));
            use_op.tied_to = None;
            copy.operands.push(Operand::Reg(use_op.clone()));
            let at = self.position(func, mi);
            let c = self.insert(func, at, copy);
            first.get_or_insert(c);
            if killed
                && let RegRef::Virt(v) = use_op.reg
                && let Some(lv) = self.lv.as_deref_mut()
                && lv.var(v).remove_kill(mi)
            {
                lv.var(v).kills.push(c);
            }
            k += 2;
        }
        match first {
            Some(c) => {
                let at = self.position(func, mi);
                func.blocks[self.block.index()].insts.remove(at);
                self.block_of[mi.index()] = None;
                if let Some(lv) = self.lv.as_deref_mut() {
                    lv.placed(mi, None);
                }
                c
            }
            None => {
                let inst = func.inst_mut(mi);
                inst.op = Op::Generic(Generic::ImplicitDef);
                inst.operands.truncate(1);
                mi
            }
        }
    }
}

/// LLVM's `getMappedReg`: the physical register `reg` leads to through
/// `map`.
fn mapped(reg: RegRef, map: &HashMap<VReg, RegRef>) -> Option<Reg> {
    let mut reg = reg;
    loop {
        match reg {
            RegRef::Virt(v) => reg = *map.get(&v)?,
            RegRef::Phys(p) => return Some(p),
            RegRef::NoReg => return None,
        }
    }
}

/// The register of operand `k` of `i`.
fn reg_at(func: &MachineFunction, i: Inst, k: usize) -> RegRef {
    reg_of(func.inst(i), k)
}

fn reg_of(inst: &InstData, k: usize) -> RegRef {
    inst.operands
        .get(k)
        .and_then(Operand::as_reg)
        .map_or(RegRef::NoReg, |r| r.reg)
}

/// The definition use operand `k` is tied to: the operand's own tie, or
/// `INSERT_SUBREG`'s base (tied to its result by LLVM's description of
/// the pseudo-instruction).
fn tied_def(inst: &InstData, k: usize) -> Option<usize> {
    let r = inst.operands.get(k)?.as_reg()?;
    if r.is_def() {
        return None;
    }
    if inst.op == Op::Generic(Generic::InsertSubreg) {
        return (k == 1).then_some(0);
    }
    r.tied_to.map(usize::from)
}

/// LLVM's `isTwoAddrUse`: the register `reg` is read by a tied use of
/// `inst`, and the definition it is tied to.
fn two_address_use(inst: &InstData, reg: RegRef) -> Option<RegRef> {
    (0..inst.operands.len()).find_map(|k| {
        let r = inst.operands[k].as_reg()?;
        if r.is_def() || r.reg != reg {
            return None;
        }
        tied_def(inst, k).map(|d| reg_of(inst, d))
    })
}

/// LLVM's `isCopyToReg`: (source, destination) of a `COPY`,
/// `INSERT_SUBREG` or `SUBREG_TO_REG`.
fn copy_to_reg(inst: &InstData) -> Option<(RegRef, RegRef)> {
    match inst.op {
        Op::Generic(Generic::Copy) => Some((reg_of(inst, 1), reg_of(inst, 0))),
        Op::Generic(Generic::InsertSubreg | Generic::SubregToReg) => {
            Some((reg_of(inst, 2), reg_of(inst, 0)))
        }
        _ => None,
    }
}

fn is_copy_like(op: Op) -> bool {
    matches!(op, Op::Generic(Generic::Copy | Generic::SubregToReg))
}

/// Whether `inst` kills `reg` (LLVM's `killsRegister`, without aliases).
fn kills(inst: &InstData, reg: RegRef) -> bool {
    inst.operands
        .iter()
        .filter_map(Operand::as_reg)
        .any(|r| !r.is_def() && r.reg == reg && r.flags.has(RegFlags::KILLED))
}

/// Whether use operand `k` is killed, or its register killed elsewhere in
/// the instruction (LLVM's `isPlainlyKilled` of an operand).
fn plainly_killed_operand(inst: &InstData, k: usize) -> bool {
    inst.operands[k]
        .as_reg()
        .is_some_and(|r| r.flags.has(RegFlags::KILLED) || kills(inst, r.reg))
}

fn set_killed(inst: &mut InstData, k: usize, on: bool) {
    if let Some(r) = inst.operands[k].as_reg_mut() {
        r.flags.set(RegFlags::KILLED, on);
    }
}

fn mark_first_use_killed(inst: &mut InstData, reg: RegRef) {
    if let Some(r) = inst
        .operands
        .iter_mut()
        .filter_map(Operand::as_reg_mut)
        .find(|r| !r.is_def() && r.reg == reg)
    {
        r.flags.set(RegFlags::KILLED, true);
    }
}

/// `%d = INSERT_SUBREG %d, %s, idx` (its tie lowered) becomes
/// `%d.idx = COPY %s`, `undef` when the base was.
fn insert_subreg_to_copy(func: &mut MachineFunction, mi: Inst) {
    let inst = func.inst_mut(mi);
    let Some(Operand::SubRegIndex(idx)) = inst.operands.get(3).cloned() else {
        return;
    };
    inst.operands.remove(3);
    let base_undef = inst.operands[1]
        .as_reg()
        .is_some_and(|r| r.flags.has(RegFlags::UNDEF));
    if let Some(d) = inst.operands[0].as_reg_mut() {
        d.sub = Some(idx);
        d.flags.set(RegFlags::UNDEF, base_undef);
    }
    inst.operands.remove(1);
    inst.op = COPY;
}

/// Narrows `v`'s class to a sub-class of `c` (LLVM's `constrainRegClass`;
/// left as it is when the two have none in common).
fn constrain_class(t: &TargetInfo<'_>, func: &mut MachineFunction, v: VReg, c: RegClass) {
    let Some(cur) = func.vreg_class(v) else {
        return;
    };
    if cur == c {
        return;
    }
    if let Some(n) = crate::alloc::inflate::common_sub_class(t, cur, c) {
        func.vregs[v.index()].class = Some(n);
    }
}

/// The number LLVM's `Register` holds for `r` (virtual registers have the
/// top bit set), which its hash maps are keyed by.
fn register_number(func: &MachineFunction, r: RegRef) -> u64 {
    match r {
        RegRef::Virt(v) => 0x8000_0000 | func.vreg_number(v),
        RegRef::Phys(p) => p.index() as u64 + 1,
        RegRef::NoReg => 0,
    }
}

/// The order LLVM's `SmallDenseMap<Register, _, 4>` iterates keys
/// inserted in the order given: by bucket, the hash `key * 37`, quadratic
/// probing, four inline buckets growing to 64 at the third key.
fn dense_map_order(keys: &[u64]) -> Vec<usize> {
    let buckets: usize = if keys.len() * 4 >= 4 * 3 { 64 } else { 4 };
    let mut slots: Vec<Option<usize>> = vec![None; buckets];
    for (k, &key) in keys.iter().enumerate() {
        let mut b = (key.wrapping_mul(37) as u32 as usize) & (buckets - 1);
        let mut probe = 1;
        while slots[b].is_some() {
            b = (b + probe) & (buckets - 1);
            probe += 1;
        }
        slots[b] = Some(k);
    }
    slots.into_iter().flatten().collect()
}

/// The description's flags of `inst` (none for generic and unknown
/// instructions).
fn desc_flags(t: &TargetInfo<'_>, inst: &InstData) -> InstrFlags {
    match inst.op {
        Op::Target(o) => t.instr(o).flags,
        _ => InstrFlags::NONE,
    }
}

/// Whether `inst` has effects no register shows: described side effects,
/// inline assembly, generic instructions other than copies and
/// definitions, and opcodes the description lacks.
fn has_side_effects(t: &TargetInfo<'_>, inst: &InstData) -> bool {
    match inst.op {
        Op::Target(o) => t.instr(o).is(InstrFlags::SIDE_EFFECTS),
        Op::Generic(g) => !matches!(
            g,
            Generic::Copy
                | Generic::ImplicitDef
                | Generic::InsertSubreg
                | Generic::SubregToReg
                | Generic::RegSequence
                | Generic::Kill
        ),
        Op::Unknown(_) => true,
    }
}

/// What LLVM does not move an instruction across: side effects, calls,
/// branches, terminators.
fn unmovable(t: &TargetInfo<'_>, inst: &InstData) -> bool {
    let f = desc_flags(t, inst);
    has_side_effects(t, inst)
        || f.contains(InstrFlags::CALL)
        || f.contains(InstrFlags::BRANCH)
        || inst.op.is_terminator(t)
        || inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::RegMask(_)))
}

/// LLVM's `MachineInstr::isSafeToMove` after a store may have been seen:
/// no store, call, ordered or variant load, side effect, label or
/// terminator.
fn safe_to_move(t: &TargetInfo<'_>, inst: &InstData) -> bool {
    let f = desc_flags(t, inst);
    let may_load = f.contains(InstrFlags::MAY_LOAD) || matches!(inst.op, Op::Unknown(_));
    let may_store = f.contains(InstrFlags::MAY_STORE) || matches!(inst.op, Op::Unknown(_));
    if may_store || f.contains(InstrFlags::CALL) || inst.op == Op::Generic(Generic::Phi) {
        return false;
    }
    if may_load && ordered_memory(inst) {
        return false;
    }
    if is_position(inst.op)
        || is_debug(inst.op)
        || inst.op.is_terminator(t)
        || has_side_effects(t, inst)
    {
        return false;
    }
    !may_load || invariant_load(inst)
}

/// LLVM's `hasOrderedMemoryRef`: no memory operands, or a volatile or
/// atomic one.
fn ordered_memory(inst: &InstData) -> bool {
    inst.mem.is_empty()
        || inst
            .mem
            .iter()
            .any(|m| m.flags.has(MemFlags::VOLATILE) || m.ordering.is_ordered())
}

/// LLVM's `isDereferenceableInvariantLoad`: every memory operand is a
/// load of memory that never changes.
fn invariant_load(inst: &InstData) -> bool {
    !inst.mem.is_empty()
        && inst.mem.iter().all(|m| {
            !m.flags.has(MemFlags::VOLATILE)
                && !m.flags.has(MemFlags::STORE)
                && ((m.flags.has(MemFlags::INVARIANT) && m.flags.has(MemFlags::DEREFERENCEABLE))
                    || m.value.as_ref().is_some_and(|v| v.is_constant()))
        })
}

/// An instruction's latency as LLVM takes it without itineraries: one
/// cycle, two for a load.
fn latency(t: &TargetInfo<'_>, inst: &InstData) -> u32 {
    if desc_flags(t, inst).contains(InstrFlags::MAY_LOAD) {
        2
    } else {
        1
    }
}
