//! The split kit: carries out a live-range split of one virtual register, inserting the copies, rewriting the operands, and computing the new intervals.
//!
//! A split is described block by block ([`SplitPlan`]): which new interval
//! holds the value on entry to the block, and at which points inside the
//! block another interval takes over ([`Gap`]: before or after an
//! instruction, or before the block's first terminator, LLVM's "last split
//! point"; a switch placed at or after the first terminator happens right
//! before it). Blocks without a plan keep the plan's default interval
//! throughout. Because edge bundles give every edge of a bundle the same
//! interval, a plan never needs copies on edges: a value that changes
//! interval between blocks does so inside one of them.
//!
//! Carrying out the plan ([`SplitKit::apply`]) replaces the register by one
//! new register per interval (same class, same original in the
//! [`VirtRegMap`]):
//!
//! - at every switch point where the value is live, a `COPY` from the
//!   previous interval's register to the next one's is inserted into the
//!   block and given a slot index of its own between its neighbours
//!   ([`SlotIndexes::index_between`]), so no existing index moves;
//! - every operand of the register is renamed to the interval covering its
//!   instruction (a read-modify-write instruction stays in two-address form:
//!   both operands are renamed alike);
//! - each new register's interval is computed from its accesses
//!   ([`LiveIntervals::compute_vreg`](crate::analysis::LiveIntervals::compute_vreg), phi values included); an interval
//!   whose values fall into pieces that never meet ([`super::components`])
//!   gets one register per piece, as LLVM's `SplitEditor` does, so that a
//!   cold piece and a hot one are weighed, allocated and spilled apart;
//!   each register is then weighed like any other interval.
//!
//! The split either happens completely or not at all: room for every copy
//! is checked before anything changes, and [`SplitKit::apply`] returns
//! `None` when a gap between two instructions has no index left.
//!
//! Copies are ordinary instructions of the function from then on: the
//! spiller may fold them into a spill or a reload, and the rewriter records
//! the ones left as [`crate::record::Edit::Copy`] (or removes them when both
//! sides got the same register).

use std::collections::BTreeMap;

use crate::analysis::ranges::RangeBuilder;
use crate::analysis::weights::{reads_writes, vreg_weight};
use crate::analysis::{Analyses, LiveInterval, LiveRange, Slot, SlotIndex, SlotIndexes};
use crate::ir::{
    Block, Generic, IndexVec, Inst, InstData, MachineFunction, Op, Operand, RegOperand, RegRef,
    VReg,
};
use crate::target::{RegClass, TargetInfo};

use super::super::inflate::{constrained_class, largest_legal_super_class};
use super::super::virtmap::VirtRegMap;
use super::components::Components;

/// A point inside a block where a new interval may take over.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Gap {
    /// Right after the block's start, before its first instruction.
    Start,
    /// Right before instruction `I` of the block.
    Before(Inst),
    /// Right after instruction `I` of the block.
    After(Inst),
    /// Right before the block's first terminator (its end when it has none):
    /// the last point where a value leaving the block can still be copied.
    End,
}

/// What happens to the value in one block.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BlockPlan {
    /// The interval holding the value on entry (and until the first switch).
    pub entry: u32,
    /// Points where another interval takes over, in program order.
    pub switches: Vec<(Gap, u32)>,
}

impl BlockPlan {
    /// A block entirely in interval `k`.
    pub fn whole(k: u32) -> BlockPlan {
        BlockPlan {
            entry: k,
            switches: Vec::new(),
        }
    }
}

/// A split of one virtual register into intervals `0..intervals`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SplitPlan {
    /// How many intervals the register is split into.
    pub intervals: u32,
    /// The interval of blocks that have no plan.
    pub default: u32,
    /// Per block, what happens to the value there.
    pub blocks: BTreeMap<Block, BlockPlan>,
    /// Define this interval once, by a copy right after the register's only
    /// definition, instead of by a copy at every switch into it (LLVM's
    /// hoisting of back-copies in its `SM_Speed` mode): the interval then
    /// overlaps the others, but when it is spilled its one store sits at
    /// the definition, not at every place the value leaves a register.
    /// Ignored unless the register has exactly one value, defined by an
    /// instruction that is not a terminator.
    pub hoist: Option<u32>,
    /// Where the hoisted copy goes: `None` right after the definition,
    /// `Some(b)` before the first terminator of block `b`, which must be
    /// dominated by the definition, dominate every switch into the hoisted
    /// interval and hold none of them (the value is then live out of `b`).
    pub hoist_at: Option<Block>,
}

