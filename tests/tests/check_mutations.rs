//! The symbolic checker against correct and deliberately broken allocations of the BPF corpus: every correct allocation accepted, at least 99% of breaking mutants rejected.
//!
//! No production allocator is needed: a reference "allocator" that spills
//! everything (every virtual register gets a spill slot; each use is
//! preceded by a reload into a scratch register, each definition followed
//! by a spill) produces correct allocations with an `AllocRecord`. Mutants
//! of those allocations (a register swapped, a reload or spill dropped, a
//! tie broken, a definition moved across a call, a reload's slot changed)
//! must be rejected.
//!
//! Only mutants that really change what the program computes are counted.
//! That is decided by an oracle independent of the checker: a small
//! interpreter that runs a function over uninterpreted values (each
//! instruction's result is a hash of its opcode and inputs; COPYs and spill
//! code move values) along random paths, recording what the program shows
//! the world (stores, calls, branch conditions, returns). A mutant whose
//! trace equals the original's on every path tried is equivalent and not
//! counted; a broken tie is always counted (the two-address instruction
//! cannot be encoded). Prints:
//!
//! ```text
//! checker: N/N correct allocations accepted; M/K mutants caught (R%)
//! ```
//!
//! Jump tables get their own section over the x86-64 corpus's functions
//! that have them (BPF has none): Greedy's allocations, accepted, with an
//! entry retargeted (within its table or anywhere) or two entries swapped,
//! counted as breaking when the paths from the old and the new block show
//! the world different things.
//!
//! When the Fast and Basic allocators work, their results on the corpus
//! are run through the checker here too. A property test sends random
//! small BPF functions through the reference allocator and the checker.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use regalloc::check::check;
use regalloc::ir::{
    Block, Builder, FrameObject, FrameRef, Generic, Inst, InstData, MachineFunction, Op, Operand,
    RegFlags, RegMask, RegOperand, RegRef, VReg,
};
use regalloc::record::Edit;
use regalloc::target::{
    FeatureSet, InstrFlags, Reg, RegClass, RegUnit, TargetInfo, TemplateOperand, fixtures,
};
use regalloc::{AllocRecord, Allocator, Options, allocate_recorded};

// ---------------------------------------------------------------------------
// The reference allocator: spill everything.
// ---------------------------------------------------------------------------

/// Registers whose units no physical operand of `f` touches and that are
/// not reserved: scratch registers the reference allocator may use freely.
fn scratch_pool(t: &TargetInfo<'_>, f: &MachineFunction) -> Vec<Vec<RegUnit>> {
    let mut touched: HashSet<RegUnit> = HashSet::new();
    let mut touch = |r: Reg| touched.extend(t.units(r).iter().copied());
    for l in &f.live_ins {
        touch(l.reg);
    }
    for i in f.inst_ids() {
        let d = f.inst(i);
        for o in &d.operands {
            match o {
                Operand::Reg(RegOperand {
                    reg: RegRef::Phys(p),
                    ..
                }) => touch(*p),
                Operand::RegMask(_) => return Vec::new(),
                _ => {}
            }
        }
        if let Op::Target(op) = d.op {
            for &r in t
                .instr(op)
                .implicit_defs
                .iter()
                .chain(t.instr(op).implicit_uses.iter())
            {
                touch(r);
            }
        }
    }
    let mut pool: Vec<Vec<RegUnit>> = Vec::new();
    for c in t.classes.iter().filter(|c| c.allocatable) {
        for &r in c.orders.first().map_or(&c.members[..], |o| &o[..]) {
            let u = t.units(r).to_vec();
            if t.is_reserved(r)
                || u.iter().any(|x| touched.contains(x))
                || pool.iter().any(|p| p.iter().any(|x| u.contains(x)))
            {
                continue;
            }
            pool.push(u);
        }
    }
    pool
}

/// The member of `c` living in scratch units `units`.
fn member_in(t: &TargetInfo<'_>, c: RegClass, units: &[RegUnit]) -> Option<Reg> {
    t.class(c)
        .members
        .iter()
        .copied()
        .find(|&r| t.units(r).iter().all(|u| units.contains(u)))
}

/// One instruction from a spill or reload template.
fn from_template(
    t: &TargetInfo<'_>,
    c: RegClass,
    spill: bool,
    reg: Reg,
    slot: u32,
) -> Option<InstData> {
    let tpl = if spill {
        t.spill_template(c, FeatureSet::NONE, true)?
    } else {
        t.reload_template(c, FeatureSet::NONE, true)?
    };
    let mut d = InstData::new(Op::Target(tpl.opcode));
    for o in tpl.operands.iter() {
        d.operands.push(match *o {
            TemplateOperand::Reg if spill => Operand::Reg(RegOperand::use_of(reg)),
            TemplateOperand::Reg => Operand::Reg(RegOperand::def_of(reg)),
            other => Operand::from_template(other, slot)?,
        });
    }
    Some(d)
}

