//! Kill and dead flags and block live-ins of the allocated function, recomputed from physical-register liveness over register units.
//!
//! The allocator moves values around, so the input's flags no longer
//! describe the code. A backward dataflow over the CFG on register units
//! (reserved registers excluded: LLVM does not track them) gives the units
//! live at each block's start; one more backward walk per block then marks
//! a use `killed` when nothing it reads is live afterwards and a definition
//! `dead` when nothing it writes is read later.

use crate::ir::{BlockLiveIn, MachineFunction, Operand, RegFlags, RegMask, RegRef};
use crate::target::{Reg, RegFlags as PhysFlags, RegUnit, TargetInfo};

/// A set of register units.
#[derive(Clone, PartialEq, Eq)]
struct Units(Vec<u64>);

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
    untracked: Vec<bool>,
    /// Per physical register: not tracked at all.
    reserved: Vec<bool>,
    /// Per named register mask used in the function: the tracked units it
    /// clobbers, so that a call costs a few word operations (filled on first
    /// use).
    named_masks: Vec<Option<Units>>,
}

impl Ctx<'_, '_> {
    #[inline]
    fn tracked(&self, r: Reg) -> bool {
        !self.reserved.get(r.index()).copied().unwrap_or(true)
    }

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
        let mut set = Units::new(self.t.units.len());
        for u in 0..self.t.units.len() {
            let u = RegUnit::new(u);
            if !self.untracked[u.index()] && self.mask_clobbers(m, u) {
                set.add(u);
            }
        }
        set
    }

    /// Applies `f` to the set of units mask `m` clobbers (named masks are
    /// computed at their first use and kept).
    fn with_clobbers(&mut self, m: &RegMask, f: impl FnOnce(&Units)) {
        match m {
            RegMask::Named(s) if s.index() < self.named_masks.len() => {
                if self.named_masks[s.index()].is_none() {
                    self.named_masks[s.index()] = Some(self.clobbered_units(m));
                }
                if let Some(set) = &self.named_masks[s.index()] {
                    f(set);
                }
            }
            _ => f(&self.clobbered_units(m)),
        }
    }

    /// One instruction, backwards: `live` goes from after to before it.
    /// With `mark`, also sets the operands' kill and dead flags.
    fn step(&mut self, ops: &mut [Operand], live: &mut Units, mark: bool) {
        let t = self.t;
        for o in ops.iter_mut() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Phys(p) = r.reg else { continue };
            if !r.is_def() || !self.tracked(p) {
                continue;
            }
            if mark {
                let dead = !t.units(p).iter().any(|&u| live.has(u));
                r.flags.set(RegFlags::DEAD, dead);
            }
        }
        for o in ops.iter() {
            match o {
                Operand::Reg(r) if r.is_def() => {
                    if let RegRef::Phys(p) = r.reg
                        && self.tracked(p)
                    {
                        for &u in t.units(p) {
                            live.remove(u);
                        }
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
        for o in ops.iter_mut().rev() {
            let Operand::Reg(r) = o else { continue };
            if r.is_def() {
                continue;
            }
            let RegRef::Phys(p) = r.reg else { continue };
            if !self.tracked(p) {
                continue;
            }
            if r.flags.has(RegFlags::UNDEF) {
                if mark {
                    r.flags.set(RegFlags::KILLED, false);
                }
                continue;
            }
            if mark {
                let killed = !t.units(p).iter().any(|&u| live.has(u));
                r.flags.set(RegFlags::KILLED, killed);
            }
            for &u in t.units(p) {
                live.add(u);
            }
        }
    }

    /// Registers naming the units of `set`: for each unit, the largest
    /// register whose units are all in the set. `covered` is scratch space.
    fn cover(&self, set: &[u64], already: &[Reg], covered: &mut Units) -> Vec<Reg> {
        let t = self.t;
        let mut out = Vec::new();
        if set.iter().all(|&w| w == 0) {
            return out;
        }
        covered.clear();
        for &r in already {
            for &u in t.units(r) {
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
                out.push(best);
            }
        }
        out
    }
}

/// Recomputes kill/dead flags and block live-ins of `func` (physical
/// registers only). The entry block keeps its live-ins (argument
/// registers) and gains any other register read before being written.
/// `reserved` is the allocator's per-register "not tracked" table (reserved
/// in this function, or constant): allocation adds no call and no
/// variable-sized object, so it still describes the allocated function.
pub(super) fn recompute(t: &TargetInfo<'_>, func: &mut MachineFunction, reserved: Vec<bool>) {
    let nu = t.units.len();
    let mut untracked = vec![false; nu];
    for (r, &res) in reserved.iter().enumerate() {
        if res {
            for &u in t.units(Reg::new(r)) {
                untracked[u.index()] = true;
            }
        }
    }
    let mut cx = Ctx {
        t,
        untracked,
        reserved,
        named_masks: vec![None; t.callee_saved.len()],
    };
    let nb = func.blocks.len();

    // Predecessors as compressed rows (the reader does not fill `preds`).
    let mut pred_start = vec![0u32; nb + 1];
    for b in &func.blocks {
        for s in &b.succs {
            pred_start[s.block.index() + 1] += 1;
        }
    }
    for b in 0..nb {
        pred_start[b + 1] += pred_start[b];
    }
    let mut fill = pred_start.clone();
    let mut preds = vec![0u32; pred_start[nb] as usize];
    for (b, data) in func.blocks.iter().enumerate() {
        for s in &data.succs {
            let k = &mut fill[s.block.index()];
            preds[*k as usize] = b as u32;
            *k += 1;
        }
    }

    // One backward walk per block sets the flags from the block's live-out
    // and yields its live-in. A block is walked again only when the live-in
    // of a successor grew, so the flags always end up computed from the
    // final (least fixed point) live-outs. Most blocks of allocated code
    // have nothing live across their edges, so nearly every block is walked
    // once; separate gen/kill sets and a second flag pass would cost two
    // walks per block. Blocks are taken from the end of the layout first
    // (successors tend to come later), and re-queued ones next.
    // Live-ins of all blocks in one flat array (`words` per block): one
    // allocation instead of one per block.
    let words = nu.div_ceil(64);
    let mut live_in = vec![0u64; nb * words];
    let mut queued = vec![true; nb];
    let mut work: Vec<usize> = (0..nb).collect();
    let mut live = Units::new(nu);
    while let Some(b) = work.pop() {
        queued[b] = false;
        live.clear();
        for s in &func.blocks[b].succs {
            let si = s.block.index() * words;
            for (a, &x) in live.0.iter_mut().zip(&live_in[si..si + words]) {
                *a |= x;
            }
        }
        let insts = std::mem::take(&mut func.blocks[b].insts);
        for &i in insts.iter().rev() {
            cx.step(&mut func.insts[i.index()].operands, &mut live, true);
        }
        func.blocks[b].insts = insts;
        // Live-ins only grow (the transfer is monotone), so inequality
        // means new units.
        let mine = &mut live_in[b * words..(b + 1) * words];
        if live.0[..] != mine[..] {
            mine.copy_from_slice(&live.0);
            for &p in &preds[pred_start[b] as usize..pred_start[b + 1] as usize] {
                let p = p as usize;
                if !queued[p] {
                    queued[p] = true;
                    work.push(p);
                }
            }
        }
    }

    // Live-in lists.
    let mut covered = Units::new(nu);
    for b in 0..nb {
        let live_b = &live_in[b * words..(b + 1) * words];
        let keep: Vec<Reg> = if b == 0 {
            func.blocks[b].live_ins.iter().map(|l| l.reg).collect()
        } else {
            Vec::new()
        };
        let extra = cx.cover(live_b, &keep, &mut covered);
        if b == 0 {
            func.blocks[b].live_ins.extend(
                extra
                    .into_iter()
                    .map(|reg| BlockLiveIn { reg, lanes: None }),
            );
        } else {
            func.blocks[b].live_ins = extra
                .into_iter()
                .map(|reg| BlockLiveIn { reg, lanes: None })
                .collect();
        }
    }
}