/// The result of a split.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SplitResult {
    /// The new registers: first one per interval of the plan, in interval
    /// order (`None` for an interval that ended up with no instruction: it
    /// held no part of the value), then one per further connected piece of
    /// an interval (see [`super::components`]).
    pub regs: Vec<Option<VReg>>,
    /// The plan's interval each of `regs` belongs to.
    pub interval: Vec<u32>,
    /// How many copies were inserted.
    pub copies: usize,
    /// The instructions touching each of `regs`, in layout order (empty
    /// for an interval without a register).
    pub users: Vec<Vec<Inst>>,
}

/// Per-function state of the split kit.
#[derive(Clone, Debug, Default)]
pub struct SplitKit {
    /// Every copy the kit inserted, in insertion order.
    pub copies: Vec<Inst>,
    /// Scratch for computing the new intervals, kept across splits so
    /// that a split costs time in the size of the range, not the function.
    ranges: RangeBuilder,
    /// Per instruction, the split that last listed it among the users of
    /// the register being split (the value of `split`): walking a block
    /// then costs a lookup per instruction instead of a pass over its
    /// operands.
    user_mark: IndexVec<Inst, u32>,
    /// Splits so far, numbering `user_mark`.
    split: u32,
    /// Per block, the split that last listed it among the blocks it
    /// walks and its place in that list: the edge check looks up every
    /// successor of every block of the range.
    block_at: IndexVec<Block, (u32, u32)>,
    /// Per block, the split that last had a user in it: a block without
    /// one that stays in one interval needs no walk.
    user_block: IndexVec<Block, u32>,
}

/// One copy to insert: in `block`, before position `pos` of the block's
/// current instruction list, from interval `from` to interval `to`.
struct PlannedCopy {
    block: Block,
    pos: usize,
    from: u32,
    to: u32,
}

impl SplitKit {
    /// A kit with nothing inserted yet.
    pub fn new() -> SplitKit {
        SplitKit::default()
    }

    /// Splits `v`, touched by the instructions `users`, by `plan`; see the
    /// module documentation. `None` (and nothing changed) when a copy finds
    /// no room in its gap. The new registers have their intervals in `an`,
    /// weights and copy hints included; `v`'s interval is removed.
    // The function, its analyses and its assignment are separate values of
    // the allocator's state.
    #[allow(clippy::too_many_arguments)]
    pub fn apply(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        an: &mut Analyses,
        vrm: &mut VirtRegMap,
        v: VReg,
        users: &[Inst],
        plan: &SplitPlan,
    ) -> Option<SplitResult> {
        let iv = an.intervals.vreg(v)?.clone();
        let class = func.vreg_class(v);
        // The range's blocks, and those of reads outside it (`undef` ones).
        let mut blocks = live_blocks(an, &iv.range, func);
        let subject = self.mark_users(func, an, v, &iv.range, users, &mut blocks);

        // 1. Walk each block: where copies go, and which interval each
        // instruction's operands of `v` belong to (with the block and
        // position of the instruction, which give the new registers'
        // users in layout order once the copies are in).
        let mut walk = self.walk_blocks(t, func, an, &subject, plan, &blocks);
        hoist_to_dominating_block(t, func, &iv.range, plan, &blocks, &mut walk);
        hoist_after_definition(t, func, an, &iv.range, plan, &mut walk);
        if !self.edges_agree(func, an, &subject, &blocks, &walk) {
            return None;
        }

        // 2. Room for every copy, simulated gap by gap before anything
        // changes.
        if !room_for(an, func, &walk.copies) {
            tracing::debug!(vreg = v.0, "split refused: no room");
            return None;
        }

        // 3. New registers, one per interval used.
        let origin = Origin { v, class };
        let regs = new_registers(func, vrm, origin, &walk.used);

        // 4. Rename operands.
        for &(i, k) in &walk.renames {
            rename(func.inst_mut(i), v, interval_reg(&regs, k));
        }

        // 5. Insert copies, and give them slot indexes.
        let (inserted, copy_id) = insert_copies(func, &walk.copies, &regs);
        self.index_copies(func, an, &inserted);

        // 6. Intervals and weights of the new registers.
        retire_interval(func, an, vrm, v, &iv.range);
        let new = NewRegs {
            interval: (0..regs.len() as u32).collect(),
            users: users_by_interval(&walk, &copy_id, regs.len()),
            regs,
        };
        let new = self.compute_intervals(t, func, an, vrm, origin, new);
        widen_classes(t, func, class, &new);
        Some(SplitResult {
            regs: new.regs,
            interval: new.interval,
            copies: walk.copies.len(),
            users: new
                .users
                .into_iter()
                .map(|u| u.into_iter().map(|x| x.0).collect())
                .collect(),
        })
    }