/// Allocates `f` by spilling every virtual register, or says why it cannot.
fn spill_everything(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
) -> Result<(MachineFunction, AllocRecord), String> {
    let pool = scratch_pool(t, f);
    let mut a = f.clone();
    let mut rec = AllocRecord::new(f.insts.len());
    let mut next_slot = f.stack.iter().map(|o| o.id + 1).max().unwrap_or(0);
    let mut slots: HashMap<VReg, u32> = HashMap::new();
    for b in f.block_ids() {
        let mut list = Vec::new();
        for &i in &f.block(b).insts {
            let d = f.inst(i);
            let mut scratch: BTreeMap<VReg, usize> = BTreeMap::new();
            let mut reloads: Vec<VReg> = Vec::new();
            let mut spills: Vec<VReg> = Vec::new();
            let early = d
                .operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|r| r.flags.has(RegFlags::EARLY_CLOBBER));
            // Uses first: each distinct virtual register read gets a scratch
            // register and a reload (partial definitions read too).
            for r in d.operands.iter().filter_map(Operand::as_reg) {
                let RegRef::Virt(v) = r.reg else { continue };
                let reads = !r.is_def() || (r.sub.is_some() && !r.flags.has(RegFlags::UNDEF));
                if !reads {
                    continue;
                }
                if !scratch.contains_key(&v) {
                    scratch.insert(v, scratch.len());
                }
                if (!r.flags.has(RegFlags::UNDEF) || r.is_def()) && !reloads.contains(&v) {
                    reloads.push(v);
                }
            }
            for r in d.operands.iter().filter_map(Operand::as_reg) {
                let RegRef::Virt(v) = r.reg else { continue };
                if r.is_def() {
                    if early || !scratch.contains_key(&v) {
                        if early && scratch.contains_key(&v) {
                            return Err("early-clobber redefinition of a used register".into());
                        }
                        scratch.insert(v, scratch.len());
                    }
                    if !spills.contains(&v) {
                        spills.push(v);
                    }
                }
            }
            if scratch.len() > pool.len() {
                return Err(format!("needs {} scratch registers", scratch.len()));
            }
            let class_of = |v: VReg| f.vreg_class(v).ok_or("a virtual register without a class");
            let full = |v: VReg, k: usize| -> Result<Reg, String> {
                member_in(t, class_of(v)?, &pool[k])
                    .ok_or_else(|| "no scratch register of the class".into())
            };
            let mut slot_of = |v: VReg, a: &mut MachineFunction| -> Result<u32, String> {
                if let Some(&s) = slots.get(&v) {
                    return Ok(s);
                }
                let c = t.class(class_of(v)?);
                let size = u64::from(c.reg_size / 8).max(1);
                let s = next_slot;
                next_slot += 1;
                a.stack.push(FrameObject::spill_slot(s, size, size as u32));
                slots.insert(v, s);
                Ok(s)
            };
            for &v in &reloads {
                let reg = full(v, scratch[&v])?;
                let slot = slot_of(v, &mut a)?;
                let data =
                    from_template(t, class_of(v)?, false, reg, slot).ok_or("no reload template")?;
                a.insts.push(data);
                let id = Inst::new(a.insts.len() - 1);
                rec.edits.insert(id, Edit::Reload { slot, to: reg });
                list.push(id);
            }
            // The instruction itself, its virtual registers renamed.
            let mut nd = d.clone();
            for o in &mut nd.operands {
                let Operand::Reg(r) = o else { continue };
                let RegRef::Virt(v) = r.reg else { continue };
                let reg = full(v, scratch[&v])?;
                let phys = match r.sub {
                    Some(idx) => t.sub_reg(reg, idx).ok_or("no such sub-register")?,
                    None => reg,
                };
                r.reg = RegRef::Phys(phys);
                r.sub = None;
            }
            a.insts[i.index()] = nd;
            list.push(i);
            let terminator = match d.op {
                Op::Target(op) => t.instr(op).is(InstrFlags::TERMINATOR),
                Op::Generic(_) => false,
                Op::Unknown(u) => u.terminator,
            };
            if terminator && !spills.is_empty() {
                return Err("a terminator defines a virtual register".into());
            }
            for &v in &spills {
                let reg = full(v, scratch[&v])?;
                let slot = slot_of(v, &mut a)?;
                let data =
                    from_template(t, class_of(v)?, true, reg, slot).ok_or("no spill template")?;
                a.insts.push(data);
                let id = Inst::new(a.insts.len() - 1);
                rec.edits.insert(id, Edit::Spill { from: reg, slot });
                list.push(id);
            }
        }
        a.blocks[b.index()].insts = list;
    }
    Ok((a, rec))
}

// ---------------------------------------------------------------------------
// The oracle: run a function over uninterpreted values.
// ---------------------------------------------------------------------------

fn mix(a: u64, b: u64) -> u64 {
    let x = (a ^ b.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 31)
}

fn hash_str(s: &str) -> u64 {
    s.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| mix(h, u64::from(b)))
}

/// A run of one function: register, slot and memory contents.
struct Machine<'a, 't> {
    t: &'a TargetInfo<'t>,
    f: &'a MachineFunction,
    spill_slots: HashSet<u32>,
    units: HashMap<RegUnit, u64>,
    vregs: HashMap<VReg, u64>,
    slots: HashMap<u32, u64>,
    mem: u64,
    events: Vec<u64>,
}

impl Machine<'_, '_> {
    fn phys(&self, r: &RegOperand) -> Option<Reg> {
        match (r.reg, r.sub) {
            (RegRef::Phys(p), Some(i)) => self.t.sub_reg(p, i),
            (RegRef::Phys(p), None) => Some(p),
            _ => None,
        }
    }

    /// Reads an operand. Sub-registers of a virtual register read the whole
    /// value: on BPF a `w` register is the low half of its `r` register and
    /// both are one register unit, so the allocated code cannot tell them
    /// apart either.
    fn read(&self, r: &RegOperand) -> u64 {
        if r.flags.has(RegFlags::UNDEF) {
            return 0;
        }
        match r.reg {
            RegRef::Virt(v) => self.vregs.get(&v).copied().unwrap_or(0),
            RegRef::NoReg => 1,
            RegRef::Phys(_) => {
                let Some(p) = self.phys(r) else { return 2 };
                let vals: Vec<u64> = self
                    .t
                    .units(p)
                    .iter()
                    .map(|u| {
                        self.units
                            .get(u)
                            .copied()
                            .unwrap_or_else(|| mix(7, u64::from(u.0)))
                    })
                    .collect();
                if vals.windows(2).all(|w| w[0] == w[1]) {
                    vals.first().copied().unwrap_or(3)
                } else {
                    vals.iter().fold(11, |h, &v| mix(h, v))
                }
            }
        }
    }

    fn write(&mut self, r: &RegOperand, x: u64) {
        match r.reg {
            RegRef::Virt(v) => {
                self.vregs.insert(v, x);
            }
            RegRef::Phys(_) => {
                if let Some(p) = self.phys(r) {
                    for &u in self.t.units(p) {
                        self.units.insert(u, x);
                    }
                }
            }
            RegRef::NoReg => {}
        }
    }

