//! The spiller: LLVM's inline spiller (a stack slot per spilled original register, a store after each def, a reload or a rematerialization before each use, memory-operand folding, tiny unspillable intervals).
//!
//! Spilling virtual register `V` gives it a stack slot and then, for every
//! instruction `I` that touches `V`, a new virtual register `N` of `V`'s
//! class that replaces `V` in `I` only:
//!
//! - if `I` reads `V` (a use, or a sub-register def without `undef`, which
//!   keeps the other lanes), `N` is loaded from the slot right before `I`,
//!   or, when the value reaching `I` was defined by a rematerializable
//!   instruction whose only register uses are constant physical registers
//!   (a constant, or x86's `LEA` from `$rip`), recomputed there by a copy of
//!   that instruction; for a split product whose value a split copy brought
//!   from a sibling, the instruction is the original register's definition
//!   of that value (the original's range is kept by [`LiveIntervals`]);
//! - if `I` writes `V` and the value is read later, `N` is stored to the
//!   slot right after `I`.
//!
//! Where the target's description has a memory-operand fold for the
//! operand (`MemoryFold`), `I` accesses the slot itself and `N` is not
//! needed: a use reads the slot, a definition writes it (only if the value
//! is read later), a definition with its tied use does both, and a second
//! use the fold names goes with the first ([`FoldedOperand`]). A value that
//! can be recomputed is recomputed rather than read from the slot.
//!
//! Sub-register operands keep their index: the whole register is reloaded
//! and `I` reads or writes its part. A value that is rematerializable and
//! reaches its uses directly (`V` has no phi values) is never stored: all
//! its uses recompute it, its definition (or the split copy that brought
//! it) is dead and is removed (dead-def elimination). Unlike LLVM, a tied
//! use (`%v = ADD_ri %v, 1`) may be rematerialized too: the new register is
//! then defined by the copy and redefined by the instruction, which is as
//! correct as a reload.
//!
//! Instructions are not inserted into the function while allocation runs:
//! the spiller records them ([`SpillCode`]) and the rewriter
//! ([`crate::post::rewrite`]) places them once registers are known. This
//! keeps slot indexes stable: `N`'s interval is expressed in the original
//! numbering, in the free indexes around `I` (instructions are 16 apart):
//! a reload or remat before `I` defines `N` at `I - 4`, a store after `I`
//! reads it at `I + 4`. So `N` is live over `[I-4 r, I r)` for a use,
//! `[I r, I+4 r)` for a stored def, and both for a read-modify-write;
//! such an interval spans no other instruction and cannot be spilled again
//! (its weight is infinite).

use crate::analysis::{LiveInterval, LiveIntervals, LiveRange, Segment, Slot, SlotIndex, ValNo};
use crate::ir::{
    IndexVec, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegOperand, RegRef, VReg,
};
use crate::target::{
    FeatureSet, FunctionInfo, InstrTemplate, MemoryFoldDesc, Reg, RegClass, TargetInfo,
    TemplateOperand,
};

use super::remat::{all_remat_values, is_constant, remat_copy, remat_values};
use super::virtmap::VirtRegMap;
use crate::error::AllocError;
use crate::error::AllocErrorKind;

/// What an instruction the spiller asks for does.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SpillKind {
    /// Stores its register to spill slot `slot` (a spiller slot index).
    Spill {
        /// The spiller's slot index.
        slot: u32,
    },
    /// Loads its register from spill slot `slot`.
    Reload {
        /// The spiller's slot index.
        slot: u32,
    },
    /// Recomputes the value of original register `vreg` by a copy of `of`.
    Remat {
        /// The original virtual register.
        vreg: VReg,
        /// The instruction copied.
        of: Inst,
    },
}

/// One instruction to insert next to an original instruction.
#[derive(Clone, PartialEq, Debug)]
pub struct Insertion {
    /// The original instruction it goes next to.
    pub at: Inst,
    /// After `at` (a store) rather than before it (a reload or remat).
    pub after: bool,
    /// The instruction, with virtual register `vreg` in it.
    pub inst: InstData,
    /// The new register it stores, loads or defines.
    pub vreg: VReg,
    /// What it does.
    pub kind: SpillKind,
    /// For a store or a reload, the value number (in the slot's range, the
    /// original register's) it writes or reads.
    pub value: Option<u32>,
}

/// An original COPY the spiller turned into a reload (`%d = COPY %spilled`)
/// or a spill (`%spilled = COPY %s`).
#[derive(Clone, PartialEq, Debug)]
pub struct FoldedCopy {
    /// The instruction.
    pub inst: Inst,
    /// What it now does.
    pub kind: SpillKind,
    /// The position of its register operand.
    pub operand: usize,
    /// The value number (in the slot's range) it writes or reads.
    pub value: Option<u32>,
}

/// An original instruction that now accesses a spilled register's stack
/// slot instead of the register: the target's memory-operand fold turned
/// its register form into its memory form. A folded use reads the slot
/// (LLVM's folded reload), a folded definition writes it (a folded spill),
/// a folded read-modify-write does both.
#[derive(Clone, PartialEq, Debug)]
pub struct FoldedOperand {
    /// The instruction.
    pub inst: Inst,
    /// The explicit operand of its register form that the address replaced.
    pub operand: usize,
    /// The position of the frame-index operand in the rewritten instruction.
    pub frame: usize,
    /// The spiller's slot index.
    pub slot: u32,
    /// How many bits the memory form accesses (for its memory operands).
    pub bits: u32,
    /// If it reads the slot, the value number (in the slot's range) read.
    pub read: Option<Option<u32>>,
    /// If it writes the slot, the value number written.
    pub written: Option<Option<u32>>,
}

