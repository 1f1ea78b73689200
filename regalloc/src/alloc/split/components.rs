//! Connected components of a live range: the groups of values that must share one register, so that a split product made of disconnected pieces becomes one register per piece (LLVM's `ConnectedVNInfoEqClasses`).
//!
//! After a split, one interval of the plan may cover pieces of the value
//! that never meet: the remainder of a region split, for instance, lives in
//! the cold blocks before a loop and in the cold blocks after it. As one
//! register those pieces share a register, a weight (an average of hot and
//! cold uses) and a fate. Two values of a range are connected when one
//! flows into the other: a phi-def is connected to the values live out of
//! its predecessors, and a definition that reads the register (a two-address
//! instruction, a sub-register write) to the value live just before it.
//! Each class of connected values can take a register of its own.

use crate::analysis::cfg::Cfg;
use crate::analysis::{LiveRange, Slot, SlotIndex, SlotIndexes};

/// The connected classes of one range's values.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Components {
    /// The class of each value, by value number; classes are numbered in
    /// the order of their first value, so value 0 is always in class 0.
    pub class_of: Vec<u32>,
    /// How many classes there are.
    pub count: u32,
}

impl Components {
    /// Classifies the values of `range`.
    pub fn of(range: &LiveRange, slots: &SlotIndexes, cfg: &Cfg) -> Components {
        let n = range.valnos.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        for (k, vn) in range.valnos.iter().enumerate() {
            if vn.is_phi() {
                let Some(b) = slots.block_of(vn.def) else {
                    continue;
                };
                for &p in cfg.preds.get(b.index()).map_or(&[][..], |x| x.as_slice()) {
                    let end = slots.block_end(p);
                    if let Some(s) = range.segment_at(SlotIndex(end.0 - 1)) {
                        union(&mut parent, k as u32, s.valno);
                    }
                }
            } else if vn.def.0 > 0
                && let Some(s) = range.segment_at(SlotIndex(vn.def.0 - 1))
            {
                union(&mut parent, k as u32, s.valno);
            }
        }
        let mut class_of = vec![u32::MAX; n];
        let mut root_class = vec![u32::MAX; n];
        let mut count = 0;
        for (k, class) in class_of.iter_mut().enumerate() {
            let r = find(&mut parent, k as u32) as usize;
            if root_class[r] == u32::MAX {
                root_class[r] = count;
                count += 1;
            }
            *class = root_class[r];
        }
        Components { class_of, count }
    }

    /// The class of an instruction at `at` that reads or (`defines`)
    /// writes the register: the class of the value it defines, else of the
    /// value it reads; `None` for a read of no value (an `undef` read).
    pub fn class_at(&self, range: &LiveRange, at: SlotIndex, defines: bool) -> Option<u32> {
        let probe = if defines {
            at.with(Slot::Register)
        } else {
            at.with(Slot::Block)
        };
        range
            .segment_at(probe)
            .or_else(|| {
                defines
                    .then(|| range.segment_at(at.with(Slot::Dead)))
                    .flatten()
            })
            .map(|s| self.class_of[s.valno as usize])
    }
}

/// The representative of `x`'s set, with path halving.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Joins the sets of `a` and `b`, the smaller representative winning so
/// that classes keep the order of their first values.
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        parent[hi as usize] = lo;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, VReg};
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    /// `%0` is defined and read in bb.0, defined again in bb.1, and
    /// redefined by a two-address `ADD_ri` before its last read; bb.3 merges
    /// the values of bb.1 and bb.2.
    const PIECES: &str = "---
name: pieces
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
    $r2 = COPY %0
    JEQ_ri %1, 0, %bb.2
    JMP %bb.1
  bb.1:
    successors: %bb.3
    %0:gpr = LDD %1, 8
    JMP %bb.3
  bb.2:
    successors: %bb.3
    %0:gpr = LDD %1, 16
    %0:gpr = ADD_ri %0, 1
    JMP %bb.3
  bb.3:
    $r0 = COPY %0
    RET implicit $r0
...
";

    #[test]
    fn values_that_flow_into_each_other_share_a_class() {
        let f = read(PIECES);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let range = &an.intervals.vreg(VReg(0)).unwrap().range;
        let c = Components::of(range, &an.intervals.slots, &an.flow.cfg);
        // bb.0's value is read in bb.0 only; bb.1's, bb.2's (through the
        // two-address add) and the merge in bb.3 form one piece.
        assert_eq!(c.count, 2);
        let slots = &an.intervals.slots;
        let at = |b: usize, k: usize| slots.inst(f.block(Block::new(b)).insts[k]).unwrap();
        assert_eq!(c.class_at(range, at(0, 1), true), Some(0));
        assert_eq!(c.class_at(range, at(0, 2), false), Some(0));
        assert_eq!(c.class_at(range, at(1, 0), true), Some(1));
        assert_eq!(c.class_at(range, at(2, 0), true), Some(1));
        assert_eq!(c.class_at(range, at(2, 1), true), Some(1));
        assert_eq!(c.class_at(range, at(3, 0), false), Some(1));
    }

    #[test]
    fn one_value_is_one_class() {
        let f = read(PIECES);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let range = &an.intervals.vreg(VReg(1)).unwrap().range;
        let c = Components::of(range, &an.intervals.slots, &an.flow.cfg);
        assert_eq!((c.count, c.class_of.clone()), (1, vec![0]));
    }
}