    /// Numbers this split and marks its users, per instruction in
    /// `user_mark` and per block in `user_block`; adds the users' blocks
    /// to `blocks`, which ends sorted and without repeats.
    fn mark_users<'r>(
        &mut self,
        func: &MachineFunction,
        an: &Analyses,
        v: VReg,
        range: &'r LiveRange,
        users: &[Inst],
        blocks: &mut Vec<Block>,
    ) -> Subject<'r> {
        let slots = &an.intervals.slots;
        self.split += 1;
        let mark = self.split;
        if self.user_block.len() < func.blocks.len() {
            self.user_block.resize(func.blocks.len(), 0);
        }
        // Whether every user's block is known (and marked in `user_block`).
        let mut users_placed = true;
        for &i in users {
            match slots.inst(i).and_then(|at| slots.block_of(at)) {
                Some(b) => {
                    blocks.push(b);
                    self.user_block[b] = mark;
                }
                None => users_placed = false,
            }
        }
        blocks.sort();
        blocks.dedup();

        // The users are every instruction with an operand of `v` (the
        // spiller's list, complete for every register that can be split):
        // a mark per instruction stands for the test of its operands.
        if self.user_mark.len() < func.insts.len() {
            self.user_mark.resize(func.insts.len(), 0);
        }
        for &i in users {
            self.user_mark[i] = mark;
        }
        Subject {
            v,
            range,
            mark,
            users_placed,
        }
    }

    /// Whether instruction `i` is a user of the register being split.
    fn is_user(&self, func: &MachineFunction, s: &Subject<'_>, i: Inst) -> bool {
        self.user_mark.get(i) == Some(&s.mark) && touches(func.inst(i), s.v)
    }

    /// Step 1: walks `blocks` with their plans, collecting the copies and
    /// renames and each block's entry and exit interval.
    fn walk_blocks(
        &self,
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        an: &Analyses,
        s: &Subject<'_>,
        plan: &SplitPlan,
        blocks: &[Block],
    ) -> Walk {
        let mut walk = Walk {
            copies: Vec::new(),
            renames: Vec::new(),
            rename_at: Vec::new(),
            used: vec![false; plan.intervals as usize],
            entries: Vec::with_capacity(blocks.len()),
            exits: Vec::with_capacity(blocks.len()),
        };
        let default_plan = BlockPlan::whole(plan.default);
        // `blocks` and the plan are both sorted: walk them together.
        let mut planned = plan.blocks.iter().peekable();
        for &b in blocks {
            while planned.next_if(|x| *x.0 < b).is_some() {}
            let bp = planned
                .next_if(|x| *x.0 == b)
                .map_or(&default_plan, |(_, bp)| bp);
            walk.entries.push(bp.entry);
            let exit = if bp.switches.is_empty() {
                self.walk_one_interval(func, s, b, bp.entry, &mut walk)
            } else {
                self.walk_switches(t, func, an, s, b, bp, &mut walk)
            };
            walk.exits.push(exit);
        }
        walk
    }

    /// Walks block `b`, held by interval `k` throughout: only the users
    /// matter, and a block without one has nothing to rename (debug builds
    /// walk it anyway, to check that no user is missing). Returns `k`.
    fn walk_one_interval(
        &self,
        func: &MachineFunction,
        s: &Subject<'_>,
        b: Block,
        k: u32,
        walk: &mut Walk,
    ) -> u32 {
        if s.users_placed && self.user_block[b] != s.mark && !cfg!(debug_assertions) {
            return k;
        }
        for (pos, &i) in func.block(b).insts.iter().enumerate() {
            if self.is_user(func, s, i) {
                walk.rename(i, k, b, pos);
            }
            debug_assert!(
                self.user_mark.get(i) == Some(&s.mark) || !touches(func.inst(i), s.v),
                "a user of %{} is missing from its list",
                s.v.0
            );
        }
        k
    }

    /// Walks block `b`, where the plan `bp` switches intervals: a copy at
    /// every switch where the value is live, each user renamed to the
    /// interval current at it. Returns the interval on exit.
    // The walk's inputs are separate values of the split.
    #[allow(clippy::too_many_arguments)]
    fn walk_switches(
        &self,
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        an: &Analyses,
        s: &Subject<'_>,
        b: Block,
        bp: &BlockPlan,
        walk: &mut Walk,
    ) -> u32 {
        let insts = &func.block(b).insts;
        let at_pos = switch_positions(t, func, b, bp);
        let mut cur = bp.entry;
        let mut sw = 0;
        for pos in 0..=insts.len() {
            while sw < at_pos.len() && at_pos[sw].0 == pos {
                let k = at_pos[sw].1;
                if k != cur && live_at_gap(an, s.range, func, b, pos) {
                    walk.used[cur as usize] = true;
                    walk.used[k as usize] = true;
                    walk.copies.push(PlannedCopy {
                        block: b,
                        pos,
                        from: cur,
                        to: k,
                    });
                }
                cur = k;
                sw += 1;
            }
            if let Some(&i) = insts.get(pos)
                && self.is_user(func, s, i)
            {
                walk.rename(i, cur, b, pos);
            }
            debug_assert!(insts.get(pos).is_none_or(|&i| {
                self.user_mark.get(i) == Some(&s.mark) || !touches(func.inst(i), s.v)
            }));
        }
        cur
    }

    /// Whether every edge the value crosses leaves and enters in the same
    /// interval (plans built on edge bundles always do).
    fn edges_agree(
        &mut self,
        func: &MachineFunction,
        an: &Analyses,
        s: &Subject<'_>,
        blocks: &[Block],
        walk: &Walk,
    ) -> bool {
        if self.block_at.len() < func.blocks.len() {
            self.block_at.resize(func.blocks.len(), (0, 0));
        }
        for (k, &b) in blocks.iter().enumerate() {
            self.block_at[b] = (s.mark, k as u32);
        }
        for (&b, &exit) in blocks.iter().zip(&walk.exits) {
            for succ in &func.block(b).succs {
                if let Some(&(m, k)) = self.block_at.get(succ.block)
                    && m == s.mark
                    && walk.entries[k as usize] != exit
                    && s.range.live_at(an.intervals.slots.block_start(succ.block))
                {
                    tracing::debug!(
                        vreg = s.v.0,
                        from = b.index(),
                        to = succ.block.index(),
                        "split refused: edge disagrees"
                    );
                    return false;
                }
            }
        }
        true
    }

    /// Gives the inserted copies slot indexes in layout order, each copy
    /// after the one before it, as `room_for` counted, and lists them in
    /// `copies`.
    fn index_copies(
        &mut self,
        func: &MachineFunction,
        an: &mut Analyses,
        inserted: &[(Block, Inst)],
    ) {
        let first_new = inserted.iter().map(|x| x.1.index()).min().unwrap_or(0);
        let mut blocks_with_copies: Vec<Block> = inserted.iter().map(|x| x.0).collect();
        blocks_with_copies.dedup();
        let mut run: Vec<(u32, Inst)> = Vec::with_capacity(inserted.len());
        for b in blocks_with_copies {
            let insts = &func.block(b).insts;
            let slots = &mut an.intervals.slots;
            let mut prev = slots.block_start(b);
            for (pos, &id) in insts.iter().enumerate() {
                if id.index() < first_new {
                    if let Some(at) = slots.inst(id) {
                        prev = at;
                    }
                    continue;
                }
                let next = insts[pos + 1..]
                    .iter()
                    .find_map(|&x| slots.inst(x))
                    .unwrap_or_else(|| slots.block_end(b));
                let at = slots.index_between(prev, next, id, &mut run);
                debug_assert!(at.is_some(), "room was checked");
                if let Some(at) = at {
                    prev = at;
                }
                self.copies.push(id);
            }
        }
        an.intervals.slots.insert_indexed(&mut run);
    }

    /// Computes the interval and weight of each new register from its
    /// users; an interval in pieces that never meet gets a register per
    /// further piece, listed after the plan's intervals.
    fn compute_intervals(
        &mut self,
        t: &TargetInfo<'_>,
        func: &mut MachineFunction,
        an: &mut Analyses,
        vrm: &mut VirtRegMap,
        origin: Origin,
        mut new: NewRegs,
    ) -> NewRegs {
        // Further pieces of an interval: their register, interval, users.
        let mut extra: Vec<Piece> = Vec::new();
        for k in 0..new.regs.len() {
            let Some(n) = new.regs[k] else {
                continue;
            };
            let mut mine = std::mem::take(&mut new.users[k]);
            let Some(niv) =
                an.intervals
                    .compute_vreg_from(t, func, &an.flow.cfg, n, &mine, &mut self.ranges)
            else {
                new.regs[k] = None;
                continue;
            };
            let pieces = Components::of(&niv.range, &an.intervals.slots, &an.flow.cfg);
            if pieces.count > 1 && !niv.has_sub_operands {
                let by_piece = users_by_piece(func, &an.intervals.slots, n, &niv, &pieces, mine);
                let further;
                (mine, further) = rename_further_pieces(func, vrm, origin, n, by_piece);
                extra.extend(further.into_iter().map(|(m, users)| (m, k as u32, users)));
                self.store_interval(t, func, an, n, &mine);
            } else {
                an.intervals.set_vreg(n, niv);
                weigh(t, func, an, n, &mine);
            }
            new.users[k] = mine;
        }
        for (m, k, piece_users) in extra {
            let stored = self.store_interval(t, func, an, m, &piece_users);
            new.regs.push(stored.then_some(m));
            new.interval.push(k);
            new.users.push(piece_users);
        }
        new
    }

    /// Computes, stores and weighs the interval of new register `n` from
    /// its users; `false` when it has none.
    fn store_interval(
        &mut self,
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        an: &mut Analyses,
        n: VReg,
        users: &[(Inst, Block)],
    ) -> bool {
        let len = func.vregs.len();
        if an.intervals.vregs.len() < len {
            an.intervals.vregs.resize(len, None);
        }
        if an.hints.len() < len {
            an.hints.resize(len, Vec::new());
        }
        let Some(niv) =
            an.intervals
                .compute_vreg_from(t, func, &an.flow.cfg, n, users, &mut self.ranges)
        else {
            return false;
        };
        an.intervals.set_vreg(n, niv);
        weigh(t, func, an, n, users);
        true
    }
}