/// A spill slot the spiller asked for: one per original register, shared
/// by every spilled piece of it (LLVM's one stack slot per original).
#[derive(Clone, PartialEq, Debug)]
pub struct SpillSlot {
    /// The original register whose pieces are spilled to it.
    pub vreg: VReg,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u32,
    /// The stack it lives in (`default`, `scalable-vector`): slots of
    /// different stacks are never merged.
    pub stack_id: Box<str>,
    /// Where the slot may hold a value: the original register's live range
    /// before any split (every piece lives inside it, and a value stored by
    /// one piece may be reloaded by another wherever the original is
    /// live). Its value numbers name the values stores and reloads carry.
    pub range: LiveRange,
    /// The weight of the first piece spilled to it (heaviest slots are
    /// coloured first).
    pub weight: f32,
}

/// Everything the spiller decided, for the rewriter to carry out.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct SpillCode {
    /// Instructions to insert, in the order they were created.
    pub insertions: Vec<Insertion>,
    /// Original instructions to delete (dead definitions).
    pub removed: Vec<Inst>,
    /// Original COPYs turned into a reload or a spill.
    pub folded: Vec<FoldedCopy>,
    /// Original instructions that access a slot through a memory operand.
    pub memory_folds: Vec<FoldedOperand>,
    /// Spill slots, by spiller slot index.
    pub slots: Vec<SpillSlot>,
}

/// The inline spiller's state for one function.
#[derive(Clone, Debug)]
pub struct Spiller {
    /// Instructions touching each virtual register of the input, in layout
    /// order (each once): those of `v` are `input_users[input_start[v] ..
    /// input_start[v + 1]]`, one vector for the function rather than one
    /// per register (most functions spill none of them).
    input_start: Vec<u32>,
    input_users: Vec<Inst>,
    /// The lists [`Spiller::set_users`] gave, by register (registers made
    /// by splitting; registers the spiller creates are never spilled).
    later_users: IndexVec<VReg, Option<Vec<Inst>>>,
    /// Physical registers some instruction of the function defines: a
    /// reserved register that overlaps none of them is a constant for
    /// rematerialization (LLVM's `isConstantPhysReg`), such as x86's `$rip`.
    phys_defs: Vec<Reg>,
    /// The spill slot of each original register spilled so far.
    slot_of: rustc_hash::FxHashMap<VReg, u32>,
    /// The function's facts that spill code depends on (subtarget, whether
    /// a slot may be realigned), learnt at the first spill.
    info: Option<FunctionInfo>,
    /// The decisions so far.
    pub code: SpillCode,
}

impl Spiller {
    /// A spiller for `func` (before any spilling).
    pub fn new(func: &MachineFunction) -> Spiller {
        let n = func.vregs.len();
        // Each (register, instruction) pair once, in layout order, then
        // placed by a counting sort on the register (stable: layout order
        // within each register's run).
        let mut last: IndexVec<VReg, Option<Inst>> = IndexVec::from_elem(None, n);
        let mut count: Vec<u32> = vec![0; n + 1];
        let mut pairs: Vec<(u32, Inst)> = Vec::with_capacity(2 * func.insts.len());
        let mut phys_defs = Vec::new();
        for i in func.inst_ids() {
            for o in &func.inst(i).operands {
                let Operand::Reg(r) = o else { continue };
                match r.reg {
                    RegRef::Virt(v) => {
                        if let Some(l) = last.get_mut(v)
                            && *l != Some(i)
                        {
                            *l = Some(i);
                            count[v.index()] += 1;
                            pairs.push((v.0, i));
                        }
                    }
                    RegRef::Phys(p) if r.is_def() && !phys_defs.contains(&p) => phys_defs.push(p),
                    _ => {}
                }
            }
        }
        let mut input_start = Vec::with_capacity(n + 1);
        let mut at = 0;
        for &c in &count {
            input_start.push(at);
            at += c;
        }
        let mut next = input_start.clone();
        let mut input_users = vec![Inst(0); pairs.len()];
        for &(v, i) in &pairs {
            let k = &mut next[v as usize];
            input_users[*k as usize] = i;
            *k += 1;
        }
        Spiller {
            input_start,
            input_users,
            later_users: IndexVec::new(),
            phys_defs,
            slot_of: Default::default(),
            info: None,
            code: SpillCode::default(),
        }
    }