    fn exec(&mut self, d: &InstData) {
        let flags = match d.op {
            Op::Target(op) => self.t.instr(op).flags,
            Op::Generic(_) | Op::Unknown(_) => InstrFlags::NONE,
        };
        let name = match d.op {
            Op::Target(op) => self.t.instr(op).name.to_string(),
            Op::Generic(g) => g.name().to_string(),
            Op::Unknown(u) => u.name.to_string(),
        };
        let regs: Vec<&RegOperand> = d.operands.iter().filter_map(Operand::as_reg).collect();
        let spill_slot = d.operands.iter().find_map(|o| match o {
            Operand::Frame(FrameRef { fixed: false, id }, _) if self.spill_slots.contains(id) => {
                Some(*id)
            }
            _ => None,
        });
        if let Some(s) = spill_slot {
            if flags.contains(InstrFlags::MAY_STORE) {
                if let Some(r) = regs.iter().find(|r| !r.is_def()) {
                    let x = self.read(r);
                    self.slots.insert(s, x);
                }
                return;
            }
            if flags.contains(InstrFlags::MAY_LOAD) {
                let x = self.slots.get(&s).copied().unwrap_or(0);
                if let Some(r) = regs.iter().find(|r| r.is_def()) {
                    let r = (*r).clone();
                    self.write(&r, x);
                }
                return;
            }
        }
        let is_copy = d.op.is_copy()
            || d.op == Op::Generic(Generic::SubregToReg)
            || name == "MOV_rr"
            || name == "MOV_rr_32";
        // A register-to-register move copies; `MOV_rr %stack.0` (a frame
        // address) computes a value like any other instruction.
        let src = regs.iter().rfind(|r| !r.is_def());
        let dst = regs.iter().find(|r| r.is_def());
        if let (true, Some(s), Some(dd)) = (is_copy, src, dst) {
            let x = self.read(s);
            let dd = (*dd).clone();
            self.write(&dd, x);
            return;
        }
        let mut h = hash_str(&name);
        for o in &d.operands {
            h = match o {
                Operand::Reg(r) if r.is_def() => h,
                Operand::Reg(r) => mix(h, self.read(r)),
                other => mix(h, hash_str(&format!("{other:?}"))),
            };
        }
        if flags.contains(InstrFlags::MAY_LOAD) || flags.contains(InstrFlags::CALL) {
            h = mix(h, self.mem);
        }
        let defs: Vec<RegOperand> = regs
            .iter()
            .filter(|r| r.is_def())
            .map(|r| (*r).clone())
            .collect();
        for (k, r) in defs.iter().enumerate() {
            self.write(r, mix(h, k as u64));
        }
        // The description's implicit definitions clobber whatever the
        // operands say (see the implicit-operand section).
        for (k, r) in description_clobbers(self.t, d).into_iter().enumerate() {
            self.write(&RegOperand::def_of(r), mix(h, 1000 + k as u64));
        }
        if flags.contains(InstrFlags::MAY_STORE) || flags.contains(InstrFlags::CALL) {
            self.mem = mix(self.mem, h);
        }
        if flags.contains(InstrFlags::MAY_STORE)
            || flags.contains(InstrFlags::CALL)
            || flags.contains(InstrFlags::TERMINATOR)
            || flags.contains(InstrFlags::RETURN)
        {
            self.events.push(h);
        }
    }
}

/// What `f` shows the world along the path `seed` picks.
fn trace(t: &TargetInfo<'_>, f: &MachineFunction, seed: u64) -> Vec<u64> {
    trace_from(t, f, Block(0), seed)
}

/// What `f` shows the world along the path `seed` picks from block
/// `start`, with every register and slot holding its initial value.
fn trace_from(t: &TargetInfo<'_>, f: &MachineFunction, start: Block, seed: u64) -> Vec<u64> {
    let mut m = Machine {
        t,
        f,
        spill_slots: f
            .stack
            .iter()
            .filter(|o| &*o.kind == "spill-slot")
            .map(|o| o.id)
            .collect(),
        units: HashMap::new(),
        vregs: HashMap::new(),
        slots: HashMap::new(),
        mem: 0,
        events: Vec::new(),
    };
    let mut rng = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
    let mut b = start.index();
    // The path is bounded in blocks, not instructions: the allocated
    // function has more instructions but must walk the same blocks.
    let mut visited = 0;
    while b < m.f.blocks.len() && visited < 300 {
        visited += 1;
        for &i in &m.f.blocks[b].insts {
            let d = m.f.inst(i).clone();
            m.exec(&d);
        }
        let succs = &m.f.blocks[b].succs;
        if succs.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        b = succs[(rng % succs.len() as u64) as usize].block.index();
    }
    m.events
}

/// The random paths tried per function: many, because a broken value often
/// shows on only a few of a large function's paths.
const SEEDS: std::ops::Range<u64> = 1..65;

/// Whether `a` shows the world something `original` does not on some
/// path tried.
fn differs(t: &TargetInfo<'_>, original_traces: &[Vec<u64>], a: &MachineFunction) -> bool {
    SEEDS
        .zip(original_traces)
        .any(|(s, o)| trace(t, a, s) != *o)
}

