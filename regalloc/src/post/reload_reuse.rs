//! Reload reuse: a reload of a spill slot whose content another register still holds on every path becomes a copy from that register, or goes away when the reloaded register itself still holds it (not in LLVM, whose spiller reloads at every use and whose later passes do not look into spill slots).
//!
//! Split ranges leave the same value in several registers and in its
//! slot: a value copied into a second register for a loop's body and
//! reloaded into the first at the back edge (its register was reused in
//! between) is still in the second. A forward dataflow over the rewritten
//! function finds, at each point, which registers hold exactly what each
//! spill slot holds:
//!
//! - a reload of slot `S` into `R`, or a store of `R` to `S`, leaves `R`
//!   holding `S` (a store makes every other holder of `S` stale);
//! - a full copy between registers of one class passes the source's slot
//!   on to the destination;
//! - any other write of a register (a definition, a call's clobber, an
//!   access through a folded memory operand of the slot) ends what it held,
//!   and so does a `killed` use (the register is dead to the verifier
//!   after it);
//! - where paths meet, a register holds a slot only if it does on all of
//!   them.
//!
//! The record changes with the code: a reload turned into a copy is
//! recorded as a copy, which the checker follows like any other (the
//! source must hold the value the reload would have read).

use crate::analysis::{Cfg, dataflow};
use crate::ir::{
    Block, Generic, Inst, InstData, MachineFunction, Op, Operand, RegFlags, RegMask, RegOperand,
    RegRef,
};
use crate::record::{AllocRecord, Edit};
use crate::target::{Reg, TargetInfo};

/// Which slot each register holding one holds: a short list sorted by
/// register, as few registers hold a slot's content at one time.
type Holders = Vec<(Reg, u32)>;

/// What one instruction does to the holders, reduced to the registers
/// that can hold a slot (those the spill code and allocation's copies
/// name): the dataflow runs every block several times, and most
/// instructions touch none of them.
#[derive(Clone, Debug)]
enum Event {
    /// An inserted reload of `slot` into `to`.
    Reload { inst: Inst, slot: u32, to: Reg },
    /// An inserted store of `from` to `slot`; `from` holds the slot after
    /// it unless the store kills it.
    Spill { slot: u32, from: Reg, keeps: bool },
    /// An inserted full copy between registers of one class.
    Copy {
        from: Reg,
        to: Reg,
        kills_from: bool,
    },
    /// Whatever `reg` (and registers overlapping it) held is gone.
    KillReg(Reg),
    /// Whatever registers held `slot` no longer matches it.
    KillSlot(u32),
    /// A call's register mask (operand `operand` of `inst`): registers it
    /// does not preserve lose what they held.
    Mask { inst: Inst, operand: usize },
}

/// Rewrites the reloads of `func` that a register can serve; returns how
/// many changed. Block live-ins are left to the caller to recompute.
pub fn reuse_reloads(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    record: &mut AllocRecord,
) -> usize {
    // 1. The registers that can hold a slot, by register unit.
    let Some(holder_unit) = holder_units(t, record) else {
        return 0;
    };
    let relevant = |r: Reg| {
        t.units(r)
            .iter()
            .any(|u| holder_unit.get(u.index()).copied().unwrap_or(false))
    };
    // 2. What each block does to the holders.
    let mut classes = ClassSets::default();
    let cfg = Cfg::new(func);
    let events = Events::new(t, func, record, &cfg, &relevant, &mut classes);
    let overlaps = Overlaps::new(t, &events.list);
    // 3. The holders at each block's end, settled.
    let Some(out) = settle(t, func, &cfg, &events, &overlaps, &mut classes) else {
        // Not settled: change nothing.
        return 0;
    };
    // 4. The reloads a register can serve, from the settled states.
    let mut served: Vec<(Inst, Reg, Reg)> = Vec::new();
    let mut state: Holders = Vec::new();
    for &b in &cfg.rpo {
        entry(&cfg, &out, b, &mut state);
        for e in events.of(b) {
            step(
                t,
                func,
                &overlaps,
                e,
                &mut classes,
                &mut state,
                &mut |i, from| {
                    if let Event::Reload { to, .. } = e {
                        served.push((i, from, *to));
                    }
                },
            );
        }
    }
    // 5. Those reloads become copies, or go.
    serve_reloads(func, record, &served);
    served.len()
}

