//! Kill and dead flags and block live-ins of the allocated function, recomputed from physical-register liveness over register units.
//!
//! The allocator moves values around, so the input's flags no longer
//! describe the code. A backward dataflow over the CFG on register units
//! (reserved registers excluded: LLVM does not track them) gives the units
//! live at each block's start; the same backward walk over a block marks a
//! use `killed` when nothing it reads is live afterwards and a definition
//! `dead` when nothing it writes is read later. (Walking each block right
//! after it is allocated, while its operands are in the cache, walks most
//! blocks twice: registers such as `$mxcsr` are read and never written, so
//! they are live into nearly every block, and a block's successors mostly
//! come after it.)

use std::sync::OnceLock;

use super::cache::{FpTables, Scratch};
use crate::ir::{BlockLiveIn, MachineFunction, Operand, RegFlags, RegMask, RegRef};
use crate::target::{Reg, RegFlags as PhysFlags, RegUnit, TargetInfo};

/// Where the units of one register sit in a [`Units`] set: all in word
/// `word`, at `bits`; or spread over several words (`SPREAD`); or the
/// register is reserved or constant, so not tracked (`UNTRACKED`).
#[derive(Copy, Clone)]
pub(super) struct RegBits {
    pub word: u32,
    pub bits: u64,
}

impl RegBits {
    pub const SPREAD: u32 = u32::MAX;
    pub const UNTRACKED: u32 = u32::MAX - 1;

    /// The bits of `r` when `reserved` says whether it is tracked.
    pub fn of(t: &TargetInfo<'_>, r: Reg, reserved: bool) -> RegBits {
        if reserved {
            return RegBits {
                word: Self::UNTRACKED,
                bits: 0,
            };
        }
        let units = t.units(r);
        let word = units.first().map_or(0, |u| u.index() / 64);
        if units.iter().any(|u| u.index() / 64 != word) {
            return RegBits {
                word: Self::SPREAD,
                bits: 0,
            };
        }
        let bits = units.iter().fold(0u64, |b, u| b | 1 << (u.index() % 64));
        RegBits {
            word: word as u32,
            bits,
        }
    }
}

/// A set of register units.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Units(Vec<u64>);

impl Units {
    fn new(n: usize) -> Units {
        Units(vec![0; n.div_ceil(64)])
    }
    #[inline]
    fn has(&self, u: RegUnit) -> bool {
        self.0[u.index() / 64] >> (u.index() % 64) & 1 != 0
    }
    #[inline]
    fn add(&mut self, u: RegUnit) {
        self.0[u.index() / 64] |= 1 << (u.index() % 64);
    }
    #[inline]
    fn remove(&mut self, u: RegUnit) {
        self.0[u.index() / 64] &= !(1 << (u.index() % 64));
    }
    fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// Facts shared by the passes.
struct Ctx<'t, 'a> {
    t: &'t TargetInfo<'a>,
    /// Units of reserved or constant registers.
    untracked: &'t [bool],
    /// Per physical register: where its units are in a [`Units`] set, or
    /// that it is not tracked at all.
    bits: &'t [RegBits],
    /// Per named register mask: the tracked units it clobbers, so that a
    /// call costs a few word operations (filled on first use, kept with
    /// the target's tables).
    named_masks: &'t [OnceLock<Units>],
}

impl Ctx<'_, '_> {
    /// Whether a call with mask `m` clobbers unit `u`.
    fn mask_clobbers(&self, m: &RegMask, u: RegUnit) -> bool {
        let root = self.t.units[u.index()].root;
        match m {
            RegMask::Named(s) => !self.t.mask_preserves(*s, root),
            RegMask::Custom(l) => !l.iter().any(|&r| self.t.units(r).contains(&u)),
        }
    }

    /// The tracked units mask `m` clobbers.
    fn clobbered_units(&self, m: &RegMask) -> Units {
        let t = self.t;
        let mut set = Units::new(t.units.len());
        match m {
            // Every function with a call asks once per mask: the bit set
            // tested directly, not through `mask_clobbers` per unit.
            RegMask::Named(s) => {
                let mask = &t.callee_saved[s.index()].mask;
                for (u, (d, &untracked)) in t.units.iter().zip(self.untracked).enumerate() {
                    let r = d.root.index();
                    let preserved = mask.get(r / 32).is_some_and(|w| w >> (r % 32) & 1 != 0);
                    if !untracked && !preserved {
                        set.add(RegUnit::new(u));
                    }
                }
            }
            RegMask::Custom(_) => {
                for u in 0..t.units.len() {
                    let u = RegUnit::new(u);
                    if !self.untracked[u.index()] && self.mask_clobbers(m, u) {
                        set.add(u);
                    }
                }
            }
        }
        set
    }

    /// Applies `f` to the set of units mask `m` clobbers (named masks are
    /// computed at their first use and kept).
    fn with_clobbers(&mut self, m: &RegMask, f: impl FnOnce(&Units)) {
        match m {
            RegMask::Named(s) if s.index() < self.named_masks.len() => {
                f(self.named_masks[s.index()].get_or_init(|| self.clobbered_units(m)))
            }
            _ => f(&self.clobbered_units(m)),
        }
    }