/// The register being split, with the marks of this split's users.
struct Subject<'r> {
    v: VReg,
    /// Its live range before the split.
    range: &'r LiveRange,
    /// This split's number in `user_mark`, `user_block` and `block_at`.
    mark: u32,
    /// Whether every user's block is known (and marked in `user_block`).
    users_placed: bool,
}

/// The register being split as the new registers inherit it: their
/// original and their class.
#[derive(Copy, Clone)]
struct Origin {
    v: VReg,
    class: Option<RegClass>,
}

/// What walking the split's blocks found (step 1).
struct Walk {
    /// The copies to insert.
    copies: Vec<PlannedCopy>,
    /// Each user with the interval its operands of the register go to.
    renames: Vec<(Inst, u32)>,
    /// Where each of `renames` stands: its block and position.
    rename_at: Vec<(Block, usize)>,
    /// Per interval, whether any instruction or copy uses it.
    used: Vec<bool>,
    /// The interval on entry to each of the split's blocks.
    entries: Vec<u32>,
    /// The interval on exit from each of the split's blocks.
    exits: Vec<u32>,
}

impl Walk {
    /// Records that user `i`, at position `pos` of block `b`, goes to
    /// interval `k`.
    fn rename(&mut self, i: Inst, k: u32, b: Block, pos: usize) {
        self.used[k as usize] = true;
        self.renames.push((i, k));
        self.rename_at.push((b, pos));
    }
}