/// Step 1 of [`reuse_reloads`]: per register unit, whether a register
/// with it can hold a slot (inserted spill code or copies name it);
/// `None` when the record has no reload.
fn holder_units(t: &TargetInfo<'_>, record: &AllocRecord) -> Option<Vec<bool>> {
    let mut holder_unit = vec![false; t.units.len()];
    let mut mark = |r: Reg| {
        for u in t.units(r) {
            if let Some(x) = holder_unit.get_mut(u.index()) {
                *x = true;
            }
        }
    };
    let mut reloads = 0;
    for (&i, e) in &record.edits {
        if record.is_original(i) {
            continue;
        }
        match *e {
            Edit::Reload { to, .. } => {
                reloads += 1;
                mark(to);
            }
            Edit::Spill { from, .. } => mark(from),
            Edit::Copy { from, to } => {
                mark(from);
                mark(to);
            }
            Edit::Remat { .. } => {}
        }
    }
    (reloads > 0).then_some(holder_unit)
}

/// The events of every block, one list for the function.
struct Events {
    list: Vec<Event>,
    /// Those of block `b` are `list[span[b].0..span[b].1]`.
    span: Vec<(usize, usize)>,
}

impl Events {
    /// Step 2 of [`reuse_reloads`]: the events of every block reached
    /// from the entry (in `cfg`'s reverse post-order).
    fn new(
        t: &TargetInfo<'_>,
        func: &MachineFunction,
        record: &AllocRecord,
        cfg: &Cfg,
        relevant: &dyn Fn(Reg) -> bool,
        classes: &mut ClassSets,
    ) -> Events {
        // By instruction: whether the record has an edit (bit 0) or a
        // folded access (bit 1) for it, so that the many instructions with
        // neither cost no map look-up.
        let mut noted = vec![0u8; func.insts.len()];
        for (bit, i) in record
            .edits
            .keys()
            .map(|&i| (1, i))
            .chain(record.memory_folds.keys().map(|&i| (2, i)))
        {
            if let Some(x) = noted.get_mut(i.index()) {
                *x |= bit;
            }
        }
        let mut list: Vec<Event> = Vec::new();
        let mut span = vec![(0usize, 0usize); func.blocks.len()];
        for &b in &cfg.rpo {
            let start = list.len();
            for &i in &func.block(b).insts {
                let noted = noted.get(i.index()).copied().unwrap_or(0);
                block_events(t, func, record, noted, i, relevant, classes, &mut list);
            }
            span[b.index()] = (start, list.len());
        }
        Events { list, span }
    }

    /// The events of block `b`.
    fn of(&self, b: Block) -> &[Event] {
        &self.list[self.span[b.index()].0..self.span[b.index()].1]
    }
}

/// Step 3 of [`reuse_reloads`]: the holders at every block's end, by
/// rounds over the reverse post-order (at most 64); `None` when they do
/// not settle. An exit state is `None` until the block first runs
/// (optimistic: a loop's back edge does not empty the header's state
/// before it is known).
fn settle(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    cfg: &Cfg,
    events: &Events,
    overlaps: &Overlaps,
    classes: &mut ClassSets,
) -> Option<Vec<Option<Holders>>> {
    let mut out: Vec<Option<Holders>> = vec![None; func.blocks.len()];
    // The state along a block, one buffer for every block of every round:
    // an exit state is copied out only where it changed.
    let mut state: Holders = Vec::new();
    dataflow::rounds(&cfg.rpo, 64, |b| {
        entry(cfg, &out, b, &mut state);
        for e in events.of(b) {
            step(t, func, overlaps, e, classes, &mut state, &mut |_, _| {});
        }
        if out[b.index()].as_ref() == Some(&state) {
            return false;
        }
        match &mut out[b.index()] {
            Some(o) => {
                o.clear();
                o.extend_from_slice(&state);
            }
            o => *o = Some(state.clone()),
        }
        true
    })?;
    Some(out)
}

