//! Redundant spill elimination: a store to a spill slot that already holds the value it writes is dropped (LLVM's `eliminateRedundantSpills`, done over the whole CFG once allocation is over).
//!
//! Every spilled piece of one original register shares the original's
//! slot, and every store or reload names the original's value number it
//! carries ([`super::spiller::Insertion::value`]). A forward dataflow per
//! slot then knows which value the slot holds at each point: a store or a
//! reload of value `X` leaves `X` there (a reload proves the slot holds
//! it); a definition of the original's value `X` by an instruction makes a
//! slot holding the old `X` stale; where paths disagree nothing is known.
//! At a phi-def `X` of a block, the slot holds `X` when on every incoming
//! edge it holds the value the original has at the end of that
//! predecessor (the value the phi takes along that edge); otherwise the
//! phi makes an old `X` stale. A store of `X` where the slot already holds
//! `X` on every path is redundant. This is what split ranges need: a value
//! reloaded into a register for a hot region and copied back to the stack
//! side afterwards is stored again by the copy's spill, though the slot
//! never lost it.
//!
//! When the removed store was fed by a COPY that the spiller had turned
//! into a reload (a copy between two spilled pieces), or was itself such a
//! COPY turned into a store fed by a reload, the feeding instruction goes
//! too: it only moved the value from the slot back into it. That holds
//! only while the register it loads has no other reader: a store hoisted
//! to a block's end ([`super::hoist_spills`]) stores a register piece that
//! lives on, and the split copy reloading that piece just before it must
//! stay when the store goes.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::analysis::{Analyses, Cfg, SlotIndex};
use crate::ir::{Block, IndexVec, Inst, MachineFunction, Operand, RegRef, VReg};

use super::spiller::{SpillCode, SpillKind};

/// What the slot state sees at one instruction, in execution order.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Event {
    /// The slot is known to hold the value: a reload (before the
    /// instruction, or the instruction itself, a COPY turned into a
    /// reload), or an instruction that reads or writes it through a folded
    /// memory operand.
    Load { slot: u32, value: u32 },
    /// The original register gets a new value `value` here.
    Kill { slot: u32, value: u32 },
    /// A store of the value: insertion `insertion`, or (`None`) the folded
    /// COPY `inst` itself.
    Store {
        slot: u32,
        value: u32,
        inst: Inst,
        insertion: Option<usize>,
    },
}

/// The lattice of one slot's contents at a point: not reached yet, one
/// value, or unknown.
const TOP: u32 = u32::MAX;
const UNKNOWN: u32 = u32::MAX - 1;

fn meet(a: u32, b: u32) -> u32 {
    match (a, b) {
        (TOP, x) | (x, TOP) => x,
        (x, y) if x == y => x,
        _ => UNKNOWN,
    }
}

/// The events of a function's blocks, as collected.
struct Events {
    /// Phi values of originals at block starts: (slot, value).
    phis: HashMap<Block, Vec<(u32, u32)>>,
    /// At each instruction, in execution order.
    at_inst: HashMap<Inst, Vec<Event>>,
}

/// The events of [`Events`] laid out by block for the dataflow, which
/// runs every block several times: no hash lookup per instruction and
/// round.
struct BlockEvents {
    /// Phi values at each block's start: (state column, value).
    phis: IndexVec<Block, Vec<(u32, u32)>>,
    /// Every block's events in execution order, block after block.
    events: Vec<Event>,
    /// `starts[b]..starts[b + 1]` are block `b`'s part of `events`.
    starts: Vec<usize>,
}

impl BlockEvents {
    /// Lays out `events` by the blocks of `func`.
    fn new(func: &MachineFunction, events: Events) -> BlockEvents {
        let nb = func.blocks.len();
        let mut phis = IndexVec::from_elem(Vec::new(), nb);
        for (b, list) in events.phis {
            if let Some(x) = phis.get_mut(b) {
                *x = list;
            }
        }
        let mut all = Vec::new();
        let mut starts = Vec::with_capacity(nb + 1);
        starts.push(0);
        for bd in &func.blocks {
            all.extend(
                bd.insts
                    .iter()
                    .filter_map(|i| events.at_inst.get(i))
                    .flatten(),
            );
            starts.push(all.len());
        }
        BlockEvents {
            phis,
            events: all,
            starts,
        }
    }