    /// The instructions touching `v`, in layout order.
    pub fn users(&self, v: VReg) -> &[Inst] {
        if let Some(Some(u)) = self.later_users.get(v) {
            return u;
        }
        match (
            self.input_start.get(v.index()),
            self.input_start.get(v.index() + 1),
        ) {
            (Some(&a), Some(&b)) => &self.input_users[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Tells the spiller which instructions touch `v`, a register created
    /// after it was made (a product of live-range splitting), in layout
    /// order, so that it can be spilled.
    pub fn set_users(&mut self, v: VReg, users: Vec<Inst>) {
        if self.later_users.len() <= v.index() {
            self.later_users.resize(v.index() + 1, None);
        }
        self.later_users[v] = Some(users);
    }

    /// Whether spilling `v` would recompute every one of its values at its
    /// uses instead of storing and reloading it: no slot access at all,
    /// and its definitions die.
    pub fn all_rematerializable(
        &self,
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        li: &LiveIntervals,
        vrm: &VirtRegMap,
        v: VReg,
    ) -> bool {
        let constant = |p: Reg| is_constant(t, &self.phys_defs, p);
        let users = self.users(v);
        li.vreg(v).is_some() && all_remat_values(t, func, li, vrm, v, users, &constant)
    }

    /// Spills `v`: rewrites every instruction touching it to use a new
    /// register, records the spill code, and returns the new registers (whose
    /// intervals are added to `li`) for the allocator to queue.
    pub fn spill(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        li: &mut LiveIntervals,
        vrm: &mut VirtRegMap,
        v: VReg,
    ) -> Result<Vec<VReg>, AllocError> {
        let users = self.users(v).to_vec();
        let mut task = self.begin(t, func, li, vrm, v, &users)?;
        let mut new_regs = Vec::new();
        for i in users {
            let Some(at) = li.slots.inst(i) else {
                // Debug instructions lose the location.
                drop_location(func, i, v);
                continue;
            };
            let user = User { i, at };
            if task.defines_only_rematerialized(i) {
                // Every use of this value is recomputed (without phi values
                // each use sees exactly one definition): the definition is
                // dead.
                self.code.removed.push(i);
                continue;
            }
            if self.fold_copy_into_slot(t, func, &mut task, user)
                || self.fold_into_memory_operand(t, func, &mut task, user)
            {
                continue;
            }
            new_regs.push(self.spill_around(t, func, li, vrm, &mut task, user));
        }
        Ok(new_regs)
    }

    /// What spilling `v`, touched by `users`, needs to know: its class and
    /// slot layout, and which of its values are recomputed; or why it
    /// cannot be spilled.
    fn begin<'t, 'a>(
        &mut self,
        t: &'t TargetInfo<'a>,
        func: &MachineFunction,
        li: &LiveIntervals,
        vrm: &VirtRegMap,
        v: VReg,
        users: &[Inst],
    ) -> Result<SpillTask<'t, 'a>, AllocError> {
        let err = |kind, msg: String| AllocError::new(kind, &func.name, msg);
        let Some(iv) = li.vreg(v).cloned() else {
            return Err(err(
                AllocErrorKind::Unsupported,
                format!("{} has no live interval to spill", func.vreg_text(v)),
            ));
        };
        let Some(class) = func.vreg_class(v).filter(|c| c.index() < t.classes.len()) else {
            return Err(err(
                AllocErrorKind::Unsupported,
                format!("{} has no register class", func.vreg_text(v)),
            ));
        };
        let info = *self
            .info
            .get_or_insert_with(|| super::order::function_info(t, func));
        let layout = spill_layout(t, class, &info).map_err(|why| {
            err(
                AllocErrorKind::Unsupported,
                format!("{} must be spilled but {why}", func.vreg_text(v)),
            )
        })?;
        let original = vrm.original(v);
        let orig_range = li.original(original).unwrap_or(&iv.range).clone();

        // Which values can be recomputed instead of reloaded.
        let constant = |p: Reg| is_constant(t, &self.phys_defs, p);
        let remat_of = remat_values(t, func, li, vrm, v, users, &constant);
        // The instruction defining each value (a rematerializable one, or
        // the copy from a sibling that brought it): dead when every use of
        // the value is recomputed.
        let def_of: Vec<Option<Inst>> = iv
            .range
            .valnos
            .iter()
            .map(|vn| (!vn.is_phi()).then(|| li.slots.inst_at(vn.def)).flatten())
            .collect();
        let has_phi = iv.range.valnos.iter().any(|vn| vn.is_phi());
        // The defining instructions as they are now: the walk over the
        // users rewrites a kept definition before later uses copy it.
        let remat_src: Vec<(Inst, InstData)> = remat_of
            .iter()
            .flatten()
            .map(|&d| (d, func.inst(d).clone()))
            .collect();
        // Where the store or load template names the register by its
        // pieces, a COPY is not folded: the folded copy's record names one
        // operand's register, which would be a piece.
        let piecewise = [layout.store, layout.load].iter().any(|tpl| {
            tpl.operands
                .iter()
                .any(|o| matches!(o, TemplateOperand::RegSub(_)))
        });
        Ok(SpillTask {
            v,
            class,
            iv,
            original,
            orig_range,
            layout,
            remat_of,
            def_of,
            has_phi,
            remat_src,
            piecewise,
            slot_index: None,
        })
    }

    /// The slot of the register being spilled, created when the first
    /// store or reload needs it: a register whose values are all
    /// rematerialized needs none. Every piece of one original shares its
    /// slot.
    fn slot(&mut self, task: &mut SpillTask<'_, '_>) -> u32 {
        let slots = &mut self.code.slots;
        *task.slot_index.get_or_insert_with(|| {
            *self.slot_of.entry(task.original).or_insert_with(|| {
                slots.push(SpillSlot {
                    vreg: task.original,
                    size: task.layout.size,
                    align: task.layout.align,
                    stack_id: task.layout.stack_id.into(),
                    range: task.orig_range.clone(),
                    weight: task.iv.weight,
                });
                slots.len() as u32 - 1
            })
        })
    }

    /// Folds a full COPY to or from the spilled register into the reload
    /// or the store itself (LLVM folds the memory operand into the COPY);
    /// `false` when `user` is no such copy. A rematerializable value is
    /// recomputed instead, as LLVM tries that first.
    fn fold_copy_into_slot(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        task: &mut SpillTask<'_, '_>,
        user: User,
    ) -> bool {
        let User { i, at } = user;
        if task.piecewise {
            return false;
        }
        let Some((inst, kind)) = fold_copy(t, func, &task.iv.range, i, at, task.v, task.class)
        else {
            return false;
        };
        let fold = match kind {
            FoldKind::Reload => {
                let vn = task
                    .iv
                    .range
                    .segment_at(at.with(Slot::Block))
                    .map(|s| s.valno as usize);
                vn.is_some_and(|vn| task.remat_of.get(vn).copied().flatten().is_none())
            }
            FoldKind::Spill => true,
        };
        if !fold {
            return false;
        }
        let slot = self.slot(task);
        let (data, reg_at) = match kind {
            FoldKind::Reload => from_template(t, task.layout.load, inst, slot, false),
            FoldKind::Spill => from_template(t, task.layout.store, inst, slot, true),
        };
        let mut data = data;
        data.flags = func.inst(i).flags;
        data.attrs = func.inst(i).attrs.clone();
        *func.inst_mut(i) = data;
        let (kind, value) = match kind {
            FoldKind::Reload => (
                SpillKind::Reload { slot },
                task.value_at(at.with(Slot::Block)),
            ),
            FoldKind::Spill => (
                SpillKind::Spill { slot },
                task.value_at(at.with(Slot::Register)),
            ),
        };
        self.code.folded.push(FoldedCopy {
            inst: i,
            kind,
            operand: reg_at,
            value,
        });
        true
    }

    /// Makes an instruction that can access the slot directly do so;
    /// `false` when `user` cannot. It reads a value there unless the value
    /// can be recomputed (LLVM tries rematerialization first too), and
    /// writes one there only if it is read later.
    fn fold_into_memory_operand(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        task: &mut SpillTask<'_, '_>,
        user: User,
    ) -> bool {
        let User { i, at } = user;
        let Some((operand, fold, bits)) = memory_fold(t, func, i, task.v, task.class) else {
            return false;
        };
        let (before, def) = (at.with(Slot::Block), at.with(Slot::Register));
        // A definition's `also` is its tied use, which reads.
        let stores = is_def_operand(func, i, operand);
        let loads = !stores || fold.also.is_some();
        let read_ok = !loads
            || task.iv.range.segment_at(before).is_some_and(|seg| {
                task.remat_of
                    .get(seg.valno as usize)
                    .copied()
                    .flatten()
                    .is_none()
            });
        let write_ok = !stores || live_after(&task.iv.range, at);
        if !(read_ok && write_ok) {
            return false;
        }
        let slot = self.slot(task);
        let frame = func.inst_mut(i).fold_memory_operand(fold, operand, slot);
        self.code.memory_folds.push(FoldedOperand {
            inst: i,
            operand,
            frame,
            slot,
            bits,
            read: if loads {
                Some(task.value_at(before))
            } else {
                None
            },
            written: if stores {
                Some(task.value_at(def))
            } else {
                None
            },
        });
        true
    }

    /// Gives `user` a new register of its own: reloaded or recomputed
    /// before it when it reads the value, stored after it when it writes
    /// one read later, its interval spanning just the instruction. Returns
    /// the new register.
    fn spill_around(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        li: &mut LiveIntervals,
        vrm: &mut VirtRegMap,
        task: &mut SpillTask<'_, '_>,
        user: User,
    ) -> VReg {
        let access = Access::of(func.inst(user.i), task.v);
        let n = func.new_vreg(Some(task.class));
        vrm.set_original(n, task.v);
        if access.reads {
            self.reload_before(t, func, task, user, n);
        }
        let stored = access.writes && self.store_after(t, task, user, n, access.early_clobber);
        let (start, end) = access.stub_bounds(user.at, stored);
        let has_sub_operands = rename_operands(func, user.i, task.v, n);
        li.set_vreg(n, stub_interval(n, start, end, has_sub_operands));
        n
    }

    /// Inserts, before `user`, the reload of the value live there into
    /// `n`, or its recomputation.
    fn reload_before(
        &mut self,
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        task: &mut SpillTask<'_, '_>,
        user: User,
        n: VReg,
    ) {
        // The value live just before `I` (its `B` slot).
        let before = user.at.with(Slot::Block);
        let Some(seg) = task.iv.range.segment_at(before) else {
            return;
        };
        let vn = seg.valno as usize;
        let (inst, kind) = match task.remat_of.get(vn).copied().flatten() {
            Some(def) => (
                remat_copy(
                    task.remat_src
                        .iter()
                        .find(|x| x.0 == def)
                        .map_or(func.inst(def), |x| &x.1),
                    n,
                ),
                // The checker knows values by their original
                // register (`v` may be a split product).
                SpillKind::Remat {
                    vreg: task.original,
                    of: def,
                },
            ),
            None => {
                let slot = self.slot(task);
                (
                    from_template(t, task.layout.load, RegOperand::use_of(n), slot, false).0,
                    SpillKind::Reload { slot },
                )
            }
        };
        let value = match kind {
            SpillKind::Reload { .. } => task.value_at(before),
            _ => None,
        };
        self.code.insertions.push(Insertion {
            at: user.i,
            after: false,
            inst,
            vreg: n,
            kind,
            value,
        });
    }

    /// Inserts, after `user`, the store of the value it writes into `n`,
    /// unless the value is dead there or never reloaded (every use
    /// recomputes it); whether it did.
    fn store_after(
        &mut self,
        t: &TargetInfo<'_>,
        task: &mut SpillTask<'_, '_>,
        user: User,
        n: VReg,
        early_clobber: bool,
    ) -> bool {
        let at = user.at;
        let def = at.reg_slot(early_clobber);
        let Some(seg) = task.iv.range.segment_at(def) else {
            return false;
        };
        let vn = seg.valno as usize;
        let dead = seg.end <= at.dead_slot()
            && !task
                .iv
                .range
                .segments
                .iter()
                .any(|s| s.valno == seg.valno && s.start > def);
        let never_reloaded = !task.has_phi && task.remat_of.get(vn).copied().flatten().is_some();
        if dead || never_reloaded {
            return false;
        }
        let slot = self.slot(task);
        self.code.insertions.push(Insertion {
            at: user.i,
            after: true,
            inst: from_template(t, task.layout.store, RegOperand::use_of(n), slot, true).0,
            vreg: n,
            kind: SpillKind::Spill { slot },
            value: task.value_at(def),
        });
        true
    }
}

/// One register being spilled, and what its spill needs to know.
struct SpillTask<'t, 'a> {
    v: VReg,
    class: RegClass,
    /// Its interval before the spill.
    iv: LiveInterval,
    /// The original register, whose slot every piece shares.
    original: VReg,
    /// The original's range before its first split: its values name what
    /// the slot holds.
    orig_range: LiveRange,
    layout: SpillLayout<'t, 'a>,
    /// Per value, the instruction that recomputes it, if any.
    remat_of: Vec<Option<Inst>>,
    /// Per value, its defining instruction (`None` for a phi value).
    def_of: Vec<Option<Inst>>,
    /// Whether any value is a phi value.
    has_phi: bool,
    /// The rematerialized definitions as they were before the spill.
    remat_src: Vec<(Inst, InstData)>,
    /// Whether the store or load template names the register by pieces.
    piecewise: bool,
    /// The slot, once a store or reload needed it.
    slot_index: Option<u32>,
}

impl SpillTask<'_, '_> {
    /// The original's value at `idx`.
    fn value_at(&self, idx: SlotIndex) -> Option<u32> {
        self.orig_range.segment_at(idx).map(|seg| seg.valno)
    }

    /// Whether `i` defines a value every use of which is recomputed.
    fn defines_only_rematerialized(&self, i: Inst) -> bool {
        !self.has_phi
            && self
                .def_of
                .iter()
                .zip(&self.remat_of)
                .any(|(d, r)| *d == Some(i) && r.is_some())
    }
}

/// An instruction touching the register being spilled, with its index.
#[derive(Copy, Clone)]
struct User {
    i: Inst,
    at: SlotIndex,
}

/// How an instruction accesses the register being spilled.
#[derive(Copy, Clone)]
struct Access {
    /// It reads the value before it (a use, or a partial definition).
    reads: bool,
    /// It has a use operand (perhaps `undef`).
    any_use: bool,
    /// It has a definition operand.
    writes: bool,
    /// A definition is early-clobber.
    early_clobber: bool,
}

impl Access {
    /// How `inst` accesses `v`.
    fn of(inst: &InstData, v: VReg) -> Access {
        let mut access = Access {
            reads: false,
            any_use: false,
            writes: false,
            early_clobber: false,
        };
        for o in &inst.operands {
            if let Operand::Reg(r) = o
                && r.reg == RegRef::Virt(v)
            {
                if r.is_def() {
                    access.writes = true;
                    access.early_clobber |= r.flags.has(RegFlags::EARLY_CLOBBER);
                    access.reads |= r.sub.is_some() && !r.flags.has(RegFlags::UNDEF);
                } else {
                    access.any_use = true;
                    access.reads |= !r.flags.has(RegFlags::UNDEF);
                }
            }
        }
        access
    }

    /// The start and end of the new register's interval around the
    /// instruction at `at`: from its reload (or its definition) to its
    /// store (or its last access); `stored` when a store follows.
    fn stub_bounds(self, at: SlotIndex, stored: bool) -> (SlotIndex, SlotIndex) {
        let used = self.reads || self.any_use;
        let mut start = None;
        if used {
            start = Some(SlotIndex::new(at.base().saturating_sub(4), Slot::Register));
        }
        let mut end = if used {
            at.with(Slot::Register)
        } else {
            at.reg_slot(self.early_clobber)
        };
        if self.writes {
            end = at.dead_slot();
            start.get_or_insert(at.reg_slot(self.early_clobber));
            if stored {
                end = SlotIndex::new(at.base() + 4, Slot::Register);
            }
        }
        (start.unwrap_or(at.with(Slot::Register)), end)
    }
}

/// Makes the debug instruction `i` lose its location in `v`.
fn drop_location(func: &mut MachineFunction, i: Inst, v: VReg) {
    for o in &mut func.inst_mut(i).operands {
        if let Operand::Reg(r) = o
            && r.reg == RegRef::Virt(v)
        {
            r.reg = RegRef::NoReg;
            r.sub = None;
        }
    }
}

/// Renames `i`'s operands of `v` to `n`, dropping kill flags; whether any
/// names a sub-register.
fn rename_operands(func: &mut MachineFunction, i: Inst, v: VReg, n: VReg) -> bool {
    let mut has_sub_operands = false;
    for o in &mut func.inst_mut(i).operands {
        if let Operand::Reg(r) = o
            && r.reg == RegRef::Virt(v)
        {
            r.reg = RegRef::Virt(n);
            r.flags.set(RegFlags::KILLED, false);
            has_sub_operands |= r.sub.is_some();
        }
    }
    has_sub_operands
}

/// The interval of a spiller-made register `n`: one value from `start`
/// to `end` (at least one slot), never spilled again.
fn stub_interval(
    n: VReg,
    start: SlotIndex,
    end: SlotIndex,
    has_sub_operands: bool,
) -> LiveInterval {
    let range = LiveRange {
        segments: vec![Segment {
            start,
            end: end.max(SlotIndex(start.0 + 1)),
            valno: 0,
        }],
        valnos: vec![ValNo { def: start }],
    };
    LiveInterval {
        vreg: n,
        range,
        subranges: Vec::new(),
        has_sub_operands,
        weight: f32::INFINITY,
        live_in_blocks: Vec::new(),
        generation: 0,
    }
}

/// Which way a COPY folds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum FoldKind {
    /// `%d = COPY %spilled` becomes a load into `%d`.
    Reload,
    /// `%spilled = COPY %s` becomes a store of `%s`.
    Spill,
}

/// If `i` is a plain full COPY between spilled `v` and a register that
/// fits `v`'s class, the other register's operand and the way it folds. A
/// COPY defining `v` folds only when the value is live afterwards (a dead
/// copy needs no store).
fn fold_copy(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    range: &LiveRange,
    i: Inst,
    at: SlotIndex,
    v: VReg,
    class: RegClass,
) -> Option<(RegOperand, FoldKind)> {
    let inst = func.inst(i);
    if !inst.op.is_copy() || inst.operands.len() != 2 {
        return None;
    }
    let (Operand::Reg(d), Operand::Reg(s)) = (&inst.operands[0], &inst.operands[1]) else {
        return None;
    };
    if !d.is_def() || s.is_def() || d.reg == s.reg || d.sub.is_some() || s.sub.is_some() {
        return None;
    }
    if s.reg == RegRef::Virt(v) && !s.flags.has(RegFlags::UNDEF) && fits_class(t, func, d, class) {
        return Some((d.clone(), FoldKind::Reload));
    }
    if d.reg == RegRef::Virt(v)
        && !d.flags.has(RegFlags::UNDEF)
        && !d.flags.has(RegFlags::EARLY_CLOBBER)
        && fits_class(t, func, s, class)
    {
        return live_after(range, at).then(|| (s.clone(), FoldKind::Spill));
    }
    None
}

/// If the target can fold `v`'s operand of `i` into a memory operand, that
/// operand, the fold and how many bits the memory form accesses: `i` names
/// `v` in exactly one explicit operand (a use, or a definition that is not
/// early-clobber) or, for a read-modify-write, in a definition and the use
/// tied to it, nowhere else; no `undef` use. The slot must hold what the
/// memory form accesses: a whole-register operand's class contains `v`'s;
/// a sub-register use is allowed by a little-endian fold when the index
/// starts at bit 0 and is as wide as the operand's register.
fn memory_fold<'t>(
    t: &'t TargetInfo<'_>,
    func: &MachineFunction,
    i: Inst,
    v: VReg,
    class: RegClass,
) -> Option<(usize, &'t MemoryFoldDesc<'t>, u32)> {
    let inst = func.inst(i);
    let Op::Target(op) = inst.op else { return None };
    let desc = t.instrs.get(op.index())?;
    let (mut def, mut uses) = (None, Vec::new());
    for (k, o) in inst.operands.iter().enumerate() {
        let Operand::Reg(r) = o else { continue };
        if r.reg != RegRef::Virt(v) {
            continue;
        }
        if r.is_implicit() || r.flags.has(RegFlags::UNDEF) {
            return None;
        }
        if r.is_def() {
            if def.is_some() || r.sub.is_some() || r.flags.has(RegFlags::EARLY_CLOBBER) {
                return None;
            }
            def = Some(k);
        } else {
            uses.push(k);
        }
    }
    // The folded operand is the definition or the first use; the fold's
    // second operand, if any, must be the only other one naming `v`
    // (ties are the fold's business: tdgen made a tied use its `also`).
    let k = def.or_else(|| uses.first().copied())?;
    let others: &[usize] = if def.is_some() { &uses } else { &uses[1..] };
    let fold = t
        .memory_folds_for(op, k)
        .iter()
        .find(|f| others == f.also.map(usize::from).as_slice())?;
    if def.is_none() && uses.iter().any(|&u| desc.tied_to(u).is_some()) {
        return None;
    }
    if !inst.fold_loses_no_live_def(t, fold) {
        return None;
    }
    let same_sub = uses.iter().chain(&def).all(|&u| {
        inst.operands[u].as_reg().map(|r| r.sub) == inst.operands[k].as_reg().map(|r| r.sub)
    });
    if !same_sub {
        return None;
    }
    let want = desc.operands.get(k)?.class?;
    let bits = t.class(want).reg_size;
    match inst.operands[k].as_reg()?.sub {
        None => t.is_sub_class(class, want).then_some((k, fold, bits)),
        Some(idx) => {
            let sub = t.sub_reg_indices.get(idx.index())?;
            let cd = t.class(class);
            let slot_bits = 8 * cd.spill_size.max(cd.reg_size.div_ceil(8));
            let fits = fold.little_endian
                && def.is_none()
                && sub.offset == Some(0)
                && sub.size.map(u32::from) == Some(bits)
                && bits <= slot_bits;
            fits.then_some((k, fold, bits))
        }
    }
}

/// Whether explicit operand `k` of `i` is a definition.
fn is_def_operand(func: &MachineFunction, i: Inst, k: usize) -> bool {
    func.inst(i)
        .operands
        .get(k)
        .and_then(Operand::as_reg)
        .is_some_and(RegOperand::is_def)
}

/// Whether the value `range` gets at instruction `at` is read after it.
fn live_after(range: &LiveRange, at: SlotIndex) -> bool {
    let def = at.with(Slot::Register);
    range.segment_at(def).is_some_and(|seg| {
        seg.end > at.dead_slot()
            || range
                .segments
                .iter()
                .any(|x| x.valno == seg.valno && x.start > def)
    })
}

/// The class's spill store of register operand `reg` to spiller slot
/// `slot`, aligned to `slot_align` bytes, in a function with subtarget
/// `features`, or `None` when the class has no spill template.
pub(crate) fn store_template(
    t: &TargetInfo<'_>,
    features: FeatureSet,
    class: RegClass,
    reg: RegOperand,
    slot: u32,
    slot_align: u32,
) -> Option<InstData> {
    let aligned = slot_align >= t.class_sizes(class, features).spill_align;
    let store = t.spill_template(class, features, aligned)?;
    Some(from_template(t, store, reg, slot, true).0)
}

/// How a register of a class is spilled in a function: its slot's size,
/// alignment and stack, and the store and load that reach it.
pub(crate) struct SpillLayout<'t, 'a> {
    /// Slot size in bytes (the class's spill size in the function's HW mode).
    pub size: u64,
    /// Slot alignment in bytes.
    pub align: u32,
    /// The stack the slot lives in.
    pub stack_id: &'t str,
    /// The store.
    pub store: &'t InstrTemplate<'a>,
    /// The load.
    pub load: &'t InstrTemplate<'a>,
}

/// The spill layout of class `class` in a function with facts `info`, or
/// why the class cannot be spilled there (`class X cannot be spilled: ...`).
///
/// The slot asks for the class's spill alignment, as LLVM's
/// `VirtRegMap::createSpillSlot` does; where that exceeds the stack's and
/// the function may not realign its stack (x86 without a frame pointer),
/// the slot gets the stack's alignment and the class's unaligned store and
/// load (`VMOVUPSYmr` rather than `VMOVAPSYmr`).
pub(crate) fn spill_layout<'t, 'a>(
    t: &'t TargetInfo<'a>,
    class: RegClass,
    info: &FunctionInfo,
) -> Result<SpillLayout<'t, 'a>, String> {
    let cd = t.class(class);
    if let Some(why) = &cd.cannot_spill {
        return Err(format!("class {} cannot be spilled: {why}", cd.name));
    }
    let sizes = t.class_sizes(class, info.features);
    let want = sizes.spill_align.max(1);
    let stack = t.stack_alignment;
    let aligned = stack == 0 || want <= stack || info.spill_realign;
    let (Some(store), Some(load)) = (
        t.spill_template(class, info.features, aligned),
        t.reload_template(class, info.features, aligned),
    ) else {
        let what = if cd.spill.is_empty() {
            ""
        } else {
            " for this function's subtarget"
        };
        return Err(format!(
            "class {} has no spill/reload template{what}",
            cd.name
        ));
    };
    let size = if sizes.spill_size > 0 {
        u64::from(sizes.spill_size)
    } else {
        u64::from(sizes.reg_size.div_ceil(8).max(1))
    };
    Ok(SpillLayout {
        size,
        align: if aligned { want } else { stack },
        stack_id: &cd.spill_stack_id,
        store,
        load,
    })
}

/// A store (`is_store`) or load of register operand `reg` to or from slot
/// `slot`, from the class's template, and the position of `reg` in it.
/// Which operands are definitions comes from the instruction's
/// description; the frame index is the spiller's slot index until the
/// rewriter renumbers it. A template naming the register piecewise gets
/// its sub-registers (each `undef` where defined: none of the register is
/// live before a reload); the instruction's implicit registers follow its
/// explicit operands, as LLVM's MIR parser wants them.
fn from_template(
    t: &TargetInfo<'_>,
    tpl: &InstrTemplate<'_>,
    reg: RegOperand,
    slot: u32,
    is_store: bool,
) -> (InstData, usize) {
    let desc = t.instrs.get(tpl.opcode.index());
    let num_defs = desc.map_or(usize::from(!is_store), |d| usize::from(d.num_defs));
    let mut inst = InstData::new(Op::Target(tpl.opcode));
    let mut at = 0;
    for (k, o) in tpl.operands.iter().enumerate() {
        let piece = match *o {
            TemplateOperand::Reg | TemplateOperand::Src => None,
            TemplateOperand::RegSub(i) | TemplateOperand::SrcSub(i) => Some(i),
            // The register placeholders are the arms above.
            other => {
                inst.operands.push(
                    Operand::from_template(other, slot)
                        .unwrap_or(Operand::Reg(RegOperand::use_of(RegRef::NoReg))),
                );
                continue;
            }
        };
        let mut r = reg.clone();
        let def = k < num_defs;
        r.flags.set(RegFlags::DEF, def);
        r.flags.set(RegFlags::IMPLICIT, false);
        r.tied_to = None;
        if let Some(i) = piece {
            match r.reg {
                RegRef::Phys(p) => {
                    if let Some(s) = t.sub_reg(p, i) {
                        r.reg = RegRef::Phys(s);
                    }
                }
                _ => {
                    r.sub = Some(i);
                    r.flags.set(RegFlags::UNDEF, def);
                }
            }
        }
        if at == 0 || piece.is_none() {
            at = k;
        }
        inst.operands.push(Operand::Reg(r));
    }
    if let Some(d) = desc {
        for &p in d.implicit_defs.iter() {
            inst.operands.push(Operand::Reg(RegOperand {
                flags: RegFlags::DEF | RegFlags::IMPLICIT,
                ..RegOperand::use_of(RegRef::Phys(p))
            }));
        }
        for &p in d.implicit_uses.iter() {
            inst.operands.push(Operand::Reg(RegOperand {
                flags: RegFlags::IMPLICIT,
                ..RegOperand::use_of(RegRef::Phys(p))
            }));
        }
    }
    (inst, at)
}

/// Whether register operand `r` may be loaded or stored with the spill code
/// of class `class`: a whole register (no sub-register index) that is a
/// virtual register of `class` or a sub-class, or a member of `class`.
fn fits_class(t: &TargetInfo<'_>, func: &MachineFunction, r: &RegOperand, class: RegClass) -> bool {
    if r.sub.is_some() || r.flags.has(RegFlags::UNDEF) {
        return false;
    }
    match r.reg {
        RegRef::Virt(x) => vreg_class(t, func, x).is_some_and(|c| t.is_sub_class(c, class)),
        RegRef::Phys(p) => {
            p.index() < t.regs.len() && t.class_contains(class, p) && !t.is_reserved(p)
        }
        RegRef::NoReg => false,
    }
}

/// The class of `v`, if it has a known one.
pub fn vreg_class(t: &TargetInfo<'_>, func: &MachineFunction, v: VReg) -> Option<RegClass> {
    func.vreg_class(v).filter(|c| c.index() < t.classes.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::remat::remat_source;
    use crate::ir::Block;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    /// `%0` is a constant; `%2`, a piece of it as splitting makes them, is
    /// copied from it in both arms of a diamond and merged at bb.3.
    const PIECE: &str = "---
name: piece
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1, %bb.2
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = MOV_ri 42
    JEQ_ri %1, 0, %bb.2
    JMP %bb.1
  bb.1:
    successors: %bb.3
    %2:gpr = COPY %0
    JMP %bb.3
  bb.2:
    successors: %bb.3
    %2:gpr = COPY %0
    JMP %bb.3
  bb.3:
    $r0 = COPY %2
    RET implicit $r0
...
";

    #[test]
    fn a_merge_of_a_piece_is_recomputed_from_the_original_definition() {
        let f = read(PIECE);
        let mut an = crate::analysis::Analyses::new(bpf(), &f);
        // Before splitting, bb.3 read `%0` itself: its range then, with the
        // same instructions in the same places.
        let unsplit = read(&PIECE.replace("$r0 = COPY %2", "$r0 = COPY %0"));
        let before = crate::analysis::Analyses::new(bpf(), &unsplit);
        let original = before.intervals.vreg(VReg(0)).unwrap().range.clone();
        an.intervals.keep_original(VReg(0), &original);
        let mut vrm = VirtRegMap::new(3);
        vrm.set_original(VReg(2), VReg(0));
        let piece = &an.intervals.vreg(VReg(2)).unwrap().range;
        let phi = *piece
            .valnos
            .iter()
            .find(|vn| vn.is_phi())
            .expect("a merge at bb.3");
        let def = f.block(Block::new(0)).insts[1];
        let never = |_: Reg| false;
        assert_eq!(
            remat_source(bpf(), &f, &an.intervals, &vrm, phi, VReg(2), &never),
            Some(def)
        );
        // Not a piece of anything: a merge has no single definition.
        let alone = VirtRegMap::new(3);
        assert_eq!(
            remat_source(bpf(), &f, &an.intervals, &alone, phi, VReg(2), &never),
            None
        );
    }
}