/// Step 5 of [`reuse_reloads`]: each served reload (instruction, holder,
/// reloaded register) becomes a copy from its holder, or goes where the
/// reloaded register holds the slot itself; the record follows.
fn serve_reloads(
    func: &mut MachineFunction,
    record: &mut AllocRecord,
    served: &[(Inst, Reg, Reg)],
) {
    let mut gone = Vec::new();
    for &(i, from, to) in served {
        if from == to {
            record.edits.remove(&i);
            gone.push(i);
        } else {
            let mut copy = InstData::new(Op::Generic(Generic::Copy));
            let mut def = RegOperand::def_of(to);
            def.flags.set(RegFlags::RENAMABLE, true);
            let mut src = RegOperand::use_of(from);
            src.flags.set(RegFlags::RENAMABLE, true);
            copy.operands = vec![Operand::Reg(def), Operand::Reg(src)];
            func.insts[i.index()] = copy;
            record.edits.insert(i, Edit::Copy { from, to });
        }
    }
    if gone.is_empty() {
        return;
    }
    gone.sort_unstable();
    let is_gone = |i: &Inst| gone.binary_search(i).is_ok();
    // Originals taken out before a reload that goes are now before what
    // follows it.
    for r in &mut record.removed {
        let Some(anchor) = r.before.filter(is_gone) else {
            continue;
        };
        let insts = &func.block(r.block).insts;
        r.before = insts
            .iter()
            .position(|&x| x == anchor)
            .and_then(|k| insts[k + 1..].iter().copied().find(|x| !is_gone(x)));
    }
    for bd in &mut func.blocks {
        bd.insts.retain(|i| !is_gone(i));
    }
}

/// Which registers a slot can be held in each register overlaps, as bit
/// sets over those holders: the dataflow ends holders at every kill
/// event of every round, and comparing unit lists there (most of them
/// the same few registers) costs more than one table look-up.
struct Overlaps {
    /// By register: its bit among the holders (0 for other registers).
    bit: Vec<u64>,
    /// By register named by an event that ends holders: the bits of the
    /// holders it overlaps.
    over: Vec<u64>,
    /// Whether the holders fit in the bits; when they do not, registers
    /// are compared unit by unit.
    fits: bool,
}

impl Overlaps {
    /// The overlaps of the registers `events` name.
    fn new(t: &TargetInfo<'_>, events: &[Event]) -> Overlaps {
        // Only reloads, stores and copies make holders.
        let mut holders: Vec<Reg> = events
            .iter()
            .filter_map(|e| match *e {
                Event::Reload { to, .. } => Some(to),
                Event::Spill { from, .. } => Some(from),
                Event::Copy { to, .. } => Some(to),
                _ => None,
            })
            .collect();
        holders.sort_unstable();
        holders.dedup();
        if holders.len() > 64 {
            return Overlaps {
                bit: Vec::new(),
                over: Vec::new(),
                fits: false,
            };
        }
        let nr = t.regs.len();
        let mut bit = vec![0u64; nr];
        for (k, &h) in holders.iter().enumerate() {
            bit[h.index()] = 1 << k;
        }
        let mut over = vec![0u64; nr];
        let mut known = vec![false; nr];
        let mut add = |r: Reg| {
            if !std::mem::replace(&mut known[r.index()], true) {
                over[r.index()] = holders
                    .iter()
                    .enumerate()
                    .filter(|&(_, &h)| t.regs_overlap(h, r))
                    .fold(0, |m, (k, _)| m | 1 << k);
            }
        };
        for e in events {
            match *e {
                Event::Reload { to, .. } => add(to),
                Event::Spill { from, .. } => add(from),
                Event::Copy { from, to, .. } => {
                    add(from);
                    add(to);
                }
                Event::KillReg(r) => add(r),
                Event::KillSlot(_) | Event::Mask { .. } => {}
            }
        }
        Overlaps {
            bit,
            over,
            fits: true,
        }
    }

    /// Drops from `state` every holder overlapping `r` (a register an
    /// event names).
    fn kill(&self, t: &TargetInfo<'_>, state: &mut Holders, r: Reg) {
        if self.fits {
            let m = self.over[r.index()];
            if m != 0 {
                state.retain(|&(q, _)| self.bit[q.index()] & m == 0);
            }
        } else {
            state.retain(|&(q, _)| !t.regs_overlap(q, r));
        }
    }
}