    /// Runs block `b` from `state` (its entry state, phis applied),
    /// calling `store` with each store and whether the slot already held
    /// its value.
    fn run(&self, b: Block, state: &mut [u32], mut store: impl FnMut(Event, bool)) {
        let insts = &self.events[self.starts[b.index()]..self.starts[b.index() + 1]];
        for &e in insts {
            match e {
                Event::Load { slot, value } => state[slot as usize] = value,
                Event::Kill { slot, value } => {
                    if state[slot as usize] == value {
                        state[slot as usize] = UNKNOWN;
                    }
                }
                Event::Store { slot, value, .. } => {
                    store(e, state[slot as usize] == value);
                    state[slot as usize] = value;
                }
            }
        }
    }
}

/// Removes the redundant stores from `code` (and the instructions that
/// only fed them); returns how many stores went.
pub fn eliminate(code: &mut SpillCode, func: &MachineFunction, an: &Analyses) -> usize {
    let nslots = code.slots.len();
    if nslots == 0 {
        return 0;
    }
    // A slot is tracked when all its original's value definitions can be
    // placed and every store and reload names its value.
    let mut usable = vec![true; nslots];
    let mut has_store = vec![false; nslots];
    let mut events = Events {
        phis: HashMap::default(),
        at_inst: HashMap::default(),
    };
    // Phase order at one instruction: reloads before it, folded reloads,
    // the instruction's new values, folded stores, stores after it.
    let mut phased: Vec<(u8, Inst, Event)> = Vec::new();
    value_definitions(code, an, &mut usable, &mut events, &mut phased);
    spill_code_events(code, &mut usable, &mut has_store, &mut phased);
    let tracked: Vec<bool> = (0..nslots).map(|s| usable[s] && has_store[s]).collect();
    let mut redundant = if tracked.iter().any(|&t| t) {
        redundant_stores(func, an, code, events, phased, &tracked)
    } else {
        Vec::new()
    };
    add_unread_stores(code, &mut redundant);
    remove(code, func, &redundant);
    redundant.len()
}

/// The events of the originals' value definitions: a phi value at its
/// block's start, a new value at its defining instruction. A slot with a
/// definition that cannot be placed is not `usable`.
fn value_definitions(
    code: &SpillCode,
    an: &Analyses,
    usable: &mut [bool],
    events: &mut Events,
    phased: &mut Vec<(u8, Inst, Event)>,
) {
    let slots = &an.intervals.slots;
    for (s, slot) in code.slots.iter().enumerate() {
        for (value, vn) in slot.range.valnos.iter().enumerate() {
            let ev = Event::Kill {
                slot: s as u32,
                value: value as u32,
            };
            if vn.is_phi() {
                match slots.block_of(vn.def) {
                    Some(b) => events
                        .phis
                        .entry(b)
                        .or_default()
                        .push((s as u32, value as u32)),
                    None => usable[s] = false,
                }
            } else {
                match slots.inst_at(vn.def) {
                    Some(i) => phased.push((2, i, ev)),
                    None => usable[s] = false,
                }
            }
        }
    }
}

/// The events of the spill code: stores (marking their slot in
/// `has_store`) and loads, each with its phase at its instruction. A slot
/// with an access whose value is unknown is not `usable`.
fn spill_code_events(
    code: &SpillCode,
    usable: &mut [bool],
    has_store: &mut [bool],
    phased: &mut Vec<(u8, Inst, Event)>,
) {
    for (inst, kind, value, insertion, phase) in spill_code_sites(code) {
        let (slot, is_store) = match kind {
            SpillKind::Spill { slot } => (slot, true),
            SpillKind::Reload { slot } => (slot, false),
            SpillKind::Remat { .. } => continue,
        };
        let Some(value) = value else {
            usable[slot as usize] = false;
            continue;
        };
        let ev = if is_store {
            has_store[slot as usize] = true;
            Event::Store {
                slot,
                value,
                inst,
                insertion,
            }
        } else {
            Event::Load { slot, value }
        };
        phased.push((phase, inst, ev));
    }
}