    /// One instruction, backwards: `live` goes from after to before it;
    /// sets the operands' kill and dead flags on the way. (Listing the
    /// tracked operands first, to visit them alone, costs more than the
    /// short loops: most instructions have a few operands.) A
    /// register's units are tested and changed through its [`RegBits`]: a
    /// word operation, not a loop over its units.
    fn step(&mut self, ops: &mut [Operand], live: &mut Units) {
        // Every definition's flag from what is live after the instruction;
        // the units definitions take out are noted and taken out after the
        // loop, so that no definition sees another's. Nearly every
        // definition is a register in one word of the set: a second walk
        // over the operands is left for the rest (registers spread over
        // words, register masks, more than a few definitions).
        let mut out = [(0u32, 0u64); 4];
        let mut n_out = 0;
        let mut slow = false;
        for o in ops.iter_mut() {
            match o {
                Operand::Reg(r) if r.is_def() => {
                    let RegRef::Phys(p) = r.reg else { continue };
                    let Some(b) = self.bits.get(p.index()) else {
                        continue;
                    };
                    match b.word {
                        RegBits::UNTRACKED => {}
                        RegBits::SPREAD => {
                            let live_now = self.t.units(p).iter().any(|&u| live.has(u));
                            r.flags.set(RegFlags::DEAD, !live_now);
                            slow = true;
                        }
                        w => {
                            r.flags
                                .set(RegFlags::DEAD, live.0[w as usize] & b.bits == 0);
                            if n_out < out.len() {
                                out[n_out] = (w, b.bits);
                                n_out += 1;
                            } else {
                                slow = true;
                            }
                        }
                    }
                }
                Operand::RegMask(_) => slow = true,
                _ => {}
            }
        }
        if slow {
            for o in ops.iter() {
                match o {
                    Operand::Reg(r) if r.is_def() => {
                        if let RegRef::Phys(p) = r.reg {
                            self.change(p, live, false);
                        }
                    }
                    Operand::RegMask(m) => self.with_clobbers(m, |c| {
                        for (w, k) in live.0.iter_mut().zip(&c.0) {
                            *w &= !k;
                        }
                    }),
                    _ => {}
                }
            }
        } else {
            for &(w, bits) in &out[..n_out] {
                live.0[w as usize] &= !bits;
            }
        }
        for o in ops.iter_mut().rev() {
            let Operand::Reg(r) = o else { continue };
            if r.is_def() {
                continue;
            }
            let RegRef::Phys(p) = r.reg else { continue };
            let Some(live_now) = self.any_live(p, live) else {
                continue;
            };
            if r.flags.has(RegFlags::UNDEF) {
                r.flags.set(RegFlags::KILLED, false);
                continue;
            }
            r.flags.set(RegFlags::KILLED, !live_now);
            self.change(p, live, true);
        }
    }

    /// Whether a unit of `p` is in `live`; `None` when `p` is not tracked.
    #[inline]
    fn any_live(&self, p: Reg, live: &Units) -> Option<bool> {
        let b = self.bits.get(p.index())?;
        match b.word {
            RegBits::UNTRACKED => None,
            RegBits::SPREAD => Some(self.t.units(p).iter().any(|&u| live.has(u))),
            w => Some(live.0[w as usize] & b.bits != 0),
        }
    }

    /// Adds the units of `p` to `live` (`add`) or takes them out, when `p`
    /// is tracked.
    #[inline]
    fn change(&self, p: Reg, live: &mut Units, add: bool) {
        let Some(b) = self.bits.get(p.index()) else {
            return;
        };
        match b.word {
            RegBits::UNTRACKED => {}
            RegBits::SPREAD => {
                for &u in self.t.units(p) {
                    if add {
                        live.add(u);
                    } else {
                        live.remove(u);
                    }
                }
            }
            w if add => live.0[w as usize] |= b.bits,
            w => live.0[w as usize] &= !b.bits,
        }
    }

