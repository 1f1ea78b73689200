//! The checker's walk: the dataflow fixpoint over blocks and the transfer of every instruction, original, inserted or removed.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::alloc::{AllocRecord, Edit, FoldedAccess};
use crate::ir::{
    Block, FrameRef, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegMask,
    RegOperand, RegRef, VReg,
};
use crate::target::{InstrFlags, Reg, RegUnit, SubRegIndex, TargetInfo};

use super::error::{CheckError, CheckErrorKind};
use super::state::{State, Value, ValueSet, Values};

use CheckErrorKind as K;

/// Where the walk is: the block, the instruction and its position.
#[derive(Copy, Clone, Debug)]
struct Here {
    block: Block,
    pos: usize,
    inst: Inst,
}

/// A place a value is kept: a register or a spill slot.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Loc {
    Reg(Reg),
    Slot(u32),
}

/// The checker for one function.
pub(crate) struct Checker<'c, 't> {
    t: &'c TargetInfo<'t>,
    orig: &'c MachineFunction,
    alloc: &'c MachineFunction,
    rec: &'c AllocRecord,
    values: Values,
    /// Removed originals by (block, the instruction they stood before).
    removed_at: HashMap<(Block, Option<Inst>), Vec<Inst>>,
    /// Rematerialized virtual registers with several definitions, whose
    /// reaching definitions are tracked.
    tracked: HashSet<VReg>,
    /// `%stack.N` ids of spill slots the allocator created.
    new_slots: HashSet<u32>,
    /// Whether errors are being collected (only in the final pass).
    report: bool,
    /// Whether values are checked (false in unreachable blocks, which have
    /// no state to check against).
    values_known: bool,
    errors: Vec<CheckError>,
    /// (instruction, operand) pairs already reported: one error per operand.
    reported: HashSet<(Inst, Option<usize>, Option<CheckErrorKind>)>,
    /// Per class, the largest class a register of it may be inflated to
    /// ([`crate::alloc::inflate::largest_legal_super_class`]).
    wide: Vec<crate::target::RegClass>,
}

impl<'c, 't> Checker<'c, 't> {
    /// A checker of `alloc` against `orig`.
    pub fn new(
        t: &'c TargetInfo<'t>,
        orig: &'c MachineFunction,
        alloc: &'c MachineFunction,
        rec: &'c AllocRecord,
    ) -> Checker<'c, 't> {
        let values = Values {
            num_vregs: u32::try_from(orig.vregs.len()).unwrap_or(u32::MAX / 2),
        };
        let mut removed_at: HashMap<(Block, Option<Inst>), Vec<Inst>> = HashMap::new();
        for r in &rec.removed {
            removed_at
                .entry((r.block, r.before))
                .or_default()
                .push(r.inst);
        }
        let orig_ids: HashSet<u32> = orig.stack.iter().map(|o| o.id).collect();
        let new_slots = alloc
            .stack
            .iter()
            .filter(|o| &*o.kind == "spill-slot" && !orig_ids.contains(&o.id))
            .map(|o| o.id)
            .collect();
        let remat: HashSet<VReg> = rec
            .edits
            .values()
            .filter_map(|e| match e {
                Edit::Remat { vreg, .. } => Some(*vreg),
                _ => None,
            })
            .collect();
        let mut def_counts: HashMap<VReg, usize> = HashMap::new();
        for i in orig.inst_ids() {
            for o in orig
                .insts
                .get(i.index())
                .map_or(&[][..], |d| &d.operands[..])
            {
                if let Some(RegOperand {
                    reg: RegRef::Virt(v),
                    flags,
                    ..
                }) = o.as_reg()
                    && flags.has(RegFlags::DEF)
                    && remat.contains(v)
                {
                    *def_counts.entry(*v).or_default() += 1;
                }
            }
        }
        let tracked = def_counts
            .into_iter()
            .filter(|&(_, n)| n > 1)
            .map(|(v, _)| v)
            .collect();
        Checker {
            t,
            orig,
            alloc,
            rec,
            values,
            removed_at,
            tracked,
            new_slots,
            report: false,
            values_known: true,
            errors: Vec::new(),
            reported: HashSet::new(),
            wide: (0..t.classes.len())
                .map(|c| {
                    crate::alloc::inflate::largest_legal_super_class(
                        t,
                        crate::target::RegClass::new(c),
                    )
                })
                .collect(),
        }
    }

