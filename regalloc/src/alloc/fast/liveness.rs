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
//! come after it.) The solve, the unit sets and the naming of live-ins are
//! the shared ones of `analysis::phys_liveness`; this file is Fast's block
//! transfer, which sets the flags.

use std::sync::OnceLock;

use super::cache::{FpTables, Scratch};
use crate::analysis::dataflow::{BlockPreds, Worklist};
/// The unit sets of `cache::FpTables`'s clobber tables are the shared ones.
pub(super) use crate::analysis::phys_liveness::UnitSet as Units;
use crate::analysis::phys_liveness::{cover_widest, solve_live_ins};
use crate::ir::{MachineFunction, Operand, RegFlags, RegMask, RegRef};
use crate::target::{Reg, RegUnit, TargetInfo};

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
}

/// Kill/dead flags and block live-ins of `func` (physical registers only),
/// recomputed over the allocated code by [`Liveness::finish`]. The entry
/// block keeps its live-ins (argument registers) and gains any other
/// register read before being written.
pub(super) struct Liveness<'t, 'a> {
    cx: Ctx<'t, 'a>,
    /// Predecessors (the reader does not fill `preds`).
    preds: BlockPreds,
    /// Live-ins of all blocks in one flat array (`words` per block): one
    /// allocation instead of one per block.
    live_in: Vec<u64>,
    worklist: Worklist,
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
        let cx = Ctx {
            t,
            untracked: &tables.untracked,
            bits: &tables.bits,
            named_masks: &tables.clobbers,
        };
        let mut preds = BlockPreds::from_parts(
            std::mem::take(&mut scratch.pred_start),
            std::mem::take(&mut scratch.preds),
        );
        preds.compute(func);
        let words = t.units.len().div_ceil(64);
        let mut live_in = std::mem::take(&mut scratch.live_in);
        live_in.clear();
        live_in.resize(func.blocks.len() * words, 0);
        let mut live = std::mem::take(&mut scratch.live_units);
        live.clear();
        live.resize(words, 0);
        Liveness {
            cx,
            preds,
            live_in,
            worklist: Worklist::from_parts(
                std::mem::take(&mut scratch.queued),
                std::mem::take(&mut scratch.work),
            ),
            live: Units(live),
        }
    }

    /// Walks every block backwards from the live-ins its successors have
    /// then, setting its flags and its live-in, and again those whose
    /// successors' live-ins grew since, until nothing changes (so the
    /// flags end up computed from the final, least fixed point,
    /// live-outs); then writes the live-in lists. Most blocks of allocated
    /// code have nothing live across their edges, so nearly every block is
    /// walked once; separate gen/kill sets and a second flag pass would
    /// cost two walks per block.
    pub fn finish(self, func: &mut MachineFunction, scratch: &mut Scratch) {
        let Liveness {
            mut cx,
            preds,
            mut live_in,
            mut worklist,
            mut live,
        } = self;
        solve_live_ins(
            func,
            &preds,
            &mut worklist,
            &mut live_in,
            &mut live,
            |func, b, live| {
                let insts = std::mem::take(&mut func.blocks[b].insts);
                for &i in insts.iter().rev() {
                    cx.step(&mut func.insts[i.index()].operands, live);
                }
                func.blocks[b].insts = insts;
            },
        );
        let words = live.0.len();
        let mut covered = Units(std::mem::take(&mut scratch.covered));
        covered.0.clear();
        covered.0.resize(words, 0);
        for b in 0..func.blocks.len() {
            let live_b = &live_in[b * words..(b + 1) * words];
            // The entry block keeps its live-ins and gains the others.
            cover_widest(
                cx.t,
                cx.untracked,
                live_b,
                &mut func.blocks[b].live_ins,
                b == 0,
                &mut covered,
            );
        }
        scratch.covered = covered.0;
        scratch.live_units = live.0;
        (scratch.pred_start, scratch.preds) = preds.into_parts();
        scratch.live_in = live_in;
        (scratch.queued, scratch.work) = worklist.into_parts();
    }
}
