//! The checker's walk: the dataflow fixpoint over blocks and the transfer of every instruction, original, inserted or removed.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::ir::{Block, Inst, MachineFunction, RegFlags, RegOperand, RegRef, VReg};
use crate::record::{AllocRecord, Edit};
use crate::target::{Reg, TargetInfo};

use super::classes::Homes;
use super::error::{CheckError, CheckErrorKind};
use super::reserved::reserved_registers;
use super::state::{State, Values};

use CheckErrorKind as K;

mod constants;
mod copies;
mod edits;
mod regs;
mod report;
mod transfer;

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
    /// The registers that may hold each class's values (the checker's own
    /// reading, `classes.rs`).
    homes: Homes,
    /// By register: reserved in this function (the checker's own reading,
    /// `reserved.rs`).
    reserved: Vec<bool>,
    /// The units of constant registers (`constants.rs`).
    constant_units: Vec<crate::target::RegUnit>,
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
            .filter(|o| {
                o.kind == crate::ir::StackObjectKind::SpillSlot && !orig_ids.contains(&o.id)
            })
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
            homes: Homes::new(t),
            reserved: reserved_registers(t, orig),
            constant_units: constants::constant_units(t),
        }
    }

    /// Runs the fixpoint, then the reporting pass.
    pub fn run(mut self) -> Result<(), Vec<CheckError>> {
        if !self.structure_matches() {
            return Err(self.errors);
        }
        let n = self.alloc.blocks.len();
        let succs = super::jump_tables::dataflow_successors(self.t, self.orig, self.alloc);
        let (rpo, reachable) = reverse_post_order(&succs);
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
            for s in &succs[b.index()] {
                let si = s.index();
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

    /// Blocks and edges must be the original's; each block must hold the
    /// original instructions in the original order (removed ones at their
    /// anchors). Returns false when the functions cannot be compared at all.
    fn structure_matches(&mut self) -> bool {
        self.report = true;
        if !self.same_block_count() {
            return false;
        }
        // Tables that differ are reported; the walk can still compare the
        // rest.
        let tables = super::jump_tables::compare(self.orig, self.alloc);
        self.errors.extend(tables);
        let successors_ok = self.successors_match();
        if !(self.removed_are_original() && successors_ok) {
            return false;
        }
        let mut placed: HashSet<Inst> = HashSet::new();
        for b in self.alloc.block_ids() {
            let items = self.items(b);
            self.check_original_order(b, &items);
            self.check_each_once(b, &items, &mut placed);
        }
        self.report = false;
        true
    }

    /// Whether both functions have as many blocks (reported when not).
    fn same_block_count(&mut self) -> bool {
        if self.orig.blocks.len() == self.alloc.blocks.len() {
            return true;
        }
        let e = CheckError::new(
            K::Structure,
            &self.orig.name,
            format!("{} blocks", self.orig.blocks.len()),
            format!("{}", self.alloc.blocks.len()),
        );
        self.errors.push(e);
        false
    }

    /// Whether every block has its original successors and only
    /// instructions that exist (reported per block when not).
    fn successors_match(&mut self) -> bool {
        let ninsts = self.alloc.insts.len();
        let mut ok = true;
        for b in self.alloc.block_ids() {
            let (ob, ab) = (self.orig.block(b), self.alloc.block(b));
            let targets =
                |d: &crate::ir::BlockData| d.succs.iter().map(|s| s.block).collect::<Vec<_>>();
            if targets(ob) != targets(ab) || ab.insts.iter().any(|i| i.index() >= ninsts) {
                let mut e = CheckError::new(
                    K::Structure,
                    &self.orig.name,
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
        ok
    }

    /// Whether every removed instruction the record lists is an original
    /// one of an existing block (reported per entry when not).
    fn removed_are_original(&mut self) -> bool {
        let ninsts = self.alloc.insts.len();
        let mut ok = true;
        for r in &self.rec.removed {
            if !self.rec.is_original(r.inst)
                || r.block.index() >= self.alloc.blocks.len()
                || r.inst.index() >= ninsts
            {
                let mut e = CheckError::new(
                    K::Structure,
                    &self.orig.name,
                    "removed instructions to be original ones of an existing block",
                    format!("instruction {} in bb.{}", r.inst.index(), r.block.index()),
                );
                e.block = Some(r.block).filter(|b| b.index() < self.alloc.blocks.len());
                self.errors.push(e);
                ok = false;
            }
        }
        ok
    }

    /// Block `b`'s original instructions, kept or removed (`items`), stand
    /// in their original order (the first difference reported).
    fn check_original_order(&mut self, b: Block, items: &[(usize, Inst, bool)]) {
        let seq: Vec<Inst> = items
            .iter()
            .map(|&(_, i, _)| i)
            .filter(|&i| self.rec.is_original(i))
            .collect();
        let want = &self.orig.block(b).insts;
        if &seq == want {
            return;
        }
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
            &self.orig.name,
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

    /// Each of block `b`'s `items` appears once in the function (`placed`
    /// holds those seen in earlier blocks).
    fn check_each_once(
        &mut self,
        b: Block,
        items: &[(usize, Inst, bool)],
        placed: &mut HashSet<Inst>,
    ) {
        for &(_, i, _) in items {
            if !placed.insert(i) {
                let mut e = CheckError::new(
                    K::Structure,
                    &self.orig.name,
                    "each instruction once",
                    format!("instruction {} twice", i.index()),
                );
                e.block = Some(b);
                e.inst = Some(i);
                self.errors.push(e);
            }
        }
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
}

/// Blocks in reverse post-order from the entry over the successor lists
/// `succs` (in range), and which are reachable.
fn reverse_post_order(succs: &[Vec<Block>]) -> (Vec<Block>, Vec<bool>) {
    let n = succs.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    if n == 0 {
        return (post, seen);
    }
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(s) = succs[b].get(*next) {
            *next += 1;
            let s = s.index();
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