/// The new registers, as [`SplitResult`] lists them, with their users and
/// blocks.
struct NewRegs {
    regs: Vec<Option<VReg>>,
    interval: Vec<u32>,
    users: Vec<Vec<(Inst, Block)>>,
}

/// The positions in block `b`'s instruction list of the plan's switches,
/// in order (switches at one point keep theirs), with the interval each
/// switches to.
fn switch_positions(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    b: Block,
    bp: &BlockPlan,
) -> Vec<(usize, u32)> {
    let insts = &func.block(b).insts;
    let end_pos = first_terminator(t, func, b);
    let mut at_pos: Vec<(usize, u32)> = bp
        .switches
        .iter()
        .filter_map(|&(g, k)| {
            let pos = match g {
                Gap::Start => 0,
                Gap::End => end_pos,
                Gap::Before(i) => insts.iter().position(|&x| x == i)?,
                Gap::After(i) => insts.iter().position(|&x| x == i)? + 1,
            };
            // Nothing goes after the first terminator: a switch
            // there happens right before it.
            Some((pos.min(end_pos), k))
        })
        .collect();
    // Stable: switches at one point keep their order.
    at_pos.sort_by_key(|x| x.0);
    at_pos
}

/// The position of block `b`'s first terminator (its length when it has
/// none).
fn first_terminator(t: &TargetInfo<'_>, func: &MachineFunction, b: Block) -> usize {
    let insts = &func.block(b).insts;
    insts
        .iter()
        .position(|&i| func.inst(i).op.is_terminator(t))
        .unwrap_or(insts.len())
}