// ---------------------------------------------------------------------------
// Mutants.
// ---------------------------------------------------------------------------

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum Mutation {
    SwapRegister,
    DropReload,
    DropSpill,
    BreakTie,
    MoveDefAcrossCall,
    ChangeReloadSlot,
    /// See the implicit-operand section.
    ReloadIntoDescriptionClobber,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Another allocatable, unreserved register of the class of the virtual
/// register the original operand names.
fn other_reg(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    or: &RegOperand,
    now: Reg,
    rng: &mut Rng,
) -> Option<Reg> {
    let RegRef::Virt(v) = or.reg else { return None };
    let c = f.vreg_class(v)?;
    let cands: Vec<Reg> = t
        .class(c)
        .members
        .iter()
        .copied()
        .filter(|&r| !t.is_reserved(r))
        .filter_map(|r| match or.sub {
            Some(i) => t.sub_reg(r, i),
            None => Some(r),
        })
        .filter(|&r| r != now)
        .collect();
    (!cands.is_empty()).then(|| cands[rng.below(cands.len())])
}

fn set_reg(o: &mut Operand, r: Reg) {
    if let Operand::Reg(x) = o {
        x.reg = RegRef::Phys(r);
    }
}

/// Up to `per_kind` mutants of each kind of the allocation `a`.
fn mutants(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    a: &MachineFunction,
    rec: &AllocRecord,
    rng: &mut Rng,
    per_kind: usize,
) -> Vec<(Mutation, MachineFunction, AllocRecord)> {
    let mut out = Vec::new();
    let positions: Vec<(Block, usize, Inst)> = a
        .block_ids()
        .flat_map(|b| {
            a.block(b)
                .insts
                .iter()
                .enumerate()
                .map(move |(p, &i)| (b, p, i))
        })
        .collect();
    let pick = |rng: &mut Rng, v: &mut Vec<(Block, usize, Inst)>| -> Option<(Block, usize, Inst)> {
        if v.is_empty() {
            None
        } else {
            let k = rng.below(v.len());
            Some(v.swap_remove(k))
        }
    };
    // Swap a register of an operand that was virtual.
    let mut sites: Vec<(Block, usize, Inst)> = positions
        .iter()
        .copied()
        .filter(|&(_, _, i)| rec.is_original(i))
        .filter(|&(_, _, i)| {
            f.inst(i).operands.iter().any(|o| {
                matches!(
                    o,
                    Operand::Reg(RegOperand {
                        reg: RegRef::Virt(_),
                        ..
                    })
                )
            })
        })
        .collect();
    for _ in 0..per_kind {
        let Some((_, _, i)) = pick(rng, &mut sites) else {
            break;
        };
        let ks: Vec<usize> = f
            .inst(i)
            .operands
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                matches!(
                    o,
                    Operand::Reg(RegOperand {
                        reg: RegRef::Virt(_),
                        ..
                    })
                )
            })
            .map(|(k, _)| k)
            .collect();
        let k = ks[rng.below(ks.len())];
        let (Some(or), Some(Operand::Reg(ar))) =
            (f.inst(i).operands[k].as_reg(), a.inst(i).operands.get(k))
        else {
            continue;
        };
        let RegRef::Phys(now) = ar.reg else { continue };
        let Some(r) = other_reg(t, f, or, now, rng) else {
            continue;
        };
        let mut m = a.clone();
        set_reg(&mut m.insts[i.index()].operands[k], r);
        out.push((Mutation::SwapRegister, m, rec.clone()));
    }
    // Drop a reload or a spill.
    for (kind, is_reload) in [(Mutation::DropReload, true), (Mutation::DropSpill, false)] {
        let mut sites: Vec<(Block, usize, Inst)> = positions
            .iter()
            .copied()
            .filter(|&(_, _, i)| match rec.edit(i) {
                Some(Edit::Reload { .. }) => is_reload,
                Some(Edit::Spill { .. }) => !is_reload,
                _ => false,
            })
            .collect();
        for _ in 0..per_kind {
            let Some((b, p, _)) = pick(rng, &mut sites) else {
                break;
            };
            let mut m = a.clone();
            m.blocks[b.index()].insts.remove(p);
            out.push((kind, m, rec.clone()));
        }
    }
    // Break a tie: the tied definition in another register.
    let mut sites: Vec<(Block, usize, Inst)> = positions
        .iter()
        .copied()
        .filter(|&(_, _, i)| {
            rec.is_original(i)
                && f.inst(i)
                    .operands
                    .iter()
                    .filter_map(Operand::as_reg)
                    .any(|r| r.is_def() && r.tied_to.is_some())
        })
        .collect();
    for _ in 0..per_kind {
        let Some((_, _, i)) = pick(rng, &mut sites) else {
            break;
        };
        let Some(k) = f.inst(i).operands.iter().position(|o| {
            o.as_reg()
                .is_some_and(|r| r.is_def() && r.tied_to.is_some())
        }) else {
            continue;
        };
        let (Some(or), Some(Operand::Reg(ar))) =
            (f.inst(i).operands[k].as_reg(), a.inst(i).operands.get(k))
        else {
            continue;
        };
        let RegRef::Phys(now) = ar.reg else { continue };
        let Some(r) = other_reg(t, f, or, now, rng) else {
            continue;
        };
        let mut m = a.clone();
        set_reg(&mut m.insts[i.index()].operands[k], r);
        out.push((Mutation::BreakTie, m, rec.clone()));
    }
    // Move a definition across a call in the same block.
    let is_call = |i: Inst| match a.inst(i).op {
        Op::Target(op) => t.instr(op).is(InstrFlags::CALL),
        Op::Generic(_) | Op::Unknown(_) => false,
    };
    let mut moves: Vec<(Block, usize, usize)> = Vec::new();
    for b in a.block_ids() {
        let insts = &a.block(b).insts;
        for (c, &ci) in insts.iter().enumerate() {
            if !is_call(ci) {
                continue;
            }
            let lo = c.saturating_sub(3);
            for (p, &i) in insts.iter().enumerate().take(c + 4).skip(lo) {
                let defines = a
                    .inst(i)
                    .operands
                    .iter()
                    .filter_map(Operand::as_reg)
                    .any(|r| r.is_def() && !r.is_implicit());
                let term = match a.inst(i).op {
                    Op::Target(op) => t.instr(op).is(InstrFlags::TERMINATOR),
                    Op::Generic(_) => false,
                    Op::Unknown(u) => u.terminator,
                };
                if p != c && defines && !is_call(i) && !term {
                    moves.push((b, p, c));
                }
            }
        }
    }
    for _ in 0..per_kind {
        if moves.is_empty() {
            break;
        }
        let (b, p, c) = moves.swap_remove(rng.below(moves.len()));
        let mut m = a.clone();
        let list = &mut m.blocks[b.index()].insts;
        let i = list.remove(p);
        // Before the call, p < c: once p is out the call sits at c - 1, so
        // inserting at c lands right after it. After the call, inserting at
        // c lands right before it.
        list.insert(c, i);
        out.push((Mutation::MoveDefAcrossCall, m, rec.clone()));
    }
    // Point a reload at another spill slot (instruction and edit agree).
    let spill_slots: Vec<u32> = a
        .stack
        .iter()
        .filter(|o| &*o.kind == "spill-slot")
        .map(|o| o.id)
        .collect();
    let mut sites: Vec<(Block, usize, Inst)> = positions
        .iter()
        .copied()
        .filter(|&(_, _, i)| matches!(rec.edit(i), Some(Edit::Reload { .. })))
        .collect();
    for _ in 0..per_kind {
        if spill_slots.len() < 2 {
            break;
        }
        let Some((_, _, i)) = pick(rng, &mut sites) else {
            break;
        };
        let Some(&Edit::Reload { slot, to }) = rec.edit(i) else {
            continue;
        };
        let others: Vec<u32> = spill_slots.iter().copied().filter(|&s| s != slot).collect();
        let new = others[rng.below(others.len())];
        let mut m = a.clone();
        let mut r = rec.clone();
        for o in &mut m.insts[i.index()].operands {
            if let Operand::Frame(fr, _) = o {
                fr.id = new;
            }
        }
        r.edits.insert(i, Edit::Reload { slot: new, to });
        out.push((Mutation::ChangeReloadSlot, m, r));
    }
    out
}

// ---------------------------------------------------------------------------
// The corpus run.
// ---------------------------------------------------------------------------

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn corpus_functions(t: &TargetInfo<'_>, level: &str) -> Vec<MachineFunction> {
    corpus_functions_of(t, "bpf", level)
}

/// The functions of `bench/out/corpus/<target>/<level>` that read.
fn corpus_functions_of(t: &TargetInfo<'_>, target: &str, level: &str) -> Vec<MachineFunction> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out/corpus")
        .join(target)
        .join(level);
    let mut out = Vec::new();
    for p in corpus_files(&dir) {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let file = regalloc::mir::read(t, &p.display().to_string(), &text);
        out.extend(file.read_functions().cloned());
    }
    out
}

#[derive(Default)]
struct Tally {
    made: usize,
    breaking: usize,
    caught: usize,
    flagged_equivalent: usize,
}

