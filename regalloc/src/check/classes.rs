//! The checker's own reading of which registers may hold a virtual register: its class, or a larger class that stores its values alike, written apart from the allocator's class inflation (`alloc::inflate`).
//!
//! An allocator may give a piece of a split register a larger class than
//! the register's own, once the piece no longer meets the instruction that
//! narrowed the class (LLVM's `recomputeRegClass`): a byte register that
//! no longer needs a high half, a pointer no longer used as an index. The
//! larger class must keep the value as the original class does. The
//! checker does not ask which class the allocator chose; it asks whether
//! the register it chose is a home for the value:
//!
//! - a register is a home for a value of class `c` when some allocatable
//!   class containing every register of `c` contains it and stores a value
//!   as `c` does: the same register size, spill-slot size and lanes, and
//!   spill and reload instructions for both or for neither;
//! - what each instruction accepts is checked apart, operand by operand, on
//!   the physical register the operand names (`walk/regs.rs`).

use std::cell::OnceCell;

use crate::target::{Reg, RegClass, TargetInfo, bits};

/// Per class, the registers that are homes for its values, found on first
/// need (a function uses few of a target's classes).
pub(super) struct Homes {
    per_class: Vec<OnceCell<Vec<u32>>>,
}

impl Homes {
    /// Homes for the classes of `t`, none computed yet.
    pub fn new(t: &TargetInfo<'_>) -> Homes {
        Homes {
            per_class: (0..t.classes.len()).map(|_| OnceCell::new()).collect(),
        }
    }

    /// Whether `r` is a home for a value of class `c`.
    pub fn holds(&self, t: &TargetInfo<'_>, c: RegClass, r: Reg) -> bool {
        self.per_class
            .get(c.index())
            .is_some_and(|cell| bits::test(cell.get_or_init(|| homes_of(t, c)), r.index()))
    }
}

/// The registers of every class that stores values of `c` alike.
fn homes_of(t: &TargetInfo<'_>, c: RegClass) -> Vec<u32> {
    let mut set = vec![0u32; bits::words_for(t.regs.len())];
    for s in (0..t.classes.len()).map(RegClass::new) {
        if stores_alike(t, c, s) {
            for (w, m) in set.iter_mut().zip(t.class(s).member_bits.iter()) {
                *w |= m;
            }
        }
    }
    set
}

/// Whether `s` is an allocatable class holding all of `c` and keeping a
/// value as `c` keeps it.
fn stores_alike(t: &TargetInfo<'_>, c: RegClass, s: RegClass) -> bool {
    let (cd, sd) = (t.class(c), t.class(s));
    sd.allocatable
        && t.is_sub_class(c, s)
        && sd.reg_size == cd.reg_size
        && sd.spill_size == cd.spill_size
        && sd.lane_mask == cd.lane_mask
        && sd.spill.is_empty() == cd.spill.is_empty()
        && sd.reload.is_empty() == cd.reload.is_empty()
}
