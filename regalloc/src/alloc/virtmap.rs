//! `VirtRegMap`: the physical register each virtual register is given (the spiller keeps its own slots).
//!
//! Besides the assignment it remembers, for registers the spiller created,
//! the original virtual register whose value they carry (LLVM's
//! `getOriginal`), which the rewriter needs to describe rematerializations.

use crate::ir::VReg;
use crate::target::Reg;

/// The location of every virtual register.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct VirtRegMap {
    phys: Vec<Option<Reg>>,
    original: Vec<Option<VReg>>,
}

impl VirtRegMap {
    /// A map for a function with `n` virtual registers (it grows as
    /// registers are added).
    pub fn new(n: usize) -> VirtRegMap {
        VirtRegMap {
            phys: vec![None; n],
            original: vec![None; n],
        }
    }

    fn grow(&mut self, v: VReg) {
        if self.phys.len() <= v.index() {
            let n = v.index() + 1;
            self.phys.resize(n, None);
            self.original.resize(n, None);
        }
    }

    /// The physical register of `v`, if assigned.
    #[inline]
    pub fn phys(&self, v: VReg) -> Option<Reg> {
        self.phys.get(v.index()).copied().flatten()
    }

    /// Assigns `v` to `r`.
    pub fn assign(&mut self, v: VReg, r: Reg) {
        self.grow(v);
        self.phys[v.index()] = Some(r);
    }

    /// Takes `v`'s register away.
    pub fn unassign(&mut self, v: VReg) {
        if let Some(p) = self.phys.get_mut(v.index()) {
            *p = None;
        }
    }

    /// The original register whose value `v` carries (`v` itself for
    /// registers of the input).
    pub fn original(&self, v: VReg) -> VReg {
        self.original.get(v.index()).copied().flatten().unwrap_or(v)
    }

    /// Records that new register `v` carries the value of `orig`.
    pub fn set_original(&mut self, v: VReg, orig: VReg) {
        self.grow(v);
        let root = self.original(orig);
        self.original[v.index()] = Some(root);
    }
}