/// Every spill code access: (instruction, kind, value, insertion, phase),
/// inserted ones, then folded copies, then folded memory operands.
fn spill_code_sites(
    code: &SpillCode,
) -> impl Iterator<Item = (Inst, SpillKind, Option<u32>, Option<usize>, u8)> + '_ {
    code.insertions
        .iter()
        .enumerate()
        .map(|(k, x)| (x.at, x.kind, x.value, Some(k), if x.after { 4 } else { 0 }))
        .chain(code.folded.iter().map(|f| {
            (
                f.inst,
                f.kind,
                f.value,
                None,
                match f.kind {
                    SpillKind::Spill { .. } => 3,
                    _ => 1,
                },
            )
        }))
        .chain(code.memory_folds.iter().flat_map(|f| {
            // A folded access is not removable: it reads the value (before
            // the instruction's new values) or leaves the one it wrote
            // (after them), like a reload would.
            let reload = SpillKind::Reload { slot: f.slot };
            let read = f.read.map(|value| (f.inst, reload, value, None, 1));
            let written = f.written.map(|value| (f.inst, reload, value, None, 3));
            read.into_iter().chain(written)
        }))
}

/// Adds to `redundant` the stores nothing reads that it does not list yet.
fn add_unread_stores(code: &SpillCode, redundant: &mut Vec<Event>) {
    let site = |e: &Event| match *e {
        Event::Store {
            inst, insertion, ..
        } => Some((inst, insertion)),
        _ => None,
    };
    let seen: HashSet<_> = redundant.iter().filter_map(site).collect();
    let unread = unread_stores(code);
    redundant.extend(
        unread
            .into_iter()
            .filter(|e| site(e).is_none_or(|s| !seen.contains(&s))),
    );
}

/// The stores the dataflow proves redundant, in the tracked slots.
fn redundant_stores(
    func: &MachineFunction,
    an: &Analyses,
    code: &SpillCode,
    events: Events,
    phased: Vec<(u8, Inst, Event)>,
    tracked: &[bool],
) -> Vec<Event> {
    // The dataflow's state has one column per tracked slot only: most
    // slots of a big function have no store or cannot be tracked, and
    // every block's state is copied and met in every round. Events and
    // phis name columns from here on (the events reported keep what
    // `remove` needs: the instruction and the insertion).
    let (column, slot_of) = columns(tracked);
    let events = BlockEvents::new(func, by_column(events, phased, &column));
    let flow = Flow {
        an,
        code,
        events: &events,
        slot_of: &slot_of,
        width: slot_of.len(),
    };
    flow.redundant_stores(func)
}

/// The state column of each tracked slot (`u32::MAX` for the others), and
/// the slot of each column.
fn columns(tracked: &[bool]) -> (Vec<u32>, Vec<u32>) {
    let mut column = vec![u32::MAX; tracked.len()];
    let mut slot_of: Vec<u32> = Vec::new();
    for (s, _) in tracked.iter().enumerate().filter(|x| *x.1) {
        column[s] = slot_of.len() as u32;
        slot_of.push(s as u32);
    }
    (column, slot_of)
}

/// `events` with the `phased` events added in phase order at their
/// instructions, every event of a tracked slot naming its column, the
/// others dropped.
fn by_column(mut events: Events, mut phased: Vec<(u8, Inst, Event)>, column: &[u32]) -> Events {
    // Stable: events of one phase keep their creation order.
    phased.sort_by_key(|x| x.0);
    for (_, i, mut e) in phased {
        let (Event::Load { slot, .. } | Event::Kill { slot, .. } | Event::Store { slot, .. }) =
            &mut e;
        let c = column[*slot as usize];
        if c != u32::MAX {
            *slot = c;
            events.at_inst.entry(i).or_default().push(e);
        }
    }
    events.phis.retain(|_, phis| {
        phis.retain_mut(|(slot, _)| {
            let c = column[*slot as usize];
            *slot = c;
            c != u32::MAX
        });
        !phis.is_empty()
    });
    events
}

/// Every store to a slot nothing reads (all uses of its values were
/// recomputed): dead, whatever it holds.
fn unread_stores(code: &SpillCode) -> Vec<Event> {
    let mut read = vec![false; code.slots.len()];
    let reloads = code
        .insertions
        .iter()
        .map(|x| x.kind)
        .chain(code.folded.iter().map(|f| f.kind));
    for kind in reloads {
        if let SpillKind::Reload { slot } = kind {
            read[slot as usize] = true;
        }
    }
    for f in &code.memory_folds {
        // A folded write leaves the slot holding something another
        // instruction may read; only a slot with no access but stores is
        // dead.
        read[f.slot as usize] = true;
    }
    let store = |slot: u32, inst: Inst, insertion: Option<usize>| {
        (!read[slot as usize]).then_some(Event::Store {
            slot,
            value: 0,
            inst,
            insertion,
        })
    };
    let placed = code
        .insertions
        .iter()
        .enumerate()
        .filter_map(|(k, x)| match x.kind {
            SpillKind::Spill { slot } => store(slot, x.at, Some(k)),
            _ => None,
        });
    let folded = code.folded.iter().filter_map(|f| match f.kind {
        SpillKind::Spill { slot } => store(slot, f.inst, None),
        _ => None,
    });
    placed.chain(folded).collect()
}

