//! Physical-register liveness of allocated code over register units: the unit set, the one backward solve of block live-ins (used by the Fast allocator and by the pipeline's live-in stage), and the two ways of naming a live-in set as registers.
//!
//! Both users solve the same problem: the units live into each block,
//! reserved and constant registers left out (LLVM does not track them), by
//! a backward dataflow over the successor edges (`solve_live_ins`, on
//! the worklist of `analysis::dataflow`). They differ in the block transfer
//! and in the names:
//! - the Fast allocator walks each block's code from its live-out, setting
//!   kill and dead flags on the way (a block walked again sets them again,
//!   from the final live-outs in the end), and names a set by the largest
//!   registers wholly in it (`cover_widest`), as LLVM's RegAllocFast
//!   leaves them (`fast/liveness.rs`);
//! - after the other allocators, [`update_live_ins`] sums each block up
//!   once as read-before-written and written units, solves on those, and
//!   names each live unit by the register the code names it with
//!   (`$xmm0`, not `$zmm0`), as LLVM's rewriter lists the registers it
//!   assigned.

use rustc_hash::FxHashMap as HashMap;

use super::dataflow::{BlockPreds, Worklist};
use crate::ir::{BlockLiveIn, Inst, MachineFunction, Operand, RegFlags, RegMask, RegRef};
use crate::target::{Reg, RegFlags as PhysFlags, RegUnit, TargetInfo};

/// A set of register units, one bit each.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct UnitSet(pub(crate) Vec<u64>);

impl UnitSet {
    /// An empty set able to hold `n` units.
    pub(crate) fn new(n: usize) -> UnitSet {
        UnitSet(vec![0; n.div_ceil(64)])
    }
    /// Whether `u` is in the set.
    #[inline]
    pub(crate) fn has(&self, u: RegUnit) -> bool {
        self.0[u.index() / 64] >> (u.index() % 64) & 1 != 0
    }
    /// Puts `u` into the set.
    #[inline]
    pub(crate) fn add(&mut self, u: RegUnit) {
        self.0[u.index() / 64] |= 1 << (u.index() % 64);
    }
    /// Takes `u` out of the set.
    #[inline]
    pub(crate) fn remove(&mut self, u: RegUnit) {
        self.0[u.index() / 64] &= !(1 << (u.index() % 64));
    }
    /// Takes unit `u` out of the set and puts it into `other`: what a
    /// definition does to the live and the written units, one word reached
    /// once.
    #[inline]
    fn move_to(&mut self, other: &mut UnitSet, u: RegUnit) {
        let bit = 1u64 << (u.index() % 64);
        self.0[u.index() / 64] &= !bit;
        other.0[u.index() / 64] |= bit;
    }
    /// Empties the set.
    pub(crate) fn clear(&mut self) {
        self.0.fill(0);
    }
    /// The units in the set (as indexes), in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + bit
                })
            })
        })
    }
}

/// Solves the units live into every block of `func`, backwards:
/// `live_in` holds `words` words per block, starting at most at the
/// solution (zero, or units each block reads before writing); a block's
/// live-in is `transfer` of the union of its successors' live-ins (`live`
/// is the set it turns from live-out into live-in). `transfer` must be
/// monotone; it may change the block (flags) and is called again whenever
/// a successor's live-in grows, so its last call for each block sees the
/// final live-out. `preds` are `func`'s predecessor lists.
pub(crate) fn solve_live_ins(
    func: &mut MachineFunction,
    preds: &BlockPreds,
    worklist: &mut Worklist,
    live_in: &mut [u64],
    live: &mut UnitSet,
    mut transfer: impl FnMut(&mut MachineFunction, usize, &mut UnitSet),
) {
    let nb = func.blocks.len();
    let words = live.0.len();
    worklist.run_backward(preds, nb, |b| {
        live.clear();
        for s in &func.blocks[b].succs {
            let k = s.block.index();
            if k < nb {
                for (a, &x) in live.0.iter_mut().zip(&live_in[k * words..(k + 1) * words]) {
                    *a |= x;
                }
            }
        }
        transfer(func, b, live);
        // Live-ins only grow (the transfer is monotone), so inequality
        // means new units.
        let mine = &mut live_in[b * words..(b + 1) * words];
        if live.0[..] != mine[..] {
            mine.copy_from_slice(&live.0);
            true
        } else {
            false
        }
    });
}

