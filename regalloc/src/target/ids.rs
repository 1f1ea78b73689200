//! Index newtypes for target tables: registers, register units, classes, sub-register indices and opcodes.
//!
//! Each is a plain `u32` index into one table of [`TargetInfo`](super::TargetInfo);
//! keeping them distinct types stops a class index from being used as a register.

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as a `usize`, for indexing a table.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The value for table position `i`.
            #[inline]
            pub const fn new(i: usize) -> Self {
                Self(i as u32)
            }
        }
    };
}

index_type!(
    /// A physical register: an index into [`TargetInfo::regs`](super::TargetInfo::regs).
    Reg
);
index_type!(
    /// A register unit, the atom of interference: two registers overlap
    /// exactly when they share a unit. Index into
    /// [`TargetInfo::units`](super::TargetInfo::units).
    RegUnit
);
index_type!(
    /// A register class: an index into [`TargetInfo::classes`](super::TargetInfo::classes).
    RegClass
);
index_type!(
    /// A sub-register index such as `sub_32`: an index into
    /// [`TargetInfo::sub_reg_indices`](super::TargetInfo::sub_reg_indices).
    /// "No sub-register" is `Option::None`, not a reserved value.
    SubRegIndex
);
index_type!(
    /// A target instruction: an index into [`TargetInfo::instrs`](super::TargetInfo::instrs).
    /// Generic pseudos (COPY, PHI, ...) are not in the table; see `ir::Op`.
    Opcode
);
index_type!(
    /// A callee-saved register set (and its register mask): an index into
    /// [`TargetInfo::callee_saved`](super::TargetInfo::callee_saved).
    CalleeSavedSet
);

/// A lane mask: which parts (lanes) of a register a sub-register covers.
/// Bit `i` set means lane `i` is covered; a whole register is the union of
/// its sub-registers' lanes.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct LaneMask(pub u64);

impl LaneMask {
    /// All lanes.
    pub const ALL: LaneMask = LaneMask(u64::MAX);
    /// No lanes.
    pub const NONE: LaneMask = LaneMask(0);

    /// Whether the two masks share a lane.
    #[inline]
    pub const fn overlaps(self, other: LaneMask) -> bool {
        self.0 & other.0 != 0
    }
}

/// A set of subtarget features, one bit per entry of
/// [`TargetInfo::features`](super::TargetInfo::features) (at most 64).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct FeatureSet(pub u64);

impl FeatureSet {
    /// No features.
    pub const NONE: FeatureSet = FeatureSet(0);

    /// Whether every feature of `other` is here.
    #[inline]
    pub const fn contains(self, other: FeatureSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no feature of `other` is here.
    #[inline]
    pub const fn excludes(self, other: FeatureSet) -> bool {
        self.0 & other.0 == 0
    }

    /// The features of either set.
    #[inline]
    pub const fn union(self, other: FeatureSet) -> FeatureSet {
        FeatureSet(self.0 | other.0)
    }

    /// The features here that `other` lacks.
    #[inline]
    pub const fn minus(self, other: FeatureSet) -> FeatureSet {
        FeatureSet(self.0 & !other.0)
    }
}