/// Removes the stores `redundant` from `code`, and the instructions that
/// only fed them.
fn remove(code: &mut SpillCode, func: &MachineFunction, redundant: &[Event]) {
    let folded_at: HashMap<Inst, usize> = code
        .folded
        .iter()
        .enumerate()
        .map(|(k, f)| (f.inst, k))
        .collect();
    let mut reloads_before: HashMap<Inst, Vec<usize>> = HashMap::default();
    for (k, ins) in code.insertions.iter().enumerate() {
        if !ins.after && matches!(ins.kind, SpillKind::Reload { .. }) {
            reloads_before.entry(ins.at).or_default().push(k);
        }
    }
    let mut removed: HashSet<Inst> = code.removed.iter().copied().collect();
    let mut removed_insertion = vec![false; code.insertions.len()];
    // Instructions that load a register for a removed store alone, if
    // nothing else reads that register: the register, the loading
    // instruction, and the store.
    let mut feeders: Vec<(VReg, Site, Site)> = Vec::new();
    for &e in redundant {
        let Event::Store {
            inst, insertion, ..
        } = e
        else {
            continue;
        };
        let folded = folded_at.get(&inst).map(|&k| &code.folded[k]);
        let fed = folded.and_then(|f| operand_vreg(func, inst, f.operand));
        match insertion {
            Some(k) => {
                removed_insertion[k] = true;
                // A COPY between two spilled pieces, turned into a reload,
                // only moved the value out of the slot for this store.
                if folded.is_some_and(|f| matches!(f.kind, SpillKind::Reload { .. }))
                    && let Some(v) = fed
                    && v == code.insertions[k].vreg
                {
                    feeders.push((v, Site::Inst(inst), Site::Insertion(k)));
                }
            }
            None => {
                // A COPY turned into this store goes, with the reload that
                // fed it.
                if removed.insert(inst) {
                    code.removed.push(inst);
                }
                for &k in reloads_before.get(&inst).into_iter().flatten() {
                    let v = code.insertions[k].vreg;
                    if Some(v) == fed {
                        feeders.push((v, Site::Insertion(k), Site::Inst(inst)));
                    }
                }
            }
        }
    }
    if feeders.is_empty() {
        return retain_insertions(code, &removed_insertion);
    }
    let mentions = Mentions::new(code, func, &removed, feeders.iter().map(|x| x.0));
    for (v, feeder, store) in feeders {
        if !mentions.only_at(v, feeder, store) {
            // The loaded register lives on (a register piece whose store
            // was hoisted here): its load stays.
            continue;
        }
        match feeder {
            Site::Inst(i) => {
                if removed.insert(i) {
                    code.removed.push(i);
                }
            }
            Site::Insertion(k) => removed_insertion[k] = true,
        }
    }
    retain_insertions(code, &removed_insertion);
}

/// Drops the insertions `gone` marks.
fn retain_insertions(code: &mut SpillCode, gone: &[bool]) {
    let mut k = 0;
    code.insertions.retain(|_| {
        let keep = !gone[k];
        k += 1;
        keep
    });
}

/// An instruction of the function (an original, possibly a folded COPY)
/// or an insertion of the spill code (by index).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Site {
    Inst(Inst),
    Insertion(usize),
}

/// Where some virtual registers are named: by the function's instructions
/// not removed and by the spill code's insertions.
struct Mentions {
    at: HashMap<VReg, Vec<Site>>,
}