/// Registers naming the units of `set`, pushed onto `out`: for each unit,
/// the largest register whose units are all in the set (units of
/// `untracked` are never named). With `keep`, what `out` already names
/// stays and is not named again; without, `out` is emptied first (its
/// room is kept: most blocks of the allocated code need none, and those
/// that do mostly had as many in the input). `covered` is scratch space.
pub(crate) fn cover_widest(
    t: &TargetInfo<'_>,
    untracked: &[bool],
    set: &[u64],
    out: &mut Vec<BlockLiveIn>,
    keep: bool,
    covered: &mut UnitSet,
) {
    if !keep {
        out.clear();
    }
    if set.iter().all(|&w| w == 0) {
        return;
    }
    covered.clear();
    for l in out.iter() {
        for &u in t.units(l.reg) {
            covered.add(u);
        }
    }
    // Only the set's units matter: visit its bits word by word, in
    // increasing unit order (the order the registers are listed in).
    for wi in 0..set.len() {
        while let Some(bit) = {
            let w = set[wi] & !covered.0[wi];
            (w != 0).then(|| w.trailing_zeros() as usize)
        } {
            let u = RegUnit::new(wi * 64 + bit);
            if untracked[u.index()] {
                // Never named; leave it out of later visits.
                covered.add(u);
                continue;
            }
            let root = t.units[u.index()].root;
            let best = std::iter::once(root)
                .chain(t.super_regs(root).iter().copied())
                .filter(|&r| {
                    !t.reg(r).flags.contains(PhysFlags::ARTIFICIAL)
                        && t.units(r)
                            .iter()
                            .all(|&x| set[x.index() / 64] >> (x.index() % 64) & 1 != 0)
                })
                .max_by_key(|&r| t.units(r).len())
                .unwrap_or(root);
            for &x in t.units(best) {
                covered.add(x);
            }
            // `best` contains `u` (it is `root` or one of its supers).
            covered.add(u);
            out.push(BlockLiveIn {
                reg: best,
                lanes: None,
            });
        }
    }
}

/// Recomputes every block's live-in registers from the physical registers
/// its code and its successors read (reserved registers (`reserved`, by
/// register, on top of the table's) and constant registers are not
/// tracked), naming each live unit as the code names it.
pub fn update_live_ins(t: &TargetInfo<'_>, func: &mut MachineFunction, reserved: &[bool]) {
    let nu = t.units.len();
    let nb = func.blocks.len();
    let words = nu.div_ceil(64);
    let mut tracked = Tracked {
        reserved,
        known: vec![0; nu],
        named: vec![None; nu],
    };
    // 1. Per block, `words` words each: units read before written (gen)
    // and units written (kill); one flat vector for both and the live-ins,
    // so that the dataflow allocates nothing per block or per round.
    let mut sets = vec![0u64; 3 * nb * words];
    let (gen_, rest) = sets.split_at_mut(nb * words);
    let (kill, live_in) = rest.split_at_mut(nb * words);
    let mut live = UnitSet::new(nu);
    let mut written = UnitSet::new(nu);
    block_summaries(t, func, &mut tracked, gen_, kill, &mut live, &mut written);
    // 2. The live-ins, from the units each block reads first.
    live_in.copy_from_slice(gen_);
    let preds = BlockPreds::new(func);
    solve_live_ins(
        func,
        &preds,
        &mut Worklist::default(),
        live_in,
        &mut live,
        |_, b, live| {
            let r = b * words..(b + 1) * words;
            for ((w, g), k) in live.0.iter_mut().zip(&gen_[r.clone()]).zip(&kill[r]) {
                *w = g | (*w & !k);
            }
        },
    );
    // 3. The lists.
    name_live_ins(t, func, &tracked, live_in, &mut live, &mut written);
}