#[test]
fn checker_accepts_correct_and_rejects_broken_allocations() {
    let t = fixtures::bpf();
    let functions = corpus_functions(t, "O2");
    if functions.is_empty() {
        println!("skipped: no BPF corpus under bench/out/corpus/bpf/O2");
        return;
    }
    let (mut accepted, mut allocated, mut skipped, mut oracle_mismatch) = (0, 0, 0, 0);
    let mut tallies: BTreeMap<Mutation, Tally> = BTreeMap::new();
    let mut missed: Vec<String> = Vec::new();
    let mut rejected_correct: Vec<String> = Vec::new();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut implicit_rng = Rng(0x0dd5_eed5_1234_5679);
    for f in &functions {
        let (a, rec) = match spill_everything(t, f) {
            Ok(x) => x,
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        allocated += 1;
        let originals: Vec<Vec<u64>> = SEEDS.map(|s| trace(t, f, s)).collect();
        if differs(t, &originals, &a) {
            if oracle_mismatch < 5 {
                println!("  oracle mismatch: {}", f.name);
            }
            oracle_mismatch += 1;
        }
        match check(t, f, &a, &rec) {
            Ok(()) => accepted += 1,
            Err(errs) => {
                if rejected_correct.len() < 5 {
                    rejected_correct.push(format!("{}: {}", f.name, errs[0]));
                }
                continue;
            }
        }
        for (kind, m, mrec) in mutants(t, f, &a, &rec, &mut rng, 3) {
            let tally = tallies.entry(kind).or_default();
            tally.made += 1;
            let breaking = kind == Mutation::BreakTie || differs(t, &originals, &m);
            let caught = check(t, f, &m, &mrec).is_err();
            if breaking {
                tally.breaking += 1;
                if caught {
                    tally.caught += 1;
                } else if missed.len() < 10 {
                    missed.push(format!("{kind:?} in {}", f.name));
                }
            } else if caught {
                tally.flagged_equivalent += 1;
            }
        }
        implicit_operand_tally(t, f, &a, &rec, &mut implicit_rng, &mut tallies, &mut missed);
    }
    let (k, m): (usize, usize) = tallies
        .values()
        .fold((0, 0), |(k, m), t| (k + t.breaking, m + t.caught));
    for (kind, tl) in &tallies {
        println!(
            "  {kind:?}: {} made, {} breaking, {} caught, {} equivalent ones flagged",
            tl.made, tl.breaking, tl.caught, tl.flagged_equivalent
        );
    }
    println!(
        "reference allocator: {allocated}/{} functions allocated ({skipped} skipped), {oracle_mismatch} traces differing from the original",
        functions.len()
    );
    for r in &rejected_correct {
        println!("  rejected correct allocation: {r}");
    }
    for s in &missed {
        println!("  missed: {s}");
    }
    let rate = if k == 0 {
        100.0
    } else {
        100.0 * m as f64 / k as f64
    };
    println!(
        "checker: {accepted}/{allocated} correct allocations accepted; {m}/{k} mutants caught ({rate:.1}%)"
    );
    assert_eq!(
        oracle_mismatch, 0,
        "the reference allocator or the oracle is wrong"
    );
    assert_eq!(
        accepted, allocated,
        "the checker rejected correct allocations"
    );
    assert!(k > 0 && rate >= 99.0, "mutants caught: {rate:.1}%");
}

/// The production allocators, once they work, through the checker.
#[test]
fn production_allocators_through_the_checker() {
    let t = fixtures::bpf();
    for (alloc, level) in [(Allocator::Fast, "O0"), (Allocator::Basic, "O2")] {
        let functions = corpus_functions(t, level);
        if functions.is_empty() {
            println!("skipped: no BPF {level} corpus");
            continue;
        }
        let (mut ok, mut checked, mut unavailable) = (0, 0, false);
        let mut failures: Vec<String> = Vec::new();
        for f in &functions {
            let mut a = f.clone();
            let options = Options {
                allocator: alloc,
                check: false,
            };
            match allocate_recorded(t, &mut a, &options) {
                Ok((_, rec)) => {
                    ok += 1;
                    match check(t, f, &a, &rec) {
                        Ok(()) => checked += 1,
                        Err(e) if failures.len() < 5 => {
                            failures.push(format!("{}: {}", f.name, e[0]))
                        }
                        Err(_) => {}
                    }
                }
                Err(e)
                    if e.kind == regalloc::AllocErrorKind::Unsupported
                        && ok == 0
                        && e.message.contains("not available") =>
                {
                    unavailable = true;
                    break;
                }
                Err(_) => {}
            }
        }
        if unavailable {
            println!("bpf {}: not available yet", alloc.name());
            continue;
        }
        let n = functions.len();
        println!(
            "bpf {}: {ok}/{n} allocated, {checked}/{ok} accepted by the checker",
            alloc.name()
        );
        for e in &failures {
            println!("  {e}");
        }
    }
}

// ---------------------------------------------------------------------------
// Jump tables (x86-64: the BPF corpus has none).
// ---------------------------------------------------------------------------

/// A change to an allocated function's jump tables.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum TableMutation {
    /// An entry jumps to another block of the same table (still a
    /// successor of the switch: the CFG alone does not show it).
    RetargetWithinTable,
    /// An entry jumps to any other block of the function.
    RetargetAnywhere,
    /// Two entries of a table that jump to different blocks are swapped.
    SwapEntries,
}

/// The (table, entry) positions of `a`'s tables.
fn table_entries(a: &MachineFunction) -> Vec<(usize, usize)> {
    a.jump_tables.as_ref().map_or(Vec::new(), |j| {
        j.tables
            .iter()
            .enumerate()
            .flat_map(|(k, tb)| (0..tb.blocks.len()).map(move |e| (k, e)))
            .collect()
    })
}