    /// Registers naming the units of `set`, pushed onto `out`: for each
    /// unit, the largest register whose units are all in the set. With
    /// `keep`, what `out` already names stays and is not named again;
    /// without, `out` is emptied first (its room is kept: most blocks of
    /// the allocated code need none, and those that do mostly had as many
    /// in the input). `covered` is scratch space.
    fn cover(&self, set: &[u64], out: &mut Vec<BlockLiveIn>, keep: bool, covered: &mut Units) {
        let t = self.t;
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
                if self.untracked[u.index()] {
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
}

/// Kill/dead flags and block live-ins of `func` (physical registers only),
/// recomputed over the allocated code by [`Liveness::finish`]. The entry
/// block keeps its live-ins (argument registers) and gains any other
/// register read before being written.
pub(super) struct Liveness<'t, 'a> {
    cx: Ctx<'t, 'a>,
    /// Predecessors as compressed rows (the reader does not fill `preds`).
    pred_start: Vec<u32>,
    preds: Vec<u32>,
    /// Live-ins of all blocks in one flat array (`words` per block): one
    /// allocation instead of one per block.
    live_in: Vec<u64>,
    words: usize,
    /// Per block: in `work`, to be walked again.
    queued: Vec<bool>,
    work: Vec<usize>,
    live: Units,
}

impl<'t, 'a> Liveness<'t, 'a> {
    /// Ready for `func`. `tables` says which registers are not tracked
    /// (reserved in this function, or constant): allocation adds no call
    /// and no variable-sized object, so it describes the allocated function
    /// too. The CFG is read now; allocation leaves it unchanged.
    pub fn new(
        t: &'t TargetInfo<'a>,
        func: &MachineFunction,
        tables: &'t FpTables,
        scratch: &mut Scratch,
    ) -> Self {
        let nu = t.units.len();
        let cx = Ctx {
            t,
            untracked: &tables.untracked,
            bits: &tables.bits,
            named_masks: &tables.clobbers,
        };
        let nb = func.blocks.len();
        let mut pred_start = std::mem::take(&mut scratch.pred_start);
        pred_start.clear();
        pred_start.resize(nb + 1, 0);
        for b in &func.blocks {
            for s in &b.succs {
                pred_start[s.block.index() + 1] += 1;
            }
        }
        for b in 0..nb {
            pred_start[b + 1] += pred_start[b];
        }
        // Each row is filled from its end backwards (so in increasing
        // block order), with `work`'s buffer as the cursors: it is not
        // needed before `finish`.
        let mut preds = std::mem::take(&mut scratch.preds);
        preds.clear();
        preds.resize(pred_start[nb] as usize, 0);
        let mut fill = std::mem::take(&mut scratch.work);
        fill.clear();
        fill.extend(pred_start[1..].iter().map(|&x| x as usize));
        for (b, data) in func.blocks.iter().enumerate().rev() {
            for s in data.succs.iter().rev() {
                let k = &mut fill[s.block.index()];
                *k -= 1;
                preds[*k] = b as u32;
            }
        }
        fill.clear();
        let words = nu.div_ceil(64);
        let mut live_in = std::mem::take(&mut scratch.live_in);
        live_in.clear();
        live_in.resize(nb * words, 0);
        let mut queued = std::mem::take(&mut scratch.queued);
        queued.clear();
        queued.resize(nb, false);
        Liveness {
            cx,
            pred_start,
            preds,
            live_in,
            words,
            queued,
            work: fill,
            live: {
                let mut l = std::mem::take(&mut scratch.live_units);
                l.clear();
                l.resize(words, 0);
                Units(l)
            },
        }
    }

    /// Walks block `b` backwards from the live-ins its successors have now,
    /// setting its flags and its live-in. A block is walked again only when
    /// the live-in of a successor grows after its walk, so the flags always
    /// end up computed from the final (least fixed point) live-outs.
    fn walk(&mut self, func: &mut MachineFunction, b: usize) {
        let words = self.words;
        self.queued[b] = false;
        self.live.clear();
        for s in &func.blocks[b].succs {
            let si = s.block.index() * words;
            for (a, &x) in self.live.0.iter_mut().zip(&self.live_in[si..si + words]) {
                *a |= x;
            }
        }
        let insts = std::mem::take(&mut func.blocks[b].insts);
        for &i in insts.iter().rev() {
            self.cx
                .step(&mut func.insts[i.index()].operands, &mut self.live);
        }
        func.blocks[b].insts = insts;
        // Live-ins only grow (the transfer is monotone), so inequality
        // means new units.
        let mine = &mut self.live_in[b * words..(b + 1) * words];
        if self.live.0[..] != mine[..] {
            mine.copy_from_slice(&self.live.0);
            for &p in &self.preds[self.pred_start[b] as usize..self.pred_start[b + 1] as usize] {
                let p = p as usize;
                if !self.queued[p] {
                    self.queued[p] = true;
                    self.work.push(p);
                }
            }
        }
    }

    /// Walks every block, and again those whose successors' live-ins grew
    /// since, until nothing changes; then writes the live-in lists. Most
    /// blocks of allocated code have nothing live across their edges, so
    /// nearly every block is walked once; separate gen/kill sets and a
    /// second flag pass would cost two walks per block.
    pub fn finish(mut self, func: &mut MachineFunction, scratch: &mut Scratch) {
        let nb = func.blocks.len();
        // Blocks are taken from the end of the layout first (successors
        // tend to come later), and re-queued ones next.
        self.work.extend(0..nb);
        self.queued.fill(true);
        while let Some(b) = self.work.pop() {
            self.walk(func, b);
        }

        let words = self.words;
        let cx = &self.cx;
        let mut covered = Units(std::mem::take(&mut scratch.covered));
        covered.0.clear();
        covered.0.resize(words, 0);
        for b in 0..nb {
            let live_b = &self.live_in[b * words..(b + 1) * words];
            // The entry block keeps its live-ins and gains the others.
            cx.cover(live_b, &mut func.blocks[b].live_ins, b == 0, &mut covered);
        }
        scratch.covered = covered.0;
        scratch.live_units = self.live.0;
        scratch.pred_start = self.pred_start;
        scratch.preds = self.preds;
        scratch.live_in = self.live_in;
        scratch.queued = self.queued;
        scratch.work = self.work;
    }
}
