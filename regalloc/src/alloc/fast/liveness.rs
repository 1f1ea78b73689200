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
    fn union_with(&mut self, o: &Units) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
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
    /// clobbers, so that a call costs a few word operations.
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

    /// Applies `f` to the set of units mask `m` clobbers (cached for named masks).
    fn with_clobbers(&self, m: &RegMask, f: impl FnOnce(&Units)) {
        match m {
            RegMask::Named(s) => match self.named_masks.get(s.index()) {
                Some(Some(set)) => f(set),
                _ => f(&self.clobbered_units(m)),
            },
            RegMask::Custom(_) => f(&self.clobbered_units(m)),
        }
    }

    /// One instruction, backwards: `live` goes from after to before it.
    /// With `mark`, also sets the operands' kill and dead flags.
    fn step(&self, ops: &mut [Operand], live: &mut Units, mark: bool) {
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
    /// register whose units are all in the set.
    fn cover(&self, set: &Units, already: &[Reg]) -> Vec<Reg> {
        let t = self.t;
        let mut covered = Units::new(t.units.len());
        for &r in already {
            for &u in t.units(r) {
                covered.add(u);
            }
        }
        let mut out = Vec::new();
        for u in 0..t.units.len() {
            let u = RegUnit::new(u);
            if !set.has(u) || covered.has(u) || self.untracked[u.index()] {
                continue;
            }
            let root = t.units[u.index()].root;
            let best = std::iter::once(root)
                .chain(t.super_regs(root).iter().copied())
                .filter(|&r| {
                    !t.reg(r).flags.contains(PhysFlags::ARTIFICIAL)
                        && t.units(r).iter().all(|&x| set.has(x))
                })
                .max_by_key(|&r| t.units(r).len())
                .unwrap_or(root);
            for &x in t.units(best) {
                covered.add(x);
            }
            out.push(best);
        }
        out
    }
}

/// Recomputes kill/dead flags and block live-ins of `func` (physical
/// registers only). The entry block keeps its live-ins (argument
/// registers) and gains any other register read before being written.
pub(super) fn recompute(t: &TargetInfo<'_>, func: &mut MachineFunction) {
    let nu = t.units.len();
    let mut untracked = vec![false; nu];
    let reserved: Vec<bool> = crate::alloc::order::function_reserved(t, func)
        .into_iter()
        .enumerate()
        .map(|(r, res)| res || t.reg(Reg::new(r)).flags.contains(PhysFlags::CONSTANT))
        .collect();
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
        named_masks: Vec::new(),
    };
    let mut named = vec![None; t.callee_saved.len()];
    for b in &func.blocks {
        for &i in &b.insts {
            for o in &func.insts[i.index()].operands {
                if let Operand::RegMask(m @ RegMask::Named(s)) = o
                    && named
                        .get(s.index())
                        .is_some_and(|x: &Option<Units>| x.is_none())
                {
                    named[s.index()] = Some(cx.clobbered_units(m));
                }
            }
        }
    }
    cx.named_masks = named;
    let nb = func.blocks.len();

    // Per block: units read before written (gen) and units written (kill).
    let mut upward = vec![Units::new(nu); nb];
    let mut kill = vec![Units::new(nu); nb];
    let mut live = Units::new(nu);
    for b in 0..nb {
        live.clear();
        let insts = std::mem::take(&mut func.blocks[b].insts);
        for &i in insts.iter().rev() {
            let ops = &mut func.insts[i.index()].operands;
            for o in ops.iter() {
                match o {
                    Operand::Reg(r) if r.is_def() => {
                        if let RegRef::Phys(p) = r.reg
                            && cx.tracked(p)
                        {
                            for &u in t.units(p) {
                                kill[b].add(u);
                            }
                        }
                    }
                    Operand::RegMask(m) => cx.with_clobbers(m, |c| {
                        kill[b].union_with(c);
                    }),
                    _ => {}
                }
            }
            cx.step(ops, &mut live, false);
        }
        func.blocks[b].insts = insts;
        upward[b] = live.clone();
    }

    // Fixed point: live_in = gen ∪ (live_out − kill).
    let mut live_in = upward;
    let mut changed = true;
    let mut out = Units::new(nu);
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            out.clear();
            for s in &func.blocks[b].succs {
                out.union_with(&live_in[s.block.index()]);
            }
            for (w, k) in out.0.iter_mut().zip(&kill[b].0) {
                *w &= !k;
            }
            changed |= live_in[b].union_with(&out);
        }
    }

    // Flags, block by block.
    for b in 0..nb {
        live.clear();
        for s in 0..func.blocks[b].succs.len() {
            let sb = func.blocks[b].succs[s].block.index();
            live.union_with(&live_in[sb]);
        }
        let insts = std::mem::take(&mut func.blocks[b].insts);
        for &i in insts.iter().rev() {
            cx.step(&mut func.insts[i.index()].operands, &mut live, true);
        }
        func.blocks[b].insts = insts;
    }

    // Live-in lists.
    for (b, live_b) in live_in.iter().enumerate() {
        let keep: Vec<Reg> = if b == 0 {
            func.blocks[b].live_ins.iter().map(|l| l.reg).collect()
        } else {
            Vec::new()
        };
        let extra = cx.cover(live_b, &keep);
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