/// Up to `per_kind` mutants of each kind of `a`'s jump tables.
fn table_mutants(
    a: &MachineFunction,
    rng: &mut Rng,
    per_kind: usize,
) -> Vec<(TableMutation, MachineFunction)> {
    let entries = table_entries(a);
    let Some(tables) = a.jump_tables.as_ref().filter(|_| !entries.is_empty()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for kind in [
        TableMutation::RetargetWithinTable,
        TableMutation::RetargetAnywhere,
        TableMutation::SwapEntries,
    ] {
        for _ in 0..per_kind {
            let (k, e) = entries[rng.below(entries.len())];
            let table = &tables.tables[k].blocks;
            let now = table[e];
            let mut m = a.clone();
            let blocks = &mut m.jump_tables.as_mut().expect("tables").tables[k].blocks;
            match kind {
                TableMutation::RetargetWithinTable | TableMutation::RetargetAnywhere => {
                    let candidates: Vec<Block> = if kind == TableMutation::RetargetWithinTable {
                        table.iter().copied().filter(|&b| b != now).collect()
                    } else {
                        a.block_ids().filter(|&b| b != now).collect()
                    };
                    if candidates.is_empty() {
                        continue;
                    }
                    blocks[e] = candidates[rng.below(candidates.len())];
                }
                TableMutation::SwapEntries => {
                    let others: Vec<usize> =
                        (0..table.len()).filter(|&o| table[o] != now).collect();
                    if others.is_empty() {
                        continue;
                    }
                    blocks.swap(e, others[rng.below(others.len())]);
                }
            }
            out.push((kind, m));
        }
    }
    out
}

/// Whether mutant `m` of `a` jumps somewhere that behaves differently: for
/// some entry whose block changed, the paths from the old and the new
/// block show the world different things (the oracle, not the checker).
fn table_mutant_breaks(t: &TargetInfo<'_>, a: &MachineFunction, m: &MachineFunction) -> bool {
    let (Some(old), Some(new)) = (a.jump_tables.as_ref(), m.jump_tables.as_ref()) else {
        return true;
    };
    old.tables
        .iter()
        .zip(&new.tables)
        .flat_map(|(o, n)| o.blocks.iter().zip(&n.blocks))
        .filter(|(o, n)| o != n)
        .any(|(&o, &n)| {
            SEEDS
                .clone()
                .any(|s| trace_from(t, a, o, s) != trace_from(t, m, n, s))
        })
}

/// The x86-64 corpus's functions with jump tables, allocated by Greedy and
/// accepted by the checker; mutants of their tables must be rejected.
/// Prints:
///
/// ```text
/// jump tables: N/N correct allocations accepted; M/K mutants caught (R%)
/// ```
#[test]
fn checker_rejects_retargeted_jump_tables() {
    let t: &TargetInfo<'_> = &regalloc_targets::x86::TARGET;
    let functions: Vec<MachineFunction> = corpus_functions_of(t, "x86_64", "O2")
        .into_iter()
        .filter(|f| f.jump_tables.as_ref().is_some_and(|j| !j.tables.is_empty()))
        .collect();
    if functions.is_empty() {
        println!("skipped: no x86-64 corpus with jump tables under bench/out/corpus/x86_64/O2");
        return;
    }
    let options = Options {
        allocator: Allocator::Greedy,
        check: false,
    };
    let (mut allocated, mut accepted) = (0, 0);
    let mut rejected_correct: Vec<String> = Vec::new();
    let mut tallies: BTreeMap<TableMutation, Tally> = BTreeMap::new();
    let mut missed: Vec<String> = Vec::new();
    let mut rng = Rng(0x7ab1_e5ee_d0f5_1a7e);
    for f in &functions {
        let mut a = f.clone();
        let Ok((_, rec)) = allocate_recorded(t, &mut a, &options) else {
            continue;
        };
        allocated += 1;
        if let Err(e) = check(t, f, &a, &rec) {
            rejected_correct.push(format!("{}: {}", f.name, e[0]));
            continue;
        }
        accepted += 1;
        for (kind, m) in table_mutants(&a, &mut rng, 3) {
            let tally = tallies.entry(kind).or_default();
            tally.made += 1;
            let caught = check(t, f, &m, &rec).is_err();
            if table_mutant_breaks(t, &a, &m) {
                tally.breaking += 1;
                if caught {
                    tally.caught += 1;
                } else if missed.len() < 10 {
                    missed.push(format!("{kind:?} in {}", f.name));
                }
            } else if caught {
                tally.flagged_equivalent += 1;
            }
        }
    }
    let (k, m): (usize, usize) = tallies
        .values()
        .fold((0, 0), |(k, m), t| (k + t.breaking, m + t.caught));
    for (kind, tl) in &tallies {
        println!(
            "  {kind:?}: {} made, {} breaking, {} caught, {} equivalent ones flagged",
            tl.made, tl.breaking, tl.caught, tl.flagged_equivalent
        );
    }
    for r in &rejected_correct {
        println!("  rejected correct allocation: {r}");
    }
    for s in &missed {
        println!("  missed: {s}");
    }
    let rate = if k == 0 {
        100.0
    } else {
        100.0 * m as f64 / k as f64
    };
    println!(
        "jump tables: {accepted}/{allocated} correct allocations accepted; {m}/{k} mutants caught ({rate:.1}%)"
    );
    assert_eq!(
        accepted, allocated,
        "the checker rejected correct allocations"
    );
    assert_eq!(
        allocated,
        functions.len(),
        "Greedy allocates every function"
    );
    assert!(k > 0 && rate >= 99.0, "mutants caught: {rate:.1}%");
}

// ---------------------------------------------------------------------------
// Random functions.
// ---------------------------------------------------------------------------

/// One random straight-line-or-diamond BPF function built from `ops`.
fn random_function(t: &TargetInfo<'_>, ops: &[(u8, u8, u8)], diamond: bool) -> MachineFunction {
    let gpr = t.find_class("gpr").expect("gpr");
    let gpr32 = t.find_class("gpr32").expect("gpr32");
    let op = |n: &str| Op::Target(t.find_opcode(n).expect("opcode"));
    let reg = |n: &str| t.find_reg(n).expect("register");
    let sub_32 = t.find_sub_reg_index("sub_32").expect("sub_32");
    let mut f = MachineFunction::new("random");
    let mut b = Builder::new(&mut f);
    let entry = b.new_block();
    b.add_live_in(entry, reg("r1"));
    b.at_end(entry);
    let mut wide = vec![b.new_vreg(gpr)];
    b.inst(Op::Generic(Generic::Copy))
        .def(wide[0])
        .use_(reg("r1"))
        .done();
    let mut narrow: Vec<VReg> = Vec::new();
    let mut current = entry;
    let mut join = None;
    for (k, &(kind, x, y)) in ops.iter().enumerate() {
        if diamond && k == ops.len() / 2 && join.is_none() {
            let (then, els, j) = (b.new_block(), b.new_block(), b.new_block());
            b.at_end(current);
            b.inst(op("JEQ_ri"))
                .use_(wide[usize::from(x) % wide.len()])
                .imm(0)
                .block(els)
                .done();
            b.inst(op("JMP")).block(then).done();
            b.add_succ(current, els, None);
            b.add_succ(current, then, None);
            b.add_succ(then, j, None);
            b.add_succ(els, j, None);
            b.at_end(then);
            let v = wide[usize::from(y) % wide.len()];
            b.inst(op("MOV_ri")).def(v).imm(5).done();
            b.inst(op("JMP")).block(j).done();
            b.at_end(els);
            b.inst(op("ADD_ri")).def(v).use_(v).imm(3).tie(0, 1).done();
            b.at_end(j);
            current = j;
            join = Some(j);
        }
        let w = |s: u8| wide[usize::from(s) % wide.len()];
        match kind % 8 {
            0 => {
                let v = b.new_vreg(gpr);
                b.inst(op("MOV_ri")).def(v).imm(i64::from(x)).done();
                wide.push(v);
            }
            1 => {
                let (a, c) = (w(x), w(y));
                b.inst(op("ADD_rr")).def(a).use_(a).use_(c).tie(0, 1).done();
            }
            2 => {
                let v = b.new_vreg(gpr);
                b.inst(Op::Generic(Generic::Copy)).def(v).use_(w(x)).done();
                wide.push(v);
            }
            3 => {
                b.inst(op("STD")).use_(w(x)).use_(w(y)).imm(8).done();
            }
            4 => {
                let v = b.new_vreg(gpr32);
                b.inst(Op::Generic(Generic::Copy))
                    .def(v)
                    .use_sub(w(x), sub_32)
                    .done();
                narrow.push(v);
            }
            5 if !narrow.is_empty() => {
                let v = b.new_vreg(gpr);
                let n = narrow[usize::from(y) % narrow.len()];
                b.inst(op("MOV_32_64")).def(v).use_(n).done();
                wide.push(v);
            }
            6 => {
                // A call: argument in r1, result from r0, r1-r5 clobbered.
                b.inst(Op::Generic(Generic::Copy))
                    .def(reg("r1"))
                    .use_(w(x))
                    .done();
                let mut call = b
                    .inst(op("JAL"))
                    .global("g")
                    .implicit_use(reg("r1"))
                    .implicit_def(reg("r0"));
                for r in ["r1", "r2", "r3", "r4", "r5"] {
                    call = call.reg(reg(r), RegFlags::DEF | RegFlags::IMPLICIT | RegFlags::DEAD);
                }
                call.done();
                let v = b.new_vreg(gpr);
                b.inst(Op::Generic(Generic::Copy))
                    .def(v)
                    .use_(reg("r0"))
                    .done();
                wide.push(v);
            }
            _ => {
                let v = b.new_vreg(gpr);
                b.inst(op("LDD")).def(v).use_(w(x)).imm(16).done();
                wide.push(v);
            }
        }
    }
    b.at_end(current);
    let last = *wide.last().expect("a value");
    b.inst(Op::Generic(Generic::Copy))
        .def(reg("r0"))
        .use_(last)
        .done();
    b.inst(op("RET")).implicit_use(reg("r0")).done();
    let _ = (RegMask::Custom(Vec::new()), join);
    f.compute_preds();
    f
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_functions_through_reference_allocator_and_checker(
        ops in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..40),
        diamond in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let t = fixtures::bpf();
        let f = random_function(t, &ops, diamond);
        let (a, rec) = spill_everything(t, &f).map_err(TestCaseError::fail)?;
        let originals: Vec<Vec<u64>> = SEEDS.map(|s| trace(t, &f, s)).collect();
        prop_assert!(!differs(t, &originals, &a), "reference allocation differs from the original");
        if let Err(e) = check(t, &f, &a, &rec) {
            return Err(TestCaseError::fail(format!("{}", e[0])));
        }
        let mut rng = Rng(seed | 1);
        for (kind, m, mrec) in mutants(t, &f, &a, &rec, &mut rng, 1) {
            let breaking = kind == Mutation::BreakTie || differs(t, &originals, &m);
            if breaking {
                prop_assert!(check(t, &f, &m, &mrec).is_err(), "{:?} mutant not caught", kind);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Implicit-operand mutants: the instruction description is the law.
//
// A call's MIR may leave out implicit operands its description has (LLVM's
// parser accepts any implicit operands on a call); the call still clobbers
// every register its description defines. These mutants move a reload from
// after a call to before it and into a register the call's description
// clobbers, with the call's MIR operand for that register removed from the
// original and the allocation alike: only the description says the value
// is lost. The same reload retargeted but left after the call is a correct
// allocation of the same original and must be accepted.
// ---------------------------------------------------------------------------

/// The physical registers `d`'s description defines that its operands do
/// not name as definitions.
fn description_clobbers(t: &TargetInfo<'_>, d: &InstData) -> Vec<Reg> {
    let Op::Target(op) = d.op else {
        return Vec::new();
    };
    t.instr(op)
        .implicit_defs
        .iter()
        .copied()
        .filter(|&r| {
            !d.operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|o| o.is_def() && o.reg == RegRef::Phys(r))
        })
        .collect()
}

/// One implicit-operand mutant: the original without the call's operand,
/// a correct allocation of it (the control) and the broken one.
struct ImplicitMutant {
    original: MachineFunction,
    control: (MachineFunction, AllocRecord),
    mutant: (MachineFunction, AllocRecord),
}

/// Whether any operand of `d` names a register sharing a unit with `r`.
fn touches(t: &TargetInfo<'_>, d: &InstData, r: Reg) -> bool {
    d.operands.iter().any(|o| match o {
        Operand::Reg(x) => matches!(x.reg, RegRef::Phys(p) if t.regs_overlap(p, r)),
        Operand::RegMask(_) => true,
        _ => false,
    })
}

/// Up to `per_function` implicit-operand mutants of the reference
/// allocation `a` of `f`.
fn implicit_operand_mutants(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    a: &MachineFunction,
    rec: &AllocRecord,
    rng: &mut Rng,
    per_function: usize,
) -> Vec<ImplicitMutant> {
    // Sites: (block, call position, reload position, use position).
    let mut sites: Vec<(Block, usize, usize, usize)> = Vec::new();
    for b in a.block_ids() {
        let insts = &a.block(b).insts;
        for (c, &ci) in insts.iter().enumerate() {
            let Op::Target(op) = a.inst(ci).op else {
                continue;
            };
            if !t.instr(op).is(InstrFlags::CALL) {
                continue;
            }
            // Reloads after the call of a slot no spill writes since, each
            // with the original that reads it.
            for (r, &ri) in insts.iter().enumerate().skip(c + 1) {
                let Some(&Edit::Reload { to, slot }) = rec.edit(ri) else {
                    continue;
                };
                let rewritten = insts[c + 1..r].iter().any(
                    |&i| matches!(rec.edit(i), Some(&Edit::Spill { slot: s, .. }) if s == slot),
                );
                if rewritten {
                    continue;
                }
                let Some(u) = (r + 1..insts.len()).find(|&u| rec.is_original(insts[u])) else {
                    continue;
                };
                let reads = a
                    .inst(insts[u])
                    .operands
                    .iter()
                    .filter_map(Operand::as_reg)
                    .any(|o| !o.is_def() && o.reg == RegRef::Phys(to));
                let redefines = a
                    .inst(insts[u])
                    .operands
                    .iter()
                    .filter_map(Operand::as_reg)
                    .any(|o| o.is_def() && o.reg == RegRef::Phys(to));
                if reads && !redefines {
                    sites.push((b, c, r, u));
                }
            }
        }
    }
    let mut out = Vec::new();
    while out.len() < per_function && !sites.is_empty() {
        let (b, c, r, u) = sites.swap_remove(rng.below(sites.len()));
        let insts = &a.block(b).insts;
        let (call, reload, user) = (insts[c], insts[r], insts[u]);
        let Some(&Edit::Reload { slot, to }) = rec.edit(reload) else {
            continue;
        };
        // The reloaded register's class: its virtual register's in the
        // original.
        let class = f
            .inst(user)
            .operands
            .iter()
            .zip(&a.inst(user).operands)
            .find_map(|(o, x)| match (o.as_reg(), x.as_reg()) {
                (Some(o), Some(x)) if !x.is_def() && x.reg == RegRef::Phys(to) => match o.reg {
                    RegRef::Virt(v) if o.sub.is_none() => f.vreg_class(v),
                    _ => None,
                },
                _ => None,
            });
        let Some(class) = class else { continue };
        let Op::Target(op) = a.inst(call).op else {
            continue;
        };
        // A register of that class the call's description defines, which
        // nothing else in the function names: free but for the call's
        // clobber, so the control is a correct allocation.
        let free = |m: Reg| {
            f.inst_ids().all(|i| i == call || !touches(t, f.inst(i), m))
                && f.blocks
                    .iter()
                    .all(|b| b.live_ins.iter().all(|l| !t.regs_overlap(l.reg, m)))
                && f.live_ins.iter().all(|l| !t.regs_overlap(l.reg, m))
        };
        let candidates: Vec<(Reg, Reg)> = t
            .instr(op)
            .implicit_defs
            .iter()
            .copied()
            .filter_map(|d| {
                let m = t.class(class).members.iter().copied().find(|&m| {
                    t.units(m).iter().all(|x| t.units(d).contains(x)) && !t.is_reserved(m)
                })?;
                free(m).then_some((d, m))
            })
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let (clobbered, target) = candidates[rng.below(candidates.len())];
        // The original and both allocations without the call's operand.
        let strip = |g: &mut MachineFunction| {
            g.insts[call.index()].operands.retain(|o| {
                !matches!(o, Operand::Reg(x) if x.is_def() && x.is_implicit() && x.reg == RegRef::Phys(clobbered))
            });
        };
        let mut original = f.clone();
        strip(&mut original);
        let retarget = |g: &mut MachineFunction, r: &mut AllocRecord| {
            strip(g);
            for o in &mut g.insts[reload.index()].operands {
                if let Operand::Reg(x) = o
                    && x.is_def()
                    && x.reg == RegRef::Phys(to)
                {
                    x.reg = RegRef::Phys(target);
                }
            }
            for o in &mut g.insts[user.index()].operands {
                if let Operand::Reg(x) = o
                    && !x.is_def()
                    && x.reg == RegRef::Phys(to)
                {
                    x.reg = RegRef::Phys(target);
                }
            }
            r.edits.insert(reload, Edit::Reload { slot, to: target });
        };
        let (mut control, mut control_rec) = (a.clone(), rec.clone());
        retarget(&mut control, &mut control_rec);
        let (mut mutant, mut mutant_rec) = (control.clone(), control_rec.clone());
        let list = &mut mutant.blocks[b.index()].insts;
        let moved = list.remove(r);
        list.insert(c, moved);
        retarget(&mut mutant, &mut mutant_rec);
        out.push(ImplicitMutant {
            original,
            control: (control, control_rec),
            mutant: (mutant, mutant_rec),
        });
    }
    out
}

/// Makes the implicit-operand mutants of one function and adds them to the
/// tallies of the corpus run; a control the checker rejects is a failure.
fn implicit_operand_tally(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    a: &MachineFunction,
    rec: &AllocRecord,
    rng: &mut Rng,
    tallies: &mut BTreeMap<Mutation, Tally>,
    missed: &mut Vec<String>,
) {
    for m in implicit_operand_mutants(t, f, a, rec, rng, 3) {
        let originals: Vec<Vec<u64>> = SEEDS.map(|s| trace(t, &m.original, s)).collect();
        assert!(
            !differs(t, &originals, &m.control.0),
            "{}: the control allocation differs from the original",
            f.name
        );
        if let Err(e) = check(t, &m.original, &m.control.0, &m.control.1) {
            panic!("{}: control rejected: {}", f.name, e[0]);
        }
        let tally = tallies
            .entry(Mutation::ReloadIntoDescriptionClobber)
            .or_default();
        tally.made += 1;
        let caught = check(t, &m.original, &m.mutant.0, &m.mutant.1).is_err();
        if differs(t, &originals, &m.mutant.0) {
            tally.breaking += 1;
            if caught {
                tally.caught += 1;
            } else if missed.len() < 10 {
                missed.push(format!("ReloadIntoDescriptionClobber in {}", f.name));
            }
        } else if caught {
            tally.flagged_equivalent += 1;
        }
    }
}

/// Implicit-operand mutants on their own: made on the BPF corpus, every
/// breaking one rejected, every control accepted.
#[test]
fn implicit_operand_mutants_are_rejected() {
    let t = fixtures::bpf();
    let functions = corpus_functions(t, "O2");
    if functions.is_empty() {
        println!("skipped: no BPF corpus under bench/out/corpus/bpf/O2");
        return;
    }
    let mut tallies: BTreeMap<Mutation, Tally> = BTreeMap::new();
    let mut missed = Vec::new();
    let mut rng = Rng(0x0dd5_eed5_1234_5679);
    for f in &functions {
        let Ok((a, rec)) = spill_everything(t, f) else {
            continue;
        };
        implicit_operand_tally(t, f, &a, &rec, &mut rng, &mut tallies, &mut missed);
    }
    let tl = tallies
        .remove(&Mutation::ReloadIntoDescriptionClobber)
        .unwrap_or_default();
    println!(
        "implicit-operand mutants: {} made, {} breaking, {} caught, {} equivalent ones flagged",
        tl.made, tl.breaking, tl.caught, tl.flagged_equivalent
    );
    assert!(
        tl.breaking >= 20,
        "too few breaking mutants: {}",
        tl.breaking
    );
    assert_eq!(tl.caught, tl.breaking, "missed: {missed:?}");
}