impl Mentions {
    /// The sites naming each of `vregs`.
    fn new(
        code: &SpillCode,
        func: &MachineFunction,
        removed: &HashSet<Inst>,
        vregs: impl Iterator<Item = VReg>,
    ) -> Mentions {
        let mut at: HashMap<VReg, Vec<Site>> = vregs.map(|v| (v, Vec::new())).collect();
        let mut note = |v: VReg, site: Site| {
            if let Some(sites) = at.get_mut(&v)
                && !sites.contains(&site)
            {
                sites.push(site);
            }
        };
        for bd in &func.blocks {
            for &i in bd.insts.iter().filter(|i| !removed.contains(i)) {
                for v in virtual_operands(&func.inst(i).operands) {
                    note(v, Site::Inst(i));
                }
            }
        }
        for (k, x) in code.insertions.iter().enumerate() {
            note(x.vreg, Site::Insertion(k));
            for v in virtual_operands(&x.inst.operands) {
                note(v, Site::Insertion(k));
            }
        }
        Mentions { at }
    }

    /// Whether `v` is named at `a` and `b` and nowhere else.
    fn only_at(&self, v: VReg, a: Site, b: Site) -> bool {
        self.at
            .get(&v)
            .is_some_and(|sites| sites.iter().all(|&s| s == a || s == b))
    }
}

/// Passes over the function before the dataflow settles gives up.
const MAX_ROUNDS: usize = 64;

/// What the block entry states are computed from.
struct Flow<'a> {
    an: &'a Analyses,
    code: &'a SpillCode,
    events: &'a BlockEvents,
    /// The slot of each state column.
    slot_of: &'a [u32],
    /// Columns per block in the exit states.
    width: usize,
}

impl Flow<'_> {
    /// Forward dataflow, all tracked slots at once, optimistic: the state
    /// at each block exit (`width` entries per block), `TOP` until the
    /// block is first run. Sweeps in reverse post-order run only the
    /// blocks a predecessor's exit state changed for since they last ran;
    /// each block keeps the redundant stores of its last run, which ran on
    /// the fixed point once nothing is left to run. The stores found, in
    /// reverse post-order; none when the flow does not settle.
    fn redundant_stores(&self, func: &MachineFunction) -> Vec<Event> {
        let cfg = &self.an.flow.cfg;
        let width = self.width;
        let mut out: Vec<u32> = vec![TOP; width * func.blocks.len()];
        let mut state = vec![UNKNOWN; width];
        let mut found: IndexVec<Block, Vec<Event>> =
            IndexVec::from_elem(Vec::new(), func.blocks.len());
        let mut queued = vec![true; cfg.rpo.len()];
        let mut pending = true;
        let mut sweeps = 0;
        while pending {
            pending = false;
            sweeps += 1;
            if sweeps > MAX_ROUNDS {
                // Not settled (the phi rule is not monotone in general): no
                // store is provably redundant.
                return Vec::new();
            }
            for (k, &b) in cfg.rpo.iter().enumerate() {
                if !std::mem::take(&mut queued[k]) {
                    continue;
                }
                self.run_block(b, &out, &mut state, &mut found[b]);
                let exit = &mut out[b.index() * width..(b.index() + 1) * width];
                if *exit != *state {
                    exit.copy_from_slice(&state);
                    pending |= queue_successors(cfg, b, k, &mut queued);
                }
            }
        }
        cfg.rpo
            .iter()
            .flat_map(|&b| std::mem::take(&mut found[b]))
            .collect()
    }

    /// Runs block `b` from its entry state (from the exit states `out`),
    /// leaving its exit state in `state` and its redundant stores in
    /// `found`.
    fn run_block(&self, b: Block, out: &[u32], state: &mut [u32], found: &mut Vec<Event>) {
        self.enter(b, out, state);
        found.clear();
        self.events.run(b, state, |e, r| {
            if r {
                found.push(e);
            }
        });
    }

    /// Sets `state` to block `b`'s entry state from its predecessors'
    /// exit states `out`: their meet, then the block's phi-defs.
    fn enter(&self, b: Block, out: &[u32], state: &mut [u32]) {
        let cfg = &self.an.flow.cfg;
        let w = self.width;
        let exit = |p: Block| &out[p.index() * w..(p.index() + 1) * w];
        let preds = || {
            cfg.preds[b.index()]
                .iter()
                .copied()
                .filter(|&p| cfg.is_reachable(p))
        };
        if cfg.rpo.first() == Some(&b) {
            state.fill(UNKNOWN);
        } else {
            state.fill(TOP);
            for p in preds() {
                for (s, &x) in state.iter_mut().zip(exit(p)) {
                    *s = meet(*s, x);
                }
            }
        }
        for &(column, value) in &self.events.phis[b] {
            let c = column as usize;
            let range = &self.code.slots[self.slot_of[c] as usize].range;
            let slots = &self.an.intervals.slots;
            // Along each edge the slot must hold what the original holds
            // at the predecessor's end, the phi's incoming value.
            let agrees = |p: Block| {
                let held = exit(p)[c];
                let incoming = range
                    .segment_at(SlotIndex(slots.block_end(p).0 - 1))
                    .map(|seg| seg.valno);
                held == TOP || Some(held) == incoming
            };
            // Some predecessor was run, and every one agrees.
            if preds().any(|p| exit(p)[c] != TOP) && preds().all(agrees) {
                state[c] = value;
            } else if state[c] == value {
                state[c] = UNKNOWN;
            }
        }
        for s in state.iter_mut() {
            if *s == TOP {
                *s = UNKNOWN;
            }
        }
    }
}