/// Block `b`'s entry state, what all its run predecessors agree on, into
/// `state`.
fn entry(cfg: &Cfg, out: &[Option<Holders>], b: Block, state: &mut Holders) {
    state.clear();
    if cfg.rpo.first() == Some(&b) {
        return;
    }
    let mut first = true;
    for &p in cfg.reachable_preds(b) {
        let Some(o) = &out[p.index()] else { continue };
        if first {
            state.extend_from_slice(o);
            first = false;
        } else {
            state.retain(|x| o.binary_search(x).is_ok());
        }
    }
}

/// The register classes of each register asked about, as a bit set,
/// remembered: two registers of one class have one size, so a COPY
/// between them moves a whole value.
#[derive(Default)]
struct ClassSets {
    sets: rustc_hash::FxHashMap<Reg, Vec<u64>>,
}

impl ClassSets {
    fn of(&mut self, t: &TargetInfo<'_>, r: Reg) -> &[u64] {
        self.sets.entry(r).or_insert_with(|| {
            let mut bits = vec![0u64; t.classes.len().div_ceil(64)];
            for k in 0..t.classes.len() {
                if t.class_contains(crate::target::RegClass::new(k), r) {
                    bits[k / 64] |= 1 << (k % 64);
                }
            }
            bits
        })
    }

    fn same(&mut self, t: &TargetInfo<'_>, a: Reg, b: Reg) -> bool {
        if a == b {
            return true;
        }
        let x = self.of(t, a).to_vec();
        self.of(t, b).iter().zip(&x).any(|(p, q)| p & q != 0)
    }
}

/// Appends what instruction `i` does to the holders to `out`; `noted`
/// says whether the record has an edit (bit 0) or a folded access (bit 1)
/// for it.
// The record's look-up flags come apart from the record so that the
// function asks its maps only about the instructions they hold.
#[allow(clippy::too_many_arguments)]
fn block_events(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    record: &AllocRecord,
    noted: u8,
    i: Inst,
    relevant: &dyn Fn(Reg) -> bool,
    classes: &mut ClassSets,
    out: &mut Vec<Event>,
) {
    // Only inserted spill code and copies make holders. An original
    // instruction folded into a reload or a store (a COPY between a
    // spilled register and another) renames the value it moves, which the
    // checker follows by name: it only ends what registers held.
    let inserted = !record.is_original(i);
    let inst = func.inst(i);
    let edit = if noted & 1 != 0 {
        record.edits.get(&i)
    } else {
        None
    };
    match edit {
        Some(&Edit::Reload { slot, to }) => {
            out.push(if inserted {
                Event::Reload { inst: i, slot, to }
            } else {
                Event::KillReg(to)
            });
            return;
        }
        Some(&Edit::Spill { slot, from }) => {
            if inserted {
                // A store that kills its register leaves it dead to the
                // verifier.
                let keeps = !inst.operands.iter().any(|o| {
                    matches!(o, Operand::Reg(r) if r.reg == RegRef::Phys(from) && r.flags.has(RegFlags::KILLED))
                });
                out.push(Event::Spill { slot, from, keeps });
            } else {
                out.push(Event::KillSlot(slot));
            }
            return;
        }
        _ => {}
    }
    // A full copy made by allocation (a split copy) between registers of
    // one class passes the slot on.
    if inserted
        && inst.op.is_copy()
        && inst.operands.len() == 2
        && let (Some(Operand::Reg(d)), Some(Operand::Reg(s))) =
            (inst.operands.first(), inst.operands.get(1))
        && let (RegRef::Phys(to), RegRef::Phys(from)) = (d.reg, s.reg)
        && d.sub.is_none()
        && s.sub.is_none()
        && !s.flags.has(RegFlags::UNDEF)
        && classes.same(t, from, to)
    {
        if relevant(from) || relevant(to) {
            out.push(Event::Copy {
                from,
                to,
                kills_from: s.flags.has(RegFlags::KILLED),
            });
        }
        return;
    }
    // A folded access to a slot may write it.
    if noted & 2 != 0
        && let Some(f) = record.memory_folds.get(&i)
    {
        out.push(Event::KillSlot(f.slot));
    }
    for (k, o) in inst.operands.iter().enumerate() {
        match o {
            Operand::Reg(r) => {
                let RegRef::Phys(p) = r.reg else { continue };
                if (r.is_def() || r.flags.has(RegFlags::KILLED)) && relevant(p) {
                    out.push(Event::KillReg(p));
                }
            }
            Operand::RegMask(_) => out.push(Event::Mask {
                inst: i,
                operand: k,
            }),
            _ => {}
        }
    }
}