    /// Runs the fixpoint, then the reporting pass.
    pub fn run(mut self) -> Result<(), Vec<CheckError>> {
        if !self.structure_matches() {
            return Err(self.errors);
        }
        let n = self.alloc.blocks.len();
        let (rpo, reachable) = self.reverse_post_order();
        let mut rank = vec![usize::MAX; n];
        for (k, b) in rpo.iter().enumerate() {
            rank[b.index()] = k;
        }
        let entry = State::entry(self.values, self.t.units.len());
        let mut ins: Vec<Option<State>> = vec![None; n];
        if n > 0 {
            ins[0] = Some(entry.clone());
        }
        let mut work: BTreeSet<usize> = (0..rpo.len()).collect();
        // The lattice is finite (sets shrink, reaching definitions grow), so
        // this ends; the budget only guards against a bug here turning into
        // a hang on some input.
        let mut budget = 64usize
            .saturating_mul(n + 1)
            .saturating_mul(n + 1)
            .max(10_000);
        while let Some(k) = work.pop_first() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            let b = rpo[k];
            let Some(mut state) = ins[b.index()].clone() else {
                continue;
            };
            self.walk_block(b, &mut state);
            for s in &self.alloc.blocks[b.index()].succs {
                let si = s.block.index();
                let Some(slot) = ins.get_mut(si) else {
                    continue;
                };
                let changed = match slot {
                    Some(old) => old.meet(&state),
                    None => {
                        *slot = Some(state.clone());
                        true
                    }
                };
                if changed && rank[si] != usize::MAX {
                    work.insert(rank[si]);
                }
            }
        }
        self.report = true;
        for b in self.alloc.block_ids() {
            let (mut state, known) = match (&ins[b.index()], reachable[b.index()]) {
                (Some(s), true) => (s.clone(), true),
                _ => (entry.clone(), false),
            };
            self.values_known = known;
            self.walk_block(b, &mut state);
        }
        let mut errors = self.errors;
        errors.sort_by_key(|a| a.sort_key());
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Blocks in reverse post-order from the entry, and which are reachable.
    fn reverse_post_order(&self) -> (Vec<Block>, Vec<bool>) {
        let n = self.alloc.blocks.len();
        let mut seen = vec![false; n];
        let mut post = Vec::with_capacity(n);
        if n == 0 {
            return (post, seen);
        }
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        seen[0] = true;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            let succs = &self.alloc.blocks[b].succs;
            if let Some(s) = succs.get(*next) {
                *next += 1;
                let s = s.block.index();
                if s < n && !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(Block::new(b));
                stack.pop();
            }
        }
        post.reverse();
        (post, seen)
    }

    /// Blocks and edges must be the original's; each block must hold the
    /// original instructions in the original order (removed ones at their
    /// anchors). Returns false when the functions cannot be compared at all.
    fn structure_matches(&mut self) -> bool {
        self.report = true;
        let name = &self.orig.name;
        if self.orig.blocks.len() != self.alloc.blocks.len() {
            let e = CheckError::new(
                K::Structure,
                name,
                format!("{} blocks", self.orig.blocks.len()),
                format!("{}", self.alloc.blocks.len()),
            );
            self.errors.push(e);
            return false;
        }
        let ninsts = self.alloc.insts.len();
        let mut ok = true;
        for b in self.alloc.block_ids() {
            let (ob, ab) = (self.orig.block(b), self.alloc.block(b));
            let targets =
                |d: &crate::ir::BlockData| d.succs.iter().map(|s| s.block).collect::<Vec<_>>();
            if targets(ob) != targets(ab) || ab.insts.iter().any(|i| i.index() >= ninsts) {
                let mut e = CheckError::new(
                    K::Structure,
                    name,
                    format!(
                        "successors {:?}",
                        targets(ob).iter().map(|b| b.0).collect::<Vec<_>>()
                    ),
                    format!("{:?}", targets(ab).iter().map(|b| b.0).collect::<Vec<_>>()),
                );
                e.block = Some(b);
                self.errors.push(e);
                ok = false;
            }
        }
        for r in &self.rec.removed {
            if !self.rec.is_original(r.inst)
                || r.block.index() >= self.alloc.blocks.len()
                || r.inst.index() >= ninsts
            {
                let mut e = CheckError::new(
                    K::Structure,
                    name,
                    "removed instructions to be original ones of an existing block",
                    format!("instruction {} in bb.{}", r.inst.index(), r.block.index()),
                );
                e.block = Some(r.block).filter(|b| b.index() < self.alloc.blocks.len());
                self.errors.push(e);
                ok = false;
            }
        }
        if !ok {
            return false;
        }
        let mut placed: HashSet<Inst> = HashSet::new();
        for b in self.alloc.block_ids() {
            let items = self.items(b);
            let seq: Vec<Inst> = items
                .iter()
                .map(|&(_, i, _)| i)
                .filter(|&i| self.rec.is_original(i))
                .collect();
            let want = &self.orig.block(b).insts;
            if &seq != want {
                let k = seq.iter().zip(want).take_while(|(a, b)| a == b).count();
                let (inst, pos) = match items
                    .iter()
                    .filter(|(_, i, _)| self.rec.is_original(*i))
                    .nth(k)
                {
                    Some(&(p, i, _)) => (Some(i), Some(p)),
                    None => (None, None),
                };
                let mut e = CheckError::new(
                    K::Structure,
                    name,
                    match want.get(k) {
                        Some(i) => format!("original instruction {} here", i.index()),
                        None => "no further original instruction".into(),
                    },
                    match seq.get(k) {
                        Some(i) => format!("instruction {}", i.index()),
                        None => "the end of the block".into(),
                    },
                );
                e.block = Some(b);
                e.inst = inst;
                e.position = pos;
                e.inst_text = inst.and_then(|i| crate::mir::inst_text(self.t, self.alloc, i));
                self.errors.push(e);
            }
            for (_, i, _) in items {
                if !placed.insert(i) {
                    let mut e = CheckError::new(
                        K::Structure,
                        name,
                        "each instruction once",
                        format!("instruction {} twice", i.index()),
                    );
                    e.block = Some(b);
                    e.inst = Some(i);
                    self.errors.push(e);
                }
            }
        }
        self.report = false;
        true
    }

    /// The block's walk order: (position, instruction, removed?).
    fn items(&self, b: Block) -> Vec<(usize, Inst, bool)> {
        let insts = &self.alloc.block(b).insts;
        let mut out = Vec::with_capacity(insts.len());
        for (pos, &i) in insts.iter().enumerate() {
            if let Some(r) = self.removed_at.get(&(b, Some(i))) {
                out.extend(r.iter().map(|&r| (pos, r, true)));
            }
            out.push((pos, i, false));
        }
        if let Some(r) = self.removed_at.get(&(b, None)) {
            out.extend(r.iter().map(|&r| (insts.len(), r, true)));
        }
        out
    }

    fn walk_block(&mut self, b: Block, state: &mut State) {
        for (pos, inst, removed) in self.items(b) {
            let here = Here {
                block: b,
                pos,
                inst,
            };
            self.step(here, state, removed);
        }
    }

    // ----- reporting -----

    fn err(
        &mut self,
        kind: CheckErrorKind,
        here: Here,
        operand: Option<usize>,
        expected: impl FnOnce(&Self) -> String,
        found: impl FnOnce(&Self) -> String,
    ) {
        if !self.report {
            return;
        }
        // One error per operand; per instruction, one per kind for errors
        // about no operand in particular.
        let key = (here.inst, operand, operand.is_none().then_some(kind));
        if !self.reported.insert(key) {
            return;
        }
        let mut e = CheckError::new(kind, &self.orig.name, expected(self), found(self));
        e.block = Some(here.block);
        e.inst = Some(here.inst);
        e.position = Some(here.pos);
        e.operand = operand;
        e.inst_text = crate::mir::inst_text(self.t, self.alloc, here.inst);
        e.operand_text = operand.and_then(|k| {
            let o = self.alloc.insts.get(here.inst.index())?.operands.get(k)?;
            Some(self.operand_text(o))
        });
        self.errors.push(e);
    }

    fn operand_text(&self, o: &Operand) -> String {
        match o {
            Operand::Reg(r) => {
                let mut s = match r.reg {
                    RegRef::Phys(p) => self.reg_name(p),
                    RegRef::Virt(v) => format!("%{}", v.0),
                    RegRef::NoReg => "$noreg".into(),
                };
                if let Some(i) = r.sub.and_then(|i| self.t.sub_reg_indices.get(i.index())) {
                    s.push('.');
                    s.push_str(&i.name);
                }
                s
            }
            other => crate::mir::write::operand_text(self.t, self.alloc, other),
        }
    }

    fn reg_name(&self, r: Reg) -> String {
        match self.t.regs.get(r.index()) {
            Some(d) => format!("${}", d.name.to_ascii_lowercase()),
            None => format!("$<register {}>", r.0),
        }
    }

    fn value_name(&self, x: Value) -> String {
        if let Some(v) = self.values.as_vreg(x) {
            return format!("%{}", v.0);
        }
        match self
            .values
            .as_unit(x)
            .and_then(|u| self.t.units.get(u.index()))
        {
            Some(d) => format!("the original value of {}", self.reg_name(d.root)),
            None => format!("<value {x}>"),
        }
    }

    fn set_text(&self, s: &ValueSet) -> String {
        if s.is_empty() {
            return "nothing known".into();
        }
        let names: Vec<String> = s.iter().map(|x| self.value_name(x)).collect();
        format!("{{{}}}", names.join(", "))
    }

    fn class_name(&self, c: crate::target::RegClass) -> String {
        self.t.classes.get(c.index()).map_or_else(
            || format!("<class {}>", c.0),
            |d| d.name.to_ascii_lowercase(),
        )
    }

    // ----- register helpers -----

    fn units(&self, r: Reg) -> &'c [RegUnit] {
        let t: &'c TargetInfo<'t> = self.t;
        t.regs.get(r.index()).map_or(&[][..], |d| &d.units[..])
    }

    fn sub_reg(&self, r: Reg, idx: SubRegIndex) -> Option<Reg> {
        if r.index() >= self.t.regs.len() {
            return None;
        }
        self.t.sub_reg(r, idx)
    }

    /// The physical register an allocated operand reads or writes (its
    /// sub-register applied), `Ok(None)` for `$noreg`.
    fn phys_of(&self, r: &RegOperand) -> Result<Option<Reg>, String> {
        match r.reg {
            RegRef::Virt(v) => Err(format!("%{}", v.0)),
            RegRef::NoReg => Ok(None),
            RegRef::Phys(p) if p.index() >= self.t.regs.len() => Err(self.reg_name(p)),
            RegRef::Phys(p) => match r.sub {
                None => Ok(Some(p)),
                Some(i) => self.sub_reg(p, i).map(Some).ok_or_else(|| {
                    format!("{} with a sub-register it does not have", self.reg_name(p))
                }),
            },
        }
    }

    /// Registers whose uses are not tracked: reserved and constant ones
    /// (LLVM does not track their liveness either).
    fn untracked(&self, r: Reg) -> bool {
        self.t.is_reserved(r)
            || self
                .t
                .regs
                .get(r.index())
                .is_none_or(|d| d.flags.contains(crate::target::RegFlags::CONSTANT))
    }

    /// The whole register assigned to `v` when one of its operands names
    /// sub-register `idx` and got physical register `p`: `ar`'s register
    /// when the allocated operand kept the index, else the register of
    /// `v`'s class whose `idx` is `p`.
    fn full_reg(&self, v: VReg, idx: SubRegIndex, ar: &RegOperand, p: Reg) -> Option<Reg> {
        if let (RegRef::Phys(full), Some(_)) = (ar.reg, ar.sub) {
            return Some(full);
        }
        // A split piece may have been inflated: look in the whole family.
        let class = self
            .orig
            .vregs
            .get(v.index())
            .and_then(|d| d.class)
            .map(|c| self.wide.get(c.index()).copied().unwrap_or(c));
        let fits = |s: Reg| {
            self.sub_reg(s, idx) == Some(p)
                && class
                    .is_none_or(|c| c.index() < self.t.classes.len() && self.t.class_contains(c, s))
        };
        self.t.super_regs(p).iter().copied().find(|&s| fits(s))
    }

    fn unit_preserved(&self, mask: &RegMask, u: RegUnit) -> bool {
        if u.index() >= self.t.units.len() {
            return true;
        }
        self.t.unit_roots(u).all(|root| match mask {
            RegMask::Named(c) => {
                c.index() < self.t.callee_saved.len() && self.t.mask_preserves(*c, root)
            }
            RegMask::Custom(list) => list.contains(&root),
        })
    }

    /// The value an original operand naming `name` reads in unit `u` of its
    /// physical register.
    fn expected_value(&self, name: RegRef, u: RegUnit) -> Option<Value> {
        match name {
            RegRef::Virt(v) => Some(self.values.vreg(v)),
            RegRef::Phys(_) => Some(self.values.unit(u)),
            RegRef::NoReg => None,
        }
    }

    /// Checks that every unit of `p` holds what operand `name` read.
    fn check_reads(&mut self, here: Here, k: Option<usize>, name: RegRef, p: Reg, state: &State) {
        if !self.values_known || self.untracked(p) {
            return;
        }
        for &u in self.units(p) {
            let Some(x) = self.expected_value(name, u) else {
                return;
            };
            if !state.unit(u).contains(x) {
                let found = state.unit(u).clone();
                let what = self.reg_name(p);
                self.err(
                    K::WrongValue,
                    here,
                    k,
                    |c: &Self| format!("{what} to hold {}", c.value_name(x)),
                    |c: &Self| format!("it holds {}", c.set_text(&found)),
                );
                return;
            }
        }
    }

    /// Checks a slot holds what operand `name` read (every unit's value for
    /// a physical name).
    fn check_slot_reads(
        &mut self,
        here: Here,
        k: Option<usize>,
        name: RegRef,
        slot: u32,
        state: &State,
    ) {
        if !self.values_known {
            return;
        }
        let want: Vec<Value> = match name {
            RegRef::Virt(v) => vec![self.values.vreg(v)],
            RegRef::Phys(q) => self.units(q).iter().map(|&u| self.values.unit(u)).collect(),
            RegRef::NoReg => return,
        };
        let have = state.slot(slot);
        if let Some(&x) = want.iter().find(|&&x| !have.contains(x)) {
            self.err(
                K::WrongValue,
                here,
                k,
                |c: &Self| format!("%stack.{slot} to hold {}", c.value_name(x)),
                |c: &Self| format!("it holds {}", c.set_text(&have)),
            );
        }
    }

    /// Checks the register an operand of virtual register `v` got.
    fn check_class(
        &mut self,
        here: Here,
        k: usize,
        v: VReg,
        sub: Option<SubRegIndex>,
        ar: &RegOperand,
        p: Reg,
    ) {
        if !self.report {
            return;
        }
        let Some(c) = self.orig.vregs.get(v.index()).and_then(|d| d.class) else {
            return;
        };
        if c.index() >= self.t.classes.len() {
            return;
        }
        // The allocator may give a piece of a split register a larger
        // class than the register's, as long as the instructions of that
        // piece accept it (class inflation): what must hold is that this
        // instruction accepts the register, within the largest class a
        // register of `c` may move to without changing its size.
        let c = if here.inst.index() < self.orig.insts.len() {
            let wide = self.wide.get(c.index()).copied().unwrap_or(c);
            crate::alloc::inflate::constrained_class(self.t, self.orig, v, &[here.inst], wide)
                .unwrap_or(c)
        } else {
            c
        };
        let full = match sub {
            Some(idx) => self.full_reg(v, idx, ar, p),
            None => Some(p),
        };
        let cname = self.class_name(c);
        match full {
            None => self.err(
                K::WrongClass,
                here,
                Some(k),
                |_: &Self| format!("a sub-register of a {cname} register for %{}", v.0),
                |c: &Self| format!("{}, which is not one", c.reg_name(p)),
            ),
            Some(s) if !self.t.class_contains(c, s) => self.err(
                K::WrongClass,
                here,
                Some(k),
                |_: &Self| format!("a {cname} register for %{}", v.0),
                |c: &Self| c.reg_name(s),
            ),
            Some(s) if self.untracked(s) || !self.t.class(c).allocatable => self.err(
                K::WrongClass,
                here,
                Some(k),
                |_: &Self| format!("an allocatable, unreserved {cname} register for %{}", v.0),
                |c: &Self| format!("{}, which is reserved or not allocatable", c.reg_name(s)),
            ),
            Some(_) => {}
        }
    }

    // ----- transfer -----

    fn step(&mut self, here: Here, state: &mut State, removed: bool) {
        let i = here.inst;
        if !self.rec.is_original(i) {
            match self.rec.edit(i).copied() {
                Some(e) => self.inserted(here, state, e),
                None => self.err(
                    K::Structure,
                    here,
                    None,
                    |_: &Self| "an edit for every inserted instruction".into(),
                    |_: &Self| "an inserted instruction with none".into(),
                ),
            }
            return;
        }
        let Some(o) = self.orig.insts.get(i.index()) else {
            self.err(
                K::Structure,
                here,
                None,
                |_: &Self| "an instruction of the original function".into(),
                |_: &Self| "an id beyond the original's instructions".into(),
            );
            return;
        };
        let edit = self.rec.edit(i).copied();
        if o.op.is_copy() {
            self.original_copy(here, state, o, edit, removed);
        } else if removed {
            self.removed_def(here, state, o);
        } else {
            if edit.is_some() {
                self.err(
                    K::BadEdit,
                    here,
                    None,
                    |_: &Self| "edits only on inserted instructions and original COPYs".into(),
                    |_: &Self| "an edit on another original instruction".into(),
                );
            }
            match self.rec.memory_folds.get(&i).copied() {
                Some(f) => self.folded_access(here, state, o, f),
                None => self.original_inst(here, state, o),
            }
        }
    }

    /// An original instruction that accesses one operand in a spill slot:
    /// the target must have that fold and the slot must be a new spill
    /// slot; a folded use (or the use tied to a folded definition) reads
    /// the slot, which must hold the operand's value; the rest is checked
    /// as the original instruction rewritten into the fold's memory form;
    /// a folded definition leaves its value in the slot.
    fn folded_access(&mut self, here: Here, state: &mut State, o: &InstData, f: FoldedAccess) {
        let k = f.operand;
        // The fold whose memory form the allocated instruction has.
        let allocated = self.alloc.insts.get(here.inst.index()).map(|a| a.op);
        let fold = match o.op {
            Op::Target(op) => self
                .t
                .memory_folds_for(op, k)
                .iter()
                .find(|x| Some(Op::Target(x.mem_form)) == allocated),
            Op::Generic(_) => None,
        };
        // A sub-register use reads the slot's first bytes, which hold the
        // sub-register only if it starts at bit 0 of a little-endian slot.
        let low_lanes = |idx: SubRegIndex| {
            fold.is_some_and(|f| f.little_endian)
                && self
                    .t
                    .sub_reg_indices
                    .get(idx.index())
                    .is_some_and(|d| d.offset == Some(0))
        };
        let reg = o.operands.get(k).and_then(Operand::as_reg).filter(|r| {
            !r.is_implicit()
                && matches!(r.reg, RegRef::Virt(_))
                && r.sub.is_none_or(|idx| !r.is_def() && low_lanes(idx))
        });
        // The second operand a fold removes must name the same register.
        let same = |u: u8| {
            o.operands
                .get(usize::from(u))
                .and_then(Operand::as_reg)
                .zip(o.operands.get(k).and_then(Operand::as_reg))
                .is_some_and(|(a, b)| a.reg == b.reg && a.sub == b.sub)
        };
        let fold = fold.filter(|x| x.also.is_none_or(same));
        let (Some(fold), Some(reg)) = (fold, reg) else {
            let n = self.op_name(o.op);
            self.err(
                K::BadEdit,
                here,
                Some(k),
                |_: &Self| format!("a memory fold the target gives for operand {k} of {n}"),
                |_: &Self| "a folded access without one".into(),
            );
            return;
        };
        if !self.new_slots.contains(&f.slot) {
            let slot = f.slot;
            self.err(
                K::BadEdit,
                here,
                Some(k),
                |_: &Self| "a folded access to a new spill slot".into(),
                |_: &Self| format!("%stack.{slot}, which is not one"),
            );
            return;
        }
        let read = match (reg.is_def(), fold.also.map(usize::from)) {
            (false, _) => Some((k, reg.reg)),
            (true, Some(u)) => o
                .operands
                .get(u)
                .and_then(Operand::as_reg)
                .map(|r| (u, r.reg)),
            (true, None) => None,
        };
        if let Some((at, name)) = read {
            self.check_slot_reads(here, Some(at), name, f.slot, state);
        }
        // The original in the memory form's terms.
        let mut mem = o.clone();
        mem.fold_memory_operand(fold, k, f.slot);
        self.original_inst(here, state, &mem);
        if let (true, RegRef::Virt(v)) = (reg.is_def(), reg.reg) {
            let x = self.values.vreg(v);
            self.define(state, x, &[], &[]);
            state.slots.insert(f.slot, ValueSet::single(x));
            self.note_def(state, v, here.inst);
        }
    }

    /// Clears every unit an allocated instruction writes or its register
    /// masks do not preserve, and the description's implicit definitions.
    fn clobber(&self, a: &InstData, state: &mut State) {
        for op in &a.operands {
            match op {
                Operand::Reg(r) if r.is_def() => {
                    if let Ok(Some(p)) = self.phys_of(r) {
                        for &u in self.units(p) {
                            state.set_unit(u, ValueSet::default());
                        }
                    }
                }
                Operand::RegMask(m) => {
                    for u in 0..state.units.len() {
                        let u = RegUnit::new(u);
                        if !self.unit_preserved(m, u) {
                            state.set_unit(u, ValueSet::default());
                        }
                    }
                }
                _ => {}
            }
        }
        if let Op::Target(op) = a.op
            && let Some(d) = self.t.instrs.get(op.index())
        {
            for &r in d.implicit_defs.iter() {
                for &u in self.units(r) {
                    state.set_unit(u, ValueSet::default());
                }
            }
        }
    }

    /// The program (re)defines `x` in the units `written`: stale copies
    /// elsewhere are forgotten, except in `keep` (the other units of a
    /// register partly redefined, which keep their part of the value).
    fn define(&self, state: &mut State, x: Value, written: &[RegUnit], keep: &[RegUnit]) {
        if keep.is_empty() {
            state.forget(x);
        } else {
            for (k, s) in state.units.iter_mut().enumerate() {
                if !keep.contains(&RegUnit::new(k)) {
                    s.remove(x);
                }
            }
            for s in state.slots.values_mut() {
                s.remove(x);
            }
        }
        for &u in written {
            state.set_unit(u, ValueSet::single(x));
        }
    }

    fn note_def(&self, state: &mut State, v: VReg, i: Inst) {
        if self.tracked.contains(&v) {
            state.reaching.insert(v, vec![i]);
        }
    }

    /// An original instruction other than COPY, kept in the function.
    fn original_inst(&mut self, here: Here, state: &mut State, o: &InstData) {
        let Some(a) = self.alloc.insts.get(here.inst.index()) else {
            return;
        };
        if a.op != o.op || a.operands.len() < o.operands.len() {
            let (on, an) = (self.op_name(o.op), self.op_name(a.op));
            let (ol, al) = (o.operands.len(), a.operands.len());
            self.err(
                K::InstructionChanged,
                here,
                None,
                |_: &Self| format!("{on} with {ol} operands"),
                |_: &Self| format!("{an} with {al}"),
            );
            return;
        }
        let desc = match o.op {
            Op::Target(op) => self.t.instrs.get(op.index()),
            Op::Generic(_) => None,
        };
        // Which physical register each allocated operand names.
        let mut phys: Vec<Option<Reg>> = vec![None; a.operands.len()];
        for (k, aop) in a.operands.iter().enumerate() {
            match (o.operands.get(k), aop) {
                (Some(Operand::Reg(or)), Operand::Reg(ar)) => {
                    if or.is_def() != ar.is_def() {
                        self.err(
                            K::InstructionChanged,
                            here,
                            Some(k),
                            |_: &Self| {
                                if or.is_def() {
                                    "a definition".into()
                                } else {
                                    "a use".into()
                                }
                            },
                            |_: &Self| {
                                if ar.is_def() {
                                    "a definition".into()
                                } else {
                                    "a use".into()
                                }
                            },
                        );
                        continue;
                    }
                    let p = match self.phys_of(ar) {
                        Ok(p) => p,
                        Err(what) => {
                            self.err(
                                K::VirtualRegisterLeft,
                                here,
                                Some(k),
                                |_: &Self| "a physical register".into(),
                                |_: &Self| what,
                            );
                            continue;
                        }
                    };
                    phys[k] = p;
                    match (or.reg, p) {
                        (RegRef::Phys(q), _) => {
                            let want = match or.sub {
                                Some(i) => self.sub_reg(q, i),
                                None => Some(q),
                            };
                            if want != p {
                                let w = want.map_or("$noreg".into(), |r| self.reg_name(r));
                                let f = p.map_or("$noreg".into(), |r| self.reg_name(r));
                                self.err(
                                    K::FixedRegisterChanged,
                                    here,
                                    Some(k),
                                    |_: &Self| w,
                                    |_: &Self| f,
                                );
                            }
                        }
                        (RegRef::Virt(v), Some(p)) => self.check_class(here, k, v, or.sub, ar, p),
                        (RegRef::Virt(v), None) => self.err(
                            K::WrongClass,
                            here,
                            Some(k),
                            |_: &Self| format!("a register for %{}", v.0),
                            |_: &Self| "$noreg".into(),
                        ),
                        (RegRef::NoReg, _) => {}
                    }
                }
                (Some(oo), ao) => {
                    if oo != ao {
                        let (e, f) = (self.operand_text(oo), self.operand_text(ao));
                        self.err(
                            K::InstructionChanged,
                            here,
                            Some(k),
                            |_: &Self| e,
                            |_: &Self| f,
                        );
                    }
                }
                (None, Operand::Reg(ar)) if ar.is_implicit() => match self.phys_of(ar) {
                    Ok(p) => phys[k] = p,
                    Err(what) => self.err(
                        K::VirtualRegisterLeft,
                        here,
                        Some(k),
                        |_: &Self| "a physical register".into(),
                        |_: &Self| what,
                    ),
                },
                (None, ao) => {
                    let f = self.operand_text(ao);
                    self.err(
                        K::InstructionChanged,
                        here,
                        Some(k),
                        |_: &Self| "only implicit register operands appended".into(),
                        |_: &Self| f,
                    );
                }
            }
        }
        let reg_of = |k: usize| o.operands.get(k).and_then(Operand::as_reg);
        // Tied operands: the use and its definition in one register.
        for (k, op) in o.operands.iter().enumerate() {
            let Some(r) = op.as_reg() else { continue };
            if r.is_def() {
                continue;
            }
            let tie = r.tied_to.map(usize::from).or_else(|| {
                if r.is_implicit() {
                    None
                } else {
                    desc.and_then(|d| d.tied_to(k))
                }
            });
            let Some(d) = tie else { continue };
            if let (Some(Some(pu)), Some(Some(pd))) = (phys.get(k), phys.get(d))
                && pu != pd
            {
                let (pu, pd) = (*pu, *pd);
                let w = format!(
                    "the register of its tied use, operand {k} ({})",
                    self.reg_name(pu)
                );
                let f = self.reg_name(pd);
                self.err(K::TiedMismatch, here, Some(d), |_: &Self| w, |_: &Self| f);
            }
        }
        // Early-clobber definitions share no unit with any use.
        for (d, op) in a.operands.iter().enumerate() {
            let Some(r) = op.as_reg() else { continue };
            let early = r.flags.has(RegFlags::EARLY_CLOBBER)
                || reg_of(d).is_some_and(|o| o.flags.has(RegFlags::EARLY_CLOBBER))
                || (!r.is_implicit()
                    && desc
                        .and_then(|x| x.operands.get(d))
                        .is_some_and(|x| x.early_clobber));
            if !r.is_def() || !early {
                continue;
            }
            let Some(Some(pd)) = phys.get(d).copied() else {
                continue;
            };
            for (k, uop) in a.operands.iter().enumerate() {
                let Some(u) = uop.as_reg() else { continue };
                let tied = reg_of(k).and_then(|o| o.tied_to).map(usize::from) == Some(d);
                if u.is_def() || tied {
                    continue;
                }
                if let Some(Some(pu)) = phys.get(k).copied()
                    && self.t.regs_overlap(pd, pu)
                {
                    let w = format!(
                        "no unit shared with the uses, but operand {k} is {}",
                        self.reg_name(pu)
                    );
                    let f = self.reg_name(pd);
                    self.err(
                        K::EarlyClobberOverlap,
                        here,
                        Some(d),
                        |_: &Self| w,
                        |_: &Self| f,
                    );
                    break;
                }
            }
        }
        // Uses read what the original read.
        for (k, op) in o.operands.iter().enumerate() {
            let Some(r) = op.as_reg() else { continue };
            if r.is_def()
                || r.flags.has(RegFlags::UNDEF)
                || r.flags.has(RegFlags::DEBUG_USE)
                || r.flags.has(RegFlags::INTERNAL)
            {
                continue;
            }
            if let Some(Some(p)) = phys.get(k).copied() {
                self.check_reads(here, Some(k), r.reg, p, state);
            }
        }
        // A sub-register definition without `undef` keeps the other lanes.
        // Whether they hold the register's value is checked where a lane is
        // read, not here: with sub-register liveness a lane that is dead at
        // this point may legitimately hold another register's value.
        let mut partial: Vec<Vec<RegUnit>> = vec![Vec::new(); o.operands.len()];
        for (k, op) in o.operands.iter().enumerate() {
            let (Some(r), Some(Some(p)), Some(Operand::Reg(ar))) =
                (op.as_reg(), phys.get(k).copied(), a.operands.get(k))
            else {
                continue;
            };
            let (RegRef::Virt(v), Some(idx)) = (r.reg, r.sub) else {
                continue;
            };
            if !r.is_def() {
                continue;
            }
            let Some(full) = self.full_reg(v, idx, ar, p) else {
                continue;
            };
            let others: Vec<RegUnit> = self
                .units(full)
                .iter()
                .copied()
                .filter(|u| !self.units(p).contains(u))
                .collect();
            partial[k] = others;
        }
        // Definitions: clobber everything written, then record the values.
        // The kept lanes of a partial definition survive the clobber: the
        // rewriter marks the whole register `implicit-def` (as LLVM's does),
        // but those lanes are not written.
        let kept: Vec<(RegUnit, ValueSet)> = o
            .operands
            .iter()
            .zip(&partial)
            .filter(|(op, _)| op.as_reg().is_some_and(|r| !r.flags.has(RegFlags::UNDEF)))
            .flat_map(|(_, units)| units.iter().map(|&u| (u, state.unit(u).clone())))
            .collect();
        self.clobber(a, state);
        for (u, set) in kept {
            state.set_unit(u, set);
        }
        for (k, op) in o.operands.iter().enumerate() {
            let Some(r) = op.as_reg() else { continue };
            if !r.is_def() {
                continue;
            }
            let Some(Some(p)) = phys.get(k).copied() else {
                continue;
            };
            let written = self.units(p);
            match r.reg {
                RegRef::Virt(v) => {
                    let x = self.values.vreg(v);
                    let others = std::mem::take(&mut partial[k]);
                    if r.sub.is_some() && !r.flags.has(RegFlags::UNDEF) {
                        let keep: Vec<RegUnit> = written.iter().chain(&others).copied().collect();
                        self.define(state, x, written, &keep);
                    } else {
                        self.define(state, x, written, &[]);
                        // The other lanes of an `undef` partial definition
                        // are undefined: whatever they hold will do.
                        for u in others {
                            state.add_to_unit(u, x);
                        }
                    }
                    self.note_def(state, v, here.inst);
                }
                RegRef::Phys(_) => {
                    for &u in written {
                        self.define(state, self.values.unit(u), &[u], &[]);
                    }
                }
                RegRef::NoReg => {}
            }
        }
    }

    fn op_name(&self, op: Op) -> String {
        match op {
            Op::Target(o) => self
                .t
                .instrs
                .get(o.index())
                .map_or_else(|| format!("<opcode {}>", o.0), |d| d.name.to_string()),
            Op::Generic(g) => g.name().to_string(),
        }
    }

    /// An original instruction taken out that is not a COPY: only a
    /// definition with no other effect (made dead by rematerialization) may
    /// be removed; its value now lives nowhere.
    fn removed_def(&mut self, here: Here, state: &mut State, o: &InstData) {
        let harmless = match o.op {
            Op::Target(op) => self.t.instrs.get(op.index()).is_some_and(|d| {
                d.is(InstrFlags::REMAT)
                    && !d.is(InstrFlags::MAY_STORE)
                    && !d.is(InstrFlags::CALL)
                    && !d.is(InstrFlags::TERMINATOR)
            }),
            Op::Generic(g) => matches!(g, Generic::ImplicitDef | Generic::Kill),
        };
        let phys_def = o.operands.iter().filter_map(Operand::as_reg).any(|r| {
            r.is_def() && matches!(r.reg, RegRef::Phys(_)) && !r.flags.has(RegFlags::DEAD)
        });
        if !harmless || phys_def {
            let n = self.op_name(o.op);
            self.err(
                K::BadRemoval,
                here,
                None,
                |_: &Self| "only rematerializable definitions and copies removed".into(),
                |_: &Self| format!("{n} removed"),
            );
        }
        for r in o.operands.iter().filter_map(Operand::as_reg) {
            if let (true, RegRef::Virt(v)) = (r.is_def(), r.reg) {
                state.forget(self.values.vreg(v));
                self.note_def(state, v, here.inst);
            }
        }
    }

    /// An original `%a = COPY %b`, kept, turned into spill code (with an
    /// edit) or removed: the source must hold `b`; afterwards the
    /// destination holds what the source held, and `a`.
    fn original_copy(
        &mut self,
        here: Here,
        state: &mut State,
        o: &InstData,
        edit: Option<Edit>,
        removed: bool,
    ) {
        let (Some(Operand::Reg(od)), Some(Operand::Reg(os))) =
            (o.operands.first(), o.operands.get(1))
        else {
            self.err(
                K::InstructionChanged,
                here,
                None,
                |_: &Self| "a COPY with a destination and a source".into(),
                |_: &Self| "something else".into(),
            );
            return;
        };
        let Some(a) = self.alloc.insts.get(here.inst.index()) else {
            return;
        };
        let locs = match edit {
            Some(Edit::Spill { from, slot }) => Some((Loc::Slot(slot), Loc::Reg(from))),
            Some(Edit::Reload { slot, to }) => Some((Loc::Reg(to), Loc::Slot(slot))),
            Some(Edit::Copy { from, to }) => Some((Loc::Reg(to), Loc::Reg(from))),
            Some(Edit::Remat { .. }) => {
                self.err(
                    K::BadEdit,
                    here,
                    None,
                    |_: &Self| "a spill, reload or copy for an original COPY".into(),
                    |_: &Self| "a rematerialization".into(),
                );
                return;
            }
            None => None,
        };
        if let (Some(e), false) = (edit, removed) {
            self.verify_edit(here, a, &e);
        }
        let locs = match locs {
            Some(l) => l,
            None => {
                if !removed && a.op != o.op {
                    let n = self.op_name(a.op);
                    self.err(
                        K::InstructionChanged,
                        here,
                        None,
                        |_: &Self| "COPY".into(),
                        |_: &Self| n,
                    );
                    return;
                }
                let (Some(Operand::Reg(ad)), Some(Operand::Reg(as_))) =
                    (a.operands.first(), a.operands.get(1))
                else {
                    return;
                };
                match (self.phys_of(ad), self.phys_of(as_)) {
                    (Ok(Some(d)), Ok(Some(s))) => {
                        for (k, (or, ar, p)) in [(od, ad, d), (os, as_, s)].into_iter().enumerate()
                        {
                            match or.reg {
                                RegRef::Virt(v) => self.check_class(here, k, v, or.sub, ar, p),
                                RegRef::Phys(q) => {
                                    let want = match or.sub {
                                        Some(i) => self.sub_reg(q, i),
                                        None => Some(q),
                                    };
                                    if want != Some(p) {
                                        let w = want.map_or("$noreg".into(), |r| self.reg_name(r));
                                        let f = self.reg_name(p);
                                        self.err(
                                            K::FixedRegisterChanged,
                                            here,
                                            Some(k),
                                            |_: &Self| w,
                                            |_: &Self| f,
                                        );
                                    }
                                }
                                RegRef::NoReg => {}
                            }
                        }
                        (Loc::Reg(d), Loc::Reg(s))
                    }
                    (Err(w), _) | (_, Err(w)) if !removed => {
                        self.err(
                            K::VirtualRegisterLeft,
                            here,
                            None,
                            |_: &Self| "physical registers".into(),
                            |_: &Self| w,
                        );
                        return;
                    }
                    _ if removed => {
                        self.removed_virtual_copy(state, od, os, here.inst);
                        return;
                    }
                    _ => return,
                }
            }
        };
        let (dst, src) = locs;
        // The source must hold the copied value.
        if !os.flags.has(RegFlags::UNDEF) {
            match src {
                Loc::Reg(p) => self.check_reads(here, Some(1), os.reg, p, state),
                Loc::Slot(s) => self.check_slot_reads(here, Some(1), os.reg, s, state),
            }
        }
        let src_sets: Vec<ValueSet> = match src {
            Loc::Reg(p) => self
                .units(p)
                .iter()
                .map(|&u| state.unit(u).clone())
                .collect(),
            Loc::Slot(s) => vec![state.slot(s)],
        };
        let meet_all = || {
            let mut it = src_sets.iter();
            let mut acc = it.next().cloned().unwrap_or_default();
            for s in it {
                acc.intersect(s);
            }
            acc
        };
        // Implicit definitions appended to a kept COPY (a super-register
        // the rewriter marks defined) also clobber, except the lanes a
        // partial copy keeps.
        let clobber_extra = |c: &Self, state: &mut State, keep: &[RegUnit]| {
            if edit.is_none() && !removed && a.operands.len() > 2 {
                let extra = InstData {
                    operands: a.operands[2..].to_vec(),
                    ..InstData::new(a.op)
                };
                let saved: Vec<(RegUnit, ValueSet)> =
                    keep.iter().map(|&u| (u, state.unit(u).clone())).collect();
                c.clobber(&extra, state);
                for (u, set) in saved {
                    state.set_unit(u, set);
                }
            }
        };
        match dst {
            Loc::Reg(pd) => {
                let ud = self.units(pd);
                let full_keep: Vec<RegUnit> = match (od.reg, od.sub) {
                    (RegRef::Virt(v), Some(idx)) => {
                        let ad = a
                            .operands
                            .first()
                            .and_then(Operand::as_reg)
                            .cloned()
                            .unwrap_or(RegOperand::def_of(pd));
                        self.full_reg(v, idx, &ad, pd)
                            .map(|f| {
                                self.units(f)
                                    .iter()
                                    .copied()
                                    .filter(|u| !ud.contains(u))
                                    .collect()
                            })
                            .unwrap_or_default()
                    }
                    _ => Vec::new(),
                };
                // As for other partial definitions, the kept lanes are
                // checked where they are read.
                let undef = od.flags.has(RegFlags::UNDEF);
                clobber_extra(self, state, if undef { &[] } else { &full_keep });
                let partial = od.sub.is_some() && !undef;
                let value_of = |u: RegUnit| match od.reg {
                    RegRef::Virt(v) => Some(self.values.vreg(v)),
                    RegRef::Phys(_) => Some(self.values.unit(u)),
                    RegRef::NoReg => None,
                };
                // The old copies of the defined value die once, before any
                // unit of the destination receives it: forgetting per unit
                // would drop it from the units written just before.
                if let RegRef::Virt(v) = od.reg {
                    let x = self.values.vreg(v);
                    if partial {
                        let keep: Vec<RegUnit> =
                            full_keep.iter().chain(ud.iter()).copied().collect();
                        self.define(state, x, &[], &keep);
                    } else {
                        state.forget(x);
                    }
                } else {
                    for &u in ud.iter() {
                        if let Some(x) = value_of(u) {
                            state.forget(x);
                        }
                    }
                }
                for (k, &u) in ud.iter().enumerate() {
                    let Some(x) = value_of(u) else { continue };
                    let mut from = if src_sets.len() == ud.len() {
                        src_sets[k].clone()
                    } else {
                        meet_all()
                    };
                    from.remove(x);
                    self.copy_value(state, x, &from, Loc::Reg(pd), u);
                }
                if undef && let RegRef::Virt(v) = od.reg {
                    for &u in &full_keep {
                        state.add_to_unit(u, self.values.vreg(v));
                    }
                }
            }
            Loc::Slot(s) => {
                clobber_extra(self, state, &[]);
                let RegRef::Virt(v) = od.reg else {
                    self.err(
                        K::BadEdit,
                        here,
                        Some(0),
                        |_: &Self| "a copy to a physical register kept in a register".into(),
                        |_: &Self| format!("a spill to %stack.{s}"),
                    );
                    return;
                };
                let x = self.values.vreg(v);
                let mut from = meet_all();
                from.remove(x);
                state.forget(x);
                self.copy_value(state, x, &from, Loc::Slot(s), RegUnit(0));
            }
        }
        if let RegRef::Virt(v) = od.reg {
            self.note_def(state, v, here.inst);
        }
    }

    /// `x` := the value a location holding `from` holds, placed in unit `u`
    /// (for `Loc::Reg`) or the slot. Every location that shares a value with
    /// `from` holds the same value, so it also holds `x` afterwards. The
    /// caller has already removed `x` from the locations that lost it.
    fn copy_value(&self, state: &mut State, x: Value, from: &ValueSet, dst: Loc, u: RegUnit) {
        if !from.is_empty() {
            for s in state.units.iter_mut() {
                if s.meets(from) {
                    s.insert(x);
                }
            }
            for s in state.slots.values_mut() {
                if s.meets(from) {
                    s.insert(x);
                }
            }
        }
        let mut set = from.clone();
        set.insert(x);
        match dst {
            Loc::Reg(_) => state.set_unit(u, set),
            Loc::Slot(s) => {
                state.slots.insert(s, set);
            }
        }
    }

    /// A removed COPY whose registers were never rewritten: every location
    /// holding the source value now also holds the destination's.
    fn removed_virtual_copy(&self, state: &mut State, od: &RegOperand, os: &RegOperand, i: Inst) {
        let (RegRef::Virt(a), RegRef::Virt(b)) = (od.reg, os.reg) else {
            return;
        };
        let (xa, xb) = (self.values.vreg(a), self.values.vreg(b));
        if xa == xb {
            return;
        }
        state.forget(xa);
        for s in state.units.iter_mut().chain(state.slots.values_mut()) {
            if s.contains(xb) {
                s.insert(xa);
            }
        }
        self.note_def(state, a, i);
    }

    /// The physical register operand of `a` that is a definition (or a use)
    /// equal to `r`, if any.
    fn has_reg(&self, a: &InstData, r: Reg, def: bool) -> bool {
        a.operands
            .iter()
            .filter_map(Operand::as_reg)
            .any(|o| o.is_def() == def && self.phys_of(o).ok().flatten() == Some(r))
    }

    fn has_slot(a: &InstData, slot: u32) -> bool {
        a.operands
            .iter()
            .any(|o| matches!(o, Operand::Frame(FrameRef { fixed: false, id }, _) if *id == slot))
    }

    /// Checks that an inserted (or converted) instruction does what its
    /// edit says: otherwise reading it through the edit would prove nothing.
    fn verify_edit(&mut self, here: Here, a: &InstData, e: &Edit) {
        for (k, o) in a.operands.iter().enumerate() {
            if let Some(RegOperand {
                reg: RegRef::Virt(v),
                ..
            }) = o.as_reg()
            {
                let v = *v;
                self.err(
                    K::VirtualRegisterLeft,
                    here,
                    Some(k),
                    |_: &Self| "a physical register".into(),
                    |_: &Self| format!("%{}", v.0),
                );
            }
        }
        let flags = match a.op {
            Op::Target(op) => self.t.instrs.get(op.index()).map(|d| d.flags),
            Op::Generic(_) => None,
        };
        let is = |f: InstrFlags| flags.is_some_and(|x| x.contains(f));
        let bad = match *e {
            Edit::Spill { from, slot } => {
                if !self.new_slots.contains(&slot) {
                    Some(format!("%stack.{slot}, which is not a new spill slot"))
                } else if !is(InstrFlags::MAY_STORE)
                    || !Self::has_slot(a, slot)
                    || !self.has_reg(a, from, false)
                {
                    Some(format!(
                        "a store of {} to %stack.{slot}",
                        self.reg_name(from)
                    ))
                } else {
                    None
                }
            }
            Edit::Reload { slot, to } => {
                if !self.new_slots.contains(&slot) {
                    Some(format!("%stack.{slot}, which is not a new spill slot"))
                } else if !is(InstrFlags::MAY_LOAD)
                    || !Self::has_slot(a, slot)
                    || !self.has_reg(a, to, true)
                {
                    Some(format!(
                        "a load of {} from %stack.{slot}",
                        self.reg_name(to)
                    ))
                } else {
                    None
                }
            }
            Edit::Copy { from, to } => {
                let copy_op = a.op.is_copy()
                    || self.t.classes.iter().any(|c| {
                        c.copy
                            .as_ref()
                            .is_some_and(|tpl| Op::Target(tpl.opcode) == a.op)
                    });
                if !copy_op || !self.has_reg(a, to, true) || !self.has_reg(a, from, false) {
                    Some(format!(
                        "a copy of {} to {}",
                        self.reg_name(from),
                        self.reg_name(to)
                    ))
                } else {
                    None
                }
            }
            Edit::Remat { to, .. } => {
                if !self.has_reg(a, to, true) {
                    Some(format!("a definition of {}", self.reg_name(to)))
                } else {
                    None
                }
            }
        };
        if let Some(what) = bad {
            let n = self.op_name(a.op);
            self.err(
                K::BadEdit,
                here,
                None,
                |_: &Self| what,
                |_: &Self| format!("{n} doing something else"),
            );
        }
    }

    /// An instruction the allocator inserted, read through its edit.
    fn inserted(&mut self, here: Here, state: &mut State, e: Edit) {
        let Some(a) = self.alloc.insts.get(here.inst.index()) else {
            return;
        };
        self.verify_edit(here, a, &e);
        match e {
            Edit::Spill { from, slot } => {
                let mut set: Option<ValueSet> = None;
                for &u in self.units(from) {
                    let s = state.unit(u);
                    match &mut set {
                        None => set = Some(s.clone()),
                        Some(acc) => {
                            acc.intersect(s);
                        }
                    }
                }
                self.clobber(a, state);
                let set = set.unwrap_or_default();
                if set.is_empty() {
                    state.slots.remove(&slot);
                } else {
                    state.slots.insert(slot, set);
                }
            }
            Edit::Reload { slot, to } => {
                let set = state.slot(slot);
                self.clobber(a, state);
                for &u in self.units(to) {
                    state.set_unit(u, set.clone());
                }
            }
            Edit::Copy { from, to } => {
                let (uf, ut) = (self.units(from), self.units(to));
                let sets: Vec<ValueSet> = uf.iter().map(|&u| state.unit(u).clone()).collect();
                let all = {
                    let mut it = sets.iter();
                    let mut acc = it.next().cloned().unwrap_or_default();
                    for s in it {
                        acc.intersect(s);
                    }
                    acc
                };
                self.clobber(a, state);
                for (k, &u) in ut.iter().enumerate() {
                    let s = if sets.len() == ut.len() {
                        sets[k].clone()
                    } else {
                        all.clone()
                    };
                    state.set_unit(u, s);
                }
            }
            Edit::Remat { vreg, to, of } => self.remat(here, state, a, vreg, to, of),
        }
    }

    fn remat(
        &mut self,
        here: Here,
        state: &mut State,
        a: &InstData,
        vreg: VReg,
        to: Reg,
        of: Inst,
    ) {
        let src = self
            .orig
            .insts
            .get(of.index())
            .filter(|_| self.rec.is_original(of));
        let ok = src.is_some_and(|o| {
            o.op == a.op
                && o.operands.len() <= a.operands.len()
                && o.operands
                    .iter()
                    .filter_map(Operand::as_reg)
                    .any(|r| r.is_def() && r.reg == RegRef::Virt(vreg))
                && match o.op {
                    // A load may only be repeated where the memory it reads
                    // cannot have changed (a constant pool).
                    Op::Target(op) => self.t.instrs.get(op.index()).is_some_and(|d| {
                        d.is(InstrFlags::REMAT)
                            && !d.is(InstrFlags::MAY_STORE)
                            && (!d.is(InstrFlags::MAY_LOAD) || o.is_invariant_load())
                    }),
                    Op::Generic(g) => g == Generic::ImplicitDef,
                }
        });
        if !ok {
            let n = self.op_name(a.op);
            self.err(
                K::BadRemat,
                here,
                None,
                |_: &Self| {
                    format!(
                        "a copy of rematerializable instruction {} defining %{}",
                        of.index(),
                        vreg.0
                    )
                },
                |_: &Self| n,
            );
        } else if self.values_known && self.tracked.contains(&vreg) {
            let reaching = state.reaching.get(&vreg).cloned().unwrap_or_default();
            if reaching != [of] {
                self.err(
                    K::BadRemat,
                    here,
                    None,
                    |_: &Self| {
                        format!(
                            "instruction {} to be the only definition of %{} reaching here",
                            of.index(),
                            vreg.0
                        )
                    },
                    |_: &Self| {
                        format!(
                            "definitions {:?} reach",
                            reaching.iter().map(|i| i.0).collect::<Vec<_>>()
                        )
                    },
                );
            }
        }
        // The recomputation reads its own operands: they must hold what the
        // original definition read.
        if let Some(o) = src.filter(|_| ok) {
            for (k, op) in o.operands.iter().enumerate() {
                let (Some(r), Some(Operand::Reg(ar))) = (op.as_reg(), a.operands.get(k)) else {
                    continue;
                };
                if r.is_def() || r.flags.has(RegFlags::UNDEF) {
                    continue;
                }
                match self.phys_of(ar) {
                    Ok(Some(p)) => self.check_reads(here, Some(k), r.reg, p, state),
                    Ok(None) => {}
                    Err(w) => self.err(
                        K::VirtualRegisterLeft,
                        here,
                        Some(k),
                        |_: &Self| "a physical register".into(),
                        |_: &Self| w,
                    ),
                }
            }
        }
        self.clobber(a, state);
        for &u in self.units(to) {
            state.set_unit(u, ValueSet::single(self.values.vreg(vreg)));
        }
    }
}