/// Back-copies into the hoisted interval become one copy at the end of a
/// block that dominates them all.
fn hoist_to_dominating_block(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    range: &LiveRange,
    plan: &SplitPlan,
    blocks: &[Block],
    walk: &mut Walk,
) {
    if let Some(k) = plan.hoist
        && let Some(h) = plan.hoist_at
        && range.valnos.len() == 1
        && walk.copies.iter().any(|c| c.to == k)
        && walk.copies.iter().all(|c| c.to != k || c.block != h)
        && let Ok(hk) = blocks.binary_search(&h)
        && walk.exits[hk] != k
    {
        let end_pos = first_terminator(t, func, h);
        walk.copies.retain(|c| c.to != k);
        walk.copies.push(PlannedCopy {
            block: h,
            pos: end_pos,
            from: walk.exits[hk],
            to: k,
        });
    }
}

/// Or back-copies into the hoisted interval become one copy after the
/// only definition, which dominates every point of the range.
fn hoist_after_definition(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    range: &LiveRange,
    plan: &SplitPlan,
    walk: &mut Walk,
) {
    if let Some(k) = plan.hoist
        && plan.hoist_at.is_none()
        && range.valnos.len() == 1
        && !range.valnos[0].is_phi()
        && walk.copies.iter().any(|c| c.to == k)
        && let Some(def) = an.intervals.slots.inst_at(range.valnos[0].def)
        && !func.inst(def).op.is_terminator(t)
        && let Some(&(_, def_k)) = walk.renames.iter().find(|r| r.0 == def)
        && def_k != k
        && let Some(b) = an.intervals.slots.block_of(range.valnos[0].def)
        && let Some(pos) = func.block(b).insts.iter().position(|&x| x == def)
    {
        walk.copies.retain(|c| c.to != k);
        walk.copies.push(PlannedCopy {
            block: b,
            pos: pos + 1,
            from: def_k,
            to: k,
        });
    }
}

/// Step 3: a new register per interval used (`None` for the others).
fn new_registers(
    func: &mut MachineFunction,
    vrm: &mut VirtRegMap,
    origin: Origin,
    used: &[bool],
) -> Vec<Option<VReg>> {
    used.iter()
        .map(|&u| {
            u.then(|| {
                let n = func.new_vreg(origin.class);
                vrm.set_original(n, origin.v);
                n
            })
        })
        .collect()
}

/// The register of interval `k`, which is used.
fn interval_reg(regs: &[Option<VReg>], k: u32) -> VReg {
    regs[k as usize].expect("a used interval has a register")
}

/// Step 5: inserts the copies, last position first within each block so
/// that earlier positions stay valid. Returns each inserted copy with its
/// block, in insertion order, and each planned copy's instruction.
fn insert_copies(
    func: &mut MachineFunction,
    copies: &[PlannedCopy],
    regs: &[Option<VReg>],
) -> (Vec<(Block, Inst)>, Vec<Inst>) {
    let mut order: Vec<usize> = (0..copies.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&copies[a], &copies[b]);
        x.block
            .cmp(&y.block)
            .then(y.pos.cmp(&x.pos))
            .then(b.cmp(&a))
    });
    // Copies at one position are inserted in reverse, each before the
    // ones already there, so they end up in plan order; their indexes
    // are assigned afterwards in list order.
    let mut inserted: Vec<(Block, Inst)> = Vec::with_capacity(copies.len());
    let mut copy_id: Vec<Inst> = vec![Inst::new(0); copies.len()];
    for k in order {
        let c = &copies[k];
        let mut data = InstData::new(Op::Generic(Generic::Copy));
        data.operands
            .push(Operand::Reg(RegOperand::def_of(interval_reg(regs, c.to))));
        data.operands
            .push(Operand::Reg(RegOperand::use_of(interval_reg(regs, c.from))));
        let id = Inst::new(func.insts.len());
        func.insts.push(data);
        func.blocks[c.block.index()].insts.insert(c.pos, id);
        inserted.push((c.block, id));
        copy_id[k] = id;
    }
    (inserted, copy_id)
}