/// Applies event `e` to `state`; `serve` hears of each reload a holder of
/// its slot can replace (the reload and the holder, the reloaded register
/// itself when it still holds the slot).
fn step(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    overlaps: &Overlaps,
    e: &Event,
    classes: &mut ClassSets,
    state: &mut Holders,
    serve: &mut dyn FnMut(Inst, Reg),
) {
    let kill_reg = |state: &mut Holders, r: Reg| overlaps.kill(t, state, r);
    let hold = |state: &mut Holders, r: Reg, slot: u32| {
        let k = state.partition_point(|&(q, _)| q < r);
        state.insert(k, (r, slot));
    };
    match *e {
        Event::Reload { inst, slot, to } => {
            let holder = if state.contains(&(to, slot)) {
                Some(to)
            } else {
                state
                    .iter()
                    .filter(|&&(_, s)| s == slot)
                    .map(|&(q, _)| q)
                    .find(|&q| classes.same(t, q, to))
            };
            if let Some(from) = holder {
                serve(inst, from);
            }
            kill_reg(state, to);
            hold(state, to, slot);
        }
        Event::Spill { slot, from, keeps } => {
            state.retain(|&(_, s)| s != slot);
            kill_reg(state, from);
            if keeps {
                hold(state, from, slot);
            }
        }
        Event::Copy {
            from,
            to,
            kills_from,
        } => {
            let slot = state.iter().find(|&&(q, _)| q == from).map(|&(_, s)| s);
            if kills_from {
                kill_reg(state, from);
            }
            kill_reg(state, to);
            if let Some(slot) = slot {
                hold(state, to, slot);
            }
        }
        Event::KillReg(r) => kill_reg(state, r),
        Event::KillSlot(slot) => state.retain(|&(_, s)| s != slot),
        Event::Mask { inst, operand } => {
            if let Some(Operand::RegMask(m)) = func.inst(inst).operands.get(operand) {
                state.retain(|&(q, _)| preserved(t, m, q));
            }
        }
    }
}