/// Queues block `b`'s successors (`b` is at `k` in reverse post-order)
/// to run again; whether one of them comes at or before `k`, in the next
/// sweep (a loop header), rather than later in this one.
fn queue_successors(cfg: &Cfg, b: Block, k: usize, queued: &mut [bool]) -> bool {
    let mut again = false;
    for s in &cfg.succs[b.index()] {
        if let Some(j) = cfg.rpo_index[s.index()] {
            let j = j as usize;
            queued[j] = true;
            again |= j <= k;
        }
    }
    again
}

/// The virtual registers `operands` name.
fn virtual_operands(operands: &[Operand]) -> impl Iterator<Item = VReg> + '_ {
    operands.iter().filter_map(|o| match o {
        Operand::Reg(r) => match r.reg {
            RegRef::Virt(v) => Some(v),
            _ => None,
        },
        _ => None,
    })
}

/// The virtual register of operand `k` of `i`.
fn operand_vreg(func: &MachineFunction, i: Inst, k: usize) -> Option<VReg> {
    match func.inst(i).operands.get(k) {
        Some(Operand::Reg(r)) => match r.reg {
            RegRef::Virt(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Also the spill-code fixtures of [`crate::alloc::hoist_spills`]'s tests.
    use super::*;
    use crate::alloc::spiller::{FoldedCopy, Insertion, SpillSlot};
    use crate::ir::InstData;
    use crate::target::fixtures::bpf;

    use crate::target::fixtures::read_bpf_function as read;

    /// `%0` is defined once in bb.0; bb.1 and bb.2 are the two arms of a
    /// diamond, bb.3 the join.
    const DIAMOND: &str = "---
name: diamond
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1, %bb.2
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = LDD %1, 0
    JEQ_ri %1, 0, %bb.2
    JMP %bb.1
  bb.1:
    successors: %bb.3
    $r2 = COPY %0
    JMP %bb.3
  bb.2:
    successors: %bb.3
    $r3 = COPY %0
    JMP %bb.3
  bb.3:
    $r0 = COPY %0
    RET implicit $r0
...
";

    /// The instructions of block `b`.
    pub(crate) fn insts(f: &MachineFunction, b: usize) -> Vec<Inst> {
        f.block(Block::new(b)).insts.clone()
    }

    /// Spill code for `%0` of `f` in one slot: a store after each of
    /// `stores`, a reload before each of `reloads`, all of value 0.
    pub(crate) fn code(
        f: &MachineFunction,
        an: &Analyses,
        stores: &[Inst],
        reloads: &[Inst],
    ) -> SpillCode {
        let range = an.intervals.vreg(VReg(0)).unwrap().range.clone();
        let mut code = SpillCode::default();
        code.slots.push(SpillSlot {
            vreg: VReg(0),
            size: 8,
            align: 8,
            stack_id: "default".into(),
            range,
            weight: 1.0,
        });
        let mut add = |at: Inst, after: bool| {
            code.insertions.push(Insertion {
                at,
                after,
                inst: InstData::new(f.inst(at).op),
                vreg: VReg(0),
                kind: if after {
                    SpillKind::Spill { slot: 0 }
                } else {
                    SpillKind::Reload { slot: 0 }
                },
                value: Some(0),
            })
        };
        for &i in stores {
            add(i, true);
        }
        for &i in reloads {
            add(i, false);
        }
        code
    }

    fn kept_stores(code: &SpillCode) -> Vec<Inst> {
        code.insertions
            .iter()
            .filter(|x| matches!(x.kind, SpillKind::Spill { .. }))
            .map(|x| x.at)
            .collect()
    }

    /// Adds a reload of `value` before `at` (the slot's later reader, so
    /// that its stores are not dead).
    pub(crate) fn read_before(c: &mut SpillCode, f: &MachineFunction, at: Inst, value: u32) {
        c.insertions.push(Insertion {
            at,
            after: false,
            inst: InstData::new(f.inst(at).op),
            vreg: VReg(0),
            kind: SpillKind::Reload { slot: 0 },
            value: Some(value),
        });
    }

    #[test]
    fn stores_to_a_slot_nothing_reads_are_dead() {
        let f = read(DIAMOND);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let (arm1, join) = (insts(&f, 1)[0], insts(&f, 3)[0]);
        let mut c = code(&f, &an, &[arm1, join], &[]);
        assert_eq!(eliminate(&mut c, &f, &an), 2);
        assert_eq!(kept_stores(&c), vec![]);
    }

    #[test]
    fn store_after_a_reload_of_the_same_value_is_dropped() {
        let f = read(DIAMOND);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let (def, use1) = (insts(&f, 0)[1], insts(&f, 1)[0]);
        // Stored at the definition, reloaded in bb.1 and stored again there:
        // the second store writes what the slot holds.
        let mut c = code(&f, &an, &[def, use1], &[use1]);
        assert_eq!(eliminate(&mut c, &f, &an), 1);
        assert_eq!(kept_stores(&c), vec![def]);
    }

    #[test]
    fn store_at_a_join_needs_the_value_on_every_path() {
        let f = read(DIAMOND);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let (arm1, arm2, join) = (insts(&f, 1)[0], insts(&f, 2)[0], insts(&f, 3)[0]);
        let ret = insts(&f, 3)[1];
        // Only bb.1 stored: the join's store is needed on the bb.2 path.
        let mut c = code(&f, &an, &[arm1, join], &[]);
        read_before(&mut c, &f, ret, 0);
        assert_eq!(eliminate(&mut c, &f, &an), 0);
        assert_eq!(kept_stores(&c), vec![arm1, join]);
        // Both arms stored: the join's store is redundant.
        let mut c = code(&f, &an, &[arm1, arm2, join], &[]);
        read_before(&mut c, &f, ret, 0);
        assert_eq!(eliminate(&mut c, &f, &an), 1);
        assert_eq!(kept_stores(&c), vec![arm1, arm2]);
    }

    /// `%0` is redefined on every trip round the loop (bb.1).
    const LOOP: &str = "---
name: loop
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = LDD %1, 0
    JMP %bb.1
  bb.1:
    successors: %bb.1, %bb.2
    $r2 = COPY %0
    %0:gpr = ADD_ri %0, 1
    $r3 = COPY %0
    JNE_ri %0, 0, %bb.1
    JMP %bb.2
  bb.2:
    $r0 = COPY %0
    RET implicit $r0
...
";

    /// `%0` gets a value in each arm of a diamond; bb.3 merges them (a
    /// phi-def).
    const MERGE: &str = "---
name: merge
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1, %bb.2
    liveins: $r1
    %1:gpr = COPY $r1
    JEQ_ri %1, 0, %bb.2
    JMP %bb.1
  bb.1:
    successors: %bb.3
    %0:gpr = LDD %1, 0
    JMP %bb.3
  bb.2:
    successors: %bb.3
    %0:gpr = LDD %1, 8
    JMP %bb.3
  bb.3:
    $r0 = COPY %0
    RET implicit $r0
...
";

    #[test]
    fn a_phi_keeps_a_slot_that_holds_every_incoming_value() {
        let f = read(MERGE);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let range = an.intervals.vreg(VReg(0)).unwrap().range.clone();
        assert!(range.valnos.iter().any(|vn| vn.is_phi()));
        let slots = &an.intervals.slots;
        let value_at = |i: Inst, slot: crate::analysis::Slot| {
            range
                .segment_at(slots.inst(i).unwrap().with(slot))
                .unwrap()
                .valno
        };
        let (def1, def2, join) = (insts(&f, 1)[0], insts(&f, 2)[0], insts(&f, 3)[0]);
        let with_values = |stores: &[Inst]| {
            let mut c = code(&f, &an, stores, &[]);
            for ins in &mut c.insertions {
                let slot = if ins.at == join {
                    crate::analysis::Slot::Block
                } else {
                    crate::analysis::Slot::Register
                };
                ins.value = Some(value_at(ins.at, slot));
            }
            c
        };
        let (ret, merged) = (
            insts(&f, 3)[1],
            value_at(join, crate::analysis::Slot::Block),
        );
        // Both arms stored their value: the slot holds the merged value
        // at the join, whose store is redundant.
        let mut c = with_values(&[def1, def2, join]);
        assert_ne!(c.insertions[2].value, c.insertions[0].value);
        read_before(&mut c, &f, ret, merged);
        assert_eq!(eliminate(&mut c, &f, &an), 1);
        assert_eq!(kept_stores(&c), vec![def1, def2]);
        // One arm did not: the join's store is needed.
        let mut c = with_values(&[def1, join]);
        read_before(&mut c, &f, ret, merged);
        assert_eq!(eliminate(&mut c, &f, &an), 0);
        assert_eq!(kept_stores(&c), vec![def1, join]);
    }

    #[test]
    fn a_new_value_of_the_original_makes_the_slot_stale() {
        let f = read(LOOP);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let range = &an.intervals.vreg(VReg(0)).unwrap().range;
        let b1 = insts(&f, 1);
        let (head, add, after) = (b1[0], b1[1], b1[2]);
        // The value after the ADD, stored right after it and again one
        // instruction later (redundant); the store at the loop head is of
        // the phi value, which the back edge does not bring.
        let slots = &an.intervals.slots;
        let value_at = |i: Inst| {
            range
                .segment_at(slots.inst(i).unwrap().with(crate::analysis::Slot::Register))
                .unwrap()
                .valno
        };
        // Read after the loop, of the value the loop leaves.
        let exit = insts(&f, 2)[0];
        let left = range
            .segment_at(slots.inst(exit).unwrap().with(crate::analysis::Slot::Block))
            .unwrap()
            .valno;
        let mut c = code(&f, &an, &[head, add, after], &[]);
        for ins in &mut c.insertions {
            ins.value = Some(value_at(ins.at));
        }
        read_before(&mut c, &f, exit, left);
        assert_ne!(value_at(head), value_at(add));
        assert_eq!(eliminate(&mut c, &f, &an), 1);
        assert_eq!(kept_stores(&c), vec![head, add]);
        // Without the head's store the back edge brings the slot holding
        // the ADD's value of the last trip: the ADD makes it stale, so its
        // store stays.
        let mut c = code(&f, &an, &[add, after], &[]);
        for ins in &mut c.insertions {
            ins.value = Some(value_at(ins.at));
        }
        read_before(&mut c, &f, exit, left);
        assert_eq!(eliminate(&mut c, &f, &an), 1);
        assert_eq!(kept_stores(&c), vec![add]);
    }

    /// `%0` is loaded, then `%2` takes its value by a COPY (which the
    /// spiller turns into a reload of `%0`'s slot); `READER` marks where
    /// `%2` may be read again.
    const FEEDER: &str = "---
name: feeder
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = LDD %1, 0
    %2:gpr = COPY %0
    READER
    $r3 = COPY %0
    RET implicit $r0
...
";

    #[test]
    fn a_reload_feeding_a_redundant_store_goes_only_if_nothing_else_reads_it() {
        for read_later in [false, true] {
            let reader = if read_later {
                "$r0 = COPY %2"
            } else {
                "$r0 = MOV_ri 0"
            };
            let f = read(&FEEDER.replace("READER", reader));
            let an = crate::analysis::Analyses::new(bpf(), &f);
            let b0 = insts(&f, 0);
            let (def, copy) = (b0[1], b0[2]);
            // %0 stored after its definition; the COPY into %2 reloads the
            // slot and a store of %2 follows it (the slot already holds
            // that value either way).
            let mut c = code(&f, &an, &[def], &[]);
            c.folded.push(FoldedCopy {
                inst: copy,
                kind: SpillKind::Reload { slot: 0 },
                operand: 0,
                value: Some(0),
            });
            c.insertions.push(Insertion {
                at: copy,
                after: true,
                inst: InstData::new(f.inst(copy).op),
                vreg: VReg(2),
                kind: SpillKind::Spill { slot: 0 },
                value: Some(0),
            });
            assert_eq!(eliminate(&mut c, &f, &an), 1, "read later: {read_later}");
            assert_eq!(kept_stores(&c), vec![def], "read later: {read_later}");
            // The reload only fed the store unless %2 is read after it.
            assert_eq!(
                c.removed.contains(&copy),
                !read_later,
                "read later: {read_later}"
            );
        }
    }
}