/// Removes the split register's interval (keeping an original's range
/// for its split products) and makes room for the new registers in the
/// per-register tables.
fn retire_interval(
    func: &MachineFunction,
    an: &mut Analyses,
    vrm: &VirtRegMap,
    v: VReg,
    range: &LiveRange,
) {
    if vrm.original(v) == v {
        an.intervals.keep_original(v, range);
    }
    an.intervals.vregs[v.index()] = None;
    let n_vregs = func.vregs.len();
    if an.intervals.vregs.len() < n_vregs {
        an.intervals.vregs.resize(n_vregs, None);
    }
    if an.hints.len() < n_vregs {
        an.hints.resize(n_vregs, Vec::new());
    }
}

/// The instructions touching each interval's register: the renamed ones
/// and the copies, in layout order (the copies at a position come before
/// the instruction that was there, in plan order).
fn users_by_interval(walk: &Walk, copy_id: &[Inst], intervals: usize) -> Vec<Vec<(Inst, Block)>> {
    let mut events: Vec<(Block, usize, u32, usize)> =
        Vec::with_capacity(walk.renames.len() + walk.copies.len());
    events.extend(
        walk.rename_at
            .iter()
            .enumerate()
            .map(|(k, &(b, pos))| (b, pos, 1, k)),
    );
    events.extend(
        walk.copies
            .iter()
            .enumerate()
            .map(|(k, c)| (c.block, c.pos, 0, k)),
    );
    if !events.is_sorted() {
        events.sort_unstable();
    }
    let mut users: Vec<Vec<(Inst, Block)>> = vec![Vec::new(); intervals];
    for &(b, _, kind, k) in &events {
        if kind == 1 {
            let (i, r) = walk.renames[k];
            users[r as usize].push((i, b));
        } else {
            // The copy's operands: the definition, then the use.
            let c = &walk.copies[k];
            users[c.to as usize].push((copy_id[k], b));
            users[c.from as usize].push((copy_id[k], b));
        }
    }
    users
}

/// The users of new register `n` grouped by the connected piece of its
/// interval `niv` they touch.
fn users_by_piece(
    func: &MachineFunction,
    slots: &SlotIndexes,
    n: VReg,
    niv: &LiveInterval,
    pieces: &Components,
    mine: Vec<(Inst, Block)>,
) -> Vec<Vec<(Inst, Block)>> {
    let mut by_piece: Vec<Vec<(Inst, Block)>> = vec![Vec::new(); pieces.count as usize];
    for (i, b) in mine {
        let piece = slots
            .inst(i)
            .and_then(|at| pieces.class_at(&niv.range, at, reads_writes(func.inst(i), n).1))
            .unwrap_or(0);
        by_piece[piece as usize].push((i, b));
    }
    by_piece
}

/// Renames each further piece of `n` (every one after the first, which
/// keeps `n`) to a register of its own. Returns the first piece's users
/// and each further piece's register and users.
fn rename_further_pieces(
    func: &mut MachineFunction,
    vrm: &mut VirtRegMap,
    origin: Origin,
    n: VReg,
    by_piece: Vec<Vec<(Inst, Block)>>,
) -> (Users, Vec<(VReg, Users)>) {
    let mut rest = by_piece.into_iter();
    let first = rest.next().unwrap_or_default();
    let mut further = Vec::new();
    for piece_users in rest {
        if piece_users.is_empty() {
            continue;
        }
        let m = func.new_vreg(origin.class);
        vrm.set_original(m, origin.v);
        for &(i, _) in &piece_users {
            rename(func.inst_mut(i), n, m);
        }
        further.push((m, piece_users));
    }
    (first, further)
}

/// Gives each new register the largest class its own instructions accept
/// (LLVM's `LiveRangeEdit::calculateRegClassAndHint`).
fn widen_classes(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    class: Option<RegClass>,
    new: &NewRegs,
) {
    let Some(c) = class else { return };
    let wide = largest_legal_super_class(t, c);
    if wide == c {
        return;
    }
    for (r, users) in new.regs.iter().zip(&new.users) {
        let Some(n) = *r else { continue };
        let insts: Vec<Inst> = users.iter().map(|x| x.0).collect();
        if let Some(k) = constrained_class(t, func, n, &insts, wide) {
            func.vregs[n.index()].class = Some(k);
        }
    }
}