/// Step 1 of [`update_live_ins`]: per block, the units read before
/// written into `gen_` and the units written into `kill` (`words` words
/// per block); `live` and `written` are scratch sets. Notes on the way the
/// name each unit is used by.
fn block_summaries(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    tracked: &mut Tracked<'_>,
    gen_: &mut [u64],
    kill: &mut [u64],
    live: &mut UnitSet,
    written: &mut UnitSet,
) {
    let words = live.0.len();
    let mut clobbers = MaskUnits::default();
    for b in 0..func.blocks.len() {
        live.clear();
        written.clear();
        for &i in func.blocks[b].insts.iter().rev() {
            step_back(t, func, i, tracked, &mut clobbers, live, written);
        }
        gen_[b * words..(b + 1) * words].copy_from_slice(&live.0);
        kill[b * words..(b + 1) * words].copy_from_slice(&written.0);
    }
}

/// Step 3 of [`update_live_ins`]: every block's list from its live units
/// (`live_in`, `words` words per block). Each live unit is listed under
/// the name the code uses for it, when that register is wholly live
/// (`$xmm0` and `$d8`, as LLVM's rewriter lists the registers it
/// assigned, rather than `$zmm0` or the tuple `$z8_z9`, whose units are
/// the same); a unit without one under the largest wholly live register
/// holding it. `live` and `listed` are scratch sets.
fn name_live_ins(
    t: &TargetInfo<'_>,
    func: &mut MachineFunction,
    tracked: &Tracked<'_>,
    live_in: &[u64],
    live: &mut UnitSet,
    listed: &mut UnitSet,
) {
    let nu = t.units.len();
    let words = live.0.len();
    let is_reserved =
        |r: Reg| t.is_reserved(r) || tracked.reserved.get(r.index()).copied().unwrap_or(false);
    // Per unit, the registers that may be listed (neither reserved,
    // artificial nor constant, and with units) among its roots and their
    // super-registers, found when a block first needs them:
    // `cands[cand_at[u].0..cand_at[u].1]`, the pair `(1, 0)` while not
    // yet found. A unit is live into many blocks.
    let mut cand_at = vec![(1u32, 0u32); nu];
    // Room for a few registers a unit, so that the list is allocated once.
    let mut cands: Vec<Reg> = Vec::with_capacity(4 * nu);
    let listable = |r: Reg| {
        let d = t.reg(r);
        !is_reserved(r)
            && !d.flags.contains(PhysFlags::ARTIFICIAL)
            && !d.flags.contains(PhysFlags::CONSTANT)
            && !d.units.is_empty()
    };
    // The first block with each live unit set: blocks with the same set
    // get the same list (common after allocation, where values stay in
    // the same registers across many blocks).
    let mut first_with: HashMap<&[u64], usize> = HashMap::default();
    for b in 0..func.blocks.len() {
        let set = &live_in[b * words..(b + 1) * words];
        if let Some(&a) = first_with.get(set) {
            func.blocks[b].live_ins = func.blocks[a].live_ins.clone();
            continue;
        }
        first_with.insert(set, b);
        live.0.copy_from_slice(set);
        listed.clear();
        let mut list: Vec<BlockLiveIn> = Vec::new();
        for u in live.iter() {
            if listed.has(RegUnit::new(u)) {
                continue;
            }
            let wholly_live = |r: Reg| t.units(r).iter().all(|&v| live.has(v));
            let named = tracked.named[u].filter(|&n| listable(n) && wholly_live(n));
            let pick = named.or_else(|| {
                if cand_at[u].0 > cand_at[u].1 {
                    let start = cands.len();
                    for root in t.unit_roots(RegUnit::new(u)) {
                        for r in std::iter::once(root).chain(t.super_regs(root).iter().copied()) {
                            if listable(r) && !cands[start..].contains(&r) {
                                cands.push(r);
                            }
                        }
                    }
                    cand_at[u] = (start as u32, cands.len() as u32);
                }
                let (from, to) = cand_at[u];
                cands[from as usize..to as usize]
                    .iter()
                    .copied()
                    .find(|&r| {
                        wholly_live(r)
                            && !t
                                .super_regs(r)
                                .iter()
                                .any(|&s| listable(s) && wholly_live(s))
                    })
            });
            if let Some(reg) = pick {
                for &v in t.units(reg) {
                    listed.add(v);
                }
                list.push(BlockLiveIn { reg, lanes: None });
            }
        }
        list.sort_unstable_by_key(|l| l.reg);
        list.dedup_by_key(|l| l.reg);
        func.blocks[b].live_ins = list;
    }
}