/// Whether register mask `m` (a call's) keeps `r`'s value.
fn preserved(t: &TargetInfo<'_>, m: &RegMask, r: Reg) -> bool {
    match m {
        RegMask::Named(c) => c.index() < t.callee_saved.len() && t.mask_preserves(*c, r),
        RegMask::Custom(list) => list.contains(&r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    /// A function of BPF `body` (physical registers, one spill slot),
    /// with the record saying which of its instructions are spills,
    /// reloads and copies allocation made (every instruction counts as
    /// inserted).
    fn function(body: &str) -> (MachineFunction, AllocRecord) {
        let f = read(&format!(
            "---
name: reuse
tracksRegLiveness: true
stack:
  - {{ id: 0, type: spill-slot, size: 8, alignment: 8 }}
body: |
{body}...
"
        ));
        let t = bpf();
        let reg = |o: Option<&Operand>| match o {
            Some(Operand::Reg(r)) => match r.reg {
                RegRef::Phys(p) => p,
                _ => panic!("physical registers only"),
            },
            _ => panic!("a register operand"),
        };
        let mut record = AllocRecord::new(0);
        for b in func_blocks(&f) {
            for &i in &f.block(b).insts {
                let inst = f.inst(i);
                let name = match inst.op {
                    Op::Target(o) => &*t.instr(o).name,
                    _ => "",
                };
                let edit = match name {
                    "STD" => Edit::Spill {
                        from: reg(inst.operands.first()),
                        slot: 0,
                    },
                    "LDD" if matches!(inst.operands.get(1), Some(Operand::Frame(..))) => {
                        Edit::Reload {
                            slot: 0,
                            to: reg(inst.operands.first()),
                        }
                    }
                    _ if inst.op.is_copy() => Edit::Copy {
                        from: reg(inst.operands.get(1)),
                        to: reg(inst.operands.first()),
                    },
                    _ => continue,
                };
                record.edits.insert(i, edit);
            }
        }
        (f, record)
    }

    fn func_blocks(f: &MachineFunction) -> Vec<Block> {
        f.block_ids().collect()
    }

    /// The text of every instruction, block by block, without
    /// `renamable` flags.
    fn listing(f: &MachineFunction) -> Vec<String> {
        let text = crate::mir::write_function(bpf(), f);
        let body = text.split("body:").nth(1).unwrap_or_default();
        body.lines()
            .map(|l| l.trim().replace("renamable ", ""))
            .filter(|l| {
                !l.is_empty()
                    && !l.starts_with("bb.")
                    && !l.starts_with("liveins")
                    && !l.starts_with("successors")
                    && !l.starts_with("...")
                    && l != "|"
            })
            .collect()
    }

    #[test]
    fn a_reload_becomes_a_copy_from_a_register_holding_the_slot() {
        let (mut f, mut record) = function(
            "  bb.0:
    liveins: $r1
    STD $r1, %stack.0, 0
    $r2 = COPY $r1
    $r1 = MOV_ri 5
    $r1 = LDD %stack.0, 0
    $r0 = ADD_rr $r1, $r2
    RET implicit $r0
",
        );
        assert_eq!(reuse_reloads(bpf(), &mut f, &mut record), 1);
        let l = listing(&f);
        assert!(
            l.contains(&"$r1 = COPY $r2".to_string())
                || l.iter().any(|x| x.contains("$r1 = COPY renamable $r2")),
            "{l:?}"
        );
        assert!(!l.iter().any(|x| x.contains("LDD")), "{l:?}");
        assert!(
            record
                .edits
                .values()
                .filter(|e| matches!(e, Edit::Reload { .. }))
                .count()
                == 0
        );
    }

    #[test]
    fn a_reload_into_a_register_still_holding_the_slot_goes() {
        let (mut f, mut record) = function(
            "  bb.0:
    liveins: $r1
    STD $r1, %stack.0, 0
    $r2 = MOV_ri 5
    $r1 = LDD %stack.0, 0
    $r0 = ADD_rr $r1, $r2
    RET implicit $r0
",
        );
        let before = f.block(Block::new(0)).insts.len();
        assert_eq!(reuse_reloads(bpf(), &mut f, &mut record), 1);
        assert_eq!(f.block(Block::new(0)).insts.len(), before - 1);
        assert!(!listing(&f).iter().any(|x| x.contains("LDD")));
    }

    #[test]
    fn a_clobber_or_another_store_makes_the_holder_stale() {
        for clobber in ["$r2 = MOV_ri 7", "STD $r3, %stack.0, 0"] {
            let (mut f, mut record) = function(&format!(
                "  bb.0:
    liveins: $r1, $r3
    STD $r1, %stack.0, 0
    $r2 = COPY $r1
    $r1 = MOV_ri 5
    {clobber}
    $r1 = LDD %stack.0, 0
    $r0 = ADD_rr $r1, $r2
    RET implicit $r0
"
            ));
            let served = reuse_reloads(bpf(), &mut f, &mut record);
            // After another store, that store's register holds the slot.
            if clobber.starts_with("STD") {
                assert_eq!(served, 1, "{clobber}");
                assert!(
                    listing(&f)
                        .iter()
                        .any(|x| x.contains("$r1 = COPY") && x.contains("$r3")),
                    "{:?}",
                    listing(&f)
                );
            } else {
                assert_eq!(served, 0, "{clobber}");
            }
        }
    }

    #[test]
    fn a_holder_must_hold_the_slot_on_every_path() {
        for both in [false, true] {
            let other = if both {
                "$r2 = COPY $r1"
            } else {
                "$r2 = MOV_ri 9"
            };
            let (mut f, mut record) = function(&format!(
                "  bb.0:
    successors: %bb.1, %bb.2
    liveins: $r1
    STD $r1, %stack.0, 0
    JEQ_ri $r1, 0, %bb.2
    JMP %bb.1
  bb.1:
    successors: %bb.3
    liveins: $r1
    $r2 = COPY $r1
    JMP %bb.3
  bb.2:
    successors: %bb.3
    liveins: $r1
    {other}
    JMP %bb.3
  bb.3:
    liveins: $r2
    $r1 = MOV_ri 5
    $r1 = LDD %stack.0, 0
    $r0 = ADD_rr $r1, $r2
    RET implicit $r0
"
            ));
            assert_eq!(
                reuse_reloads(bpf(), &mut f, &mut record),
                usize::from(both),
                "both paths: {both}"
            );
        }
    }
}