/// Sets the spill weight and copy hints of `n`, whose interval is stored.
fn weigh(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &mut Analyses,
    n: VReg,
    users: &[(Inst, Block)],
) {
    if let Some((w, hints)) = vreg_weight(t, func, &an.flow, &an.intervals, n, users) {
        if let Some(Some(x)) = an.intervals.vregs.get_mut(n.index()) {
            x.weight = w;
        }
        an.hints[n.index()] = hints;
    }
}

/// The instructions using a register, each with its block.
type Users = Vec<(Inst, Block)>;

/// A further connected piece of a split interval: its register, the
/// interval, and the instructions using it with their blocks.
type Piece = (VReg, u32, Users);

/// Renames every operand of `from` in `inst` to `to`, dropping kill and
/// dead flags (the rewriter recomputes them).
fn rename(inst: &mut InstData, from: VReg, to: VReg) {
    for o in &mut inst.operands {
        if let Operand::Reg(r) = o
            && r.reg == RegRef::Virt(from)
        {
            r.reg = RegRef::Virt(to);
            r.flags.set(crate::ir::RegFlags::KILLED, false);
            r.flags.set(crate::ir::RegFlags::DEAD, false);
        }
    }
}

/// Whether `inst` has an operand of `v`.
pub fn touches(inst: &InstData, v: VReg) -> bool {
    inst.operands
        .iter()
        .any(|o| matches!(o, Operand::Reg(r) if r.reg == RegRef::Virt(v)))
}

/// The blocks `range` covers, sorted (a dead definition covers its own
/// instruction; an `undef` read may lie outside).
pub fn live_blocks(
    an: &Analyses,
    range: &crate::analysis::LiveRange,
    func: &MachineFunction,
) -> Vec<Block> {
    let slots = &an.intervals.slots;
    let mut out: Vec<Block> = Vec::with_capacity(range.segments.len());
    // The segments are sorted and disjoint, so their blocks come in order:
    // a block shared with the segment before is the last one listed.
    for s in &range.segments {
        let Some(first) = slots.block_of(s.start) else {
            continue;
        };
        let mut b = first.index();
        if out.last() == Some(&first) {
            b += 1;
        }
        while b < func.blocks.len() && slots.block_start(Block::new(b)) < s.end {
            out.push(Block::new(b));
            b += 1;
        }
    }
    debug_assert!(out.windows(2).all(|w| w[0] < w[1]));
    out
}

/// Whether the value is live at the gap before position `pos` of block
/// `b`'s instruction list (its end when `pos` is past the last).
fn live_at_gap(
    an: &Analyses,
    range: &crate::analysis::LiveRange,
    func: &MachineFunction,
    b: Block,
    pos: usize,
) -> bool {
    let slots = &an.intervals.slots;
    let insts = &func.block(b).insts;
    match insts[pos.min(insts.len())..]
        .iter()
        .find_map(|&i| slots.inst(i))
    {
        Some(at) => range.live_at(at.with(Slot::Block)),
        None => {
            let end = slots.block_end(b);
            range.live_at(SlotIndex(end.0 - 1))
        }
    }
}

/// Whether every planned copy finds an index: copies in one gap take
/// indexes one after another in layout order (by
/// [`crate::analysis::slots::insertion_base`]), so each gap is simulated
/// with its count.
fn room_for(an: &Analyses, func: &MachineFunction, copies: &[PlannedCopy]) -> bool {
    use crate::analysis::slots::insertion_base;
    let slots = &an.intervals.slots;
    let mut per_gap: BTreeMap<(Block, usize), usize> = BTreeMap::new();
    for c in copies {
        *per_gap.entry((c.block, c.pos)).or_default() += 1;
    }
    for (&(b, pos), &count) in &per_gap {
        let insts = &func.block(b).insts;
        let prev = insts[..pos]
            .iter()
            .rev()
            .find_map(|&x| slots.inst(x))
            .unwrap_or_else(|| slots.block_start(b))
            .base();
        let next = insts[pos..]
            .iter()
            .find_map(|&x| slots.inst(x))
            .unwrap_or_else(|| slots.block_end(b))
            .base();
        // The copies are given indexes first to last, each after the one
        // before it.
        let mut lo = prev;
        for _ in 0..count {
            match insertion_base(lo, next) {
                Some(base) => lo = base,
                None => {
                    tracing::debug!(block = b.index(), pos, count, prev, next, "no room in gap");
                    return false;
                }
            }
        }
    }
    true
}