/// The units each distinct call mask of a function clobbers (among the
/// tracked ones), computed on its first call: a function with many calls
/// of one convention tests every unit against the mask once, not once
/// per call.
#[derive(Default)]
struct MaskUnits(Vec<(RegMask, UnitSet)>);

/// What the scan learns of each unit over the whole function: whether it
/// is tracked (not untracked by the target, nor a unit of a register the
/// function reserves), found when first asked, since a function without
/// calls asks about few of a target's units; and the name the code uses
/// for it ([`note_name`]).
struct Tracked<'r> {
    /// The function's reserved registers, by register.
    reserved: &'r [bool],
    /// By unit: 0 not yet asked, 1 untracked, 2 tracked.
    known: Vec<u8>,
    /// By unit: the widest register an operand names with the unit first.
    named: Vec<Option<Reg>>,
}

impl Tracked<'_> {
    /// Whether unit `u` (of the target) is tracked.
    fn get(&mut self, t: &TargetInfo<'_>, u: usize) -> bool {
        match self.known[u] {
            0 => {
                let tracked = !super::intervals::unit_untracked_in(t, self.reserved, u);
                self.known[u] = 1 + u8::from(tracked);
                tracked
            }
            k => k == 2,
        }
    }
}

impl MaskUnits {
    /// The tracked units `m` clobbers.
    fn get(&mut self, t: &TargetInfo<'_>, tracked: &mut Tracked<'_>, m: &RegMask) -> &UnitSet {
        if let Some(k) = self.0.iter().position(|(x, _)| x == m) {
            return &self.0[k].1;
        }
        let nu = t.units.len();
        let mut units = UnitSet::new(nu);
        for u in 0..nu {
            if !tracked.get(t, u) {
                continue;
            }
            let clobbered = t.unit_roots(RegUnit::new(u)).any(|r| match m {
                RegMask::Named(s) => s.index() >= t.callee_saved.len() || !t.mask_preserves(*s, r),
                RegMask::Custom(list) => !list.contains(&r),
            });
            if clobbered {
                units.add(RegUnit::new(u));
            }
        }
        self.0.push((m.clone(), units));
        &self.0.last().expect("just pushed").1
    }
}

/// Records `p`, named by an operand, as the name of its first register
/// unit unless a wider register was named there: the name the live-in
/// lists use for a register whose super-registers share its units.
fn note_name(t: &TargetInfo<'_>, named: &mut [Option<Reg>], p: Reg) {
    let Some(u) = t.units(p).first() else {
        return;
    };
    let slot = &mut named[u.index()];
    match *slot {
        Some(n) if n == p => {}
        Some(n) if !t.super_regs(n).contains(&p) => {}
        _ => *slot = Some(p),
    }
}

/// Liveness across instruction `i`, backwards: its definitions end
/// liveness (and are recorded in `written`), its reads start it.
fn step_back(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    i: Inst,
    tracked: &mut Tracked<'_>,
    clobbers: &mut MaskUnits,
    live: &mut UnitSet,
    written: &mut UnitSet,
) {
    let inst = func.inst(i);
    for o in &inst.operands {
        match o {
            Operand::Reg(r) if r.is_def() => {
                if let RegRef::Phys(p) = r.reg
                    && p.index() < t.regs.len()
                {
                    let p = super::intervals::phys_operand_reg(t, p, r.sub);
                    note_name(t, &mut tracked.named, p);
                    for &u in t.units(p) {
                        live.move_to(written, u);
                    }
                }
            }
            Operand::RegMask(m) => {
                let c = clobbers.get(t, tracked, m);
                for ((l, k), x) in live.0.iter_mut().zip(written.0.iter_mut()).zip(&c.0) {
                    *l &= !x;
                    *k |= x;
                }
            }
            _ => {}
        }
    }
    for o in &inst.operands {
        if let Operand::Reg(r) = o
            && !r.is_def()
            && !r.flags.has(RegFlags::UNDEF)
            && !r.flags.has(RegFlags::DEBUG_USE)
            && let RegRef::Phys(p) = r.reg
            && p.index() < t.regs.len()
        {
            let p = super::intervals::phys_operand_reg(t, p, r.sub);
            note_name(t, &mut tracked.named, p);
            for &u in t.units(p) {
                if tracked.get(t, u.index()) {
                    live.add(u);
                }
            }
        }
    }
}
