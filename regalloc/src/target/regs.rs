//! Table rows for physical registers, register units and sub-register indices.

use std::borrow::Cow;

use super::ids::{LaneMask, Reg, RegUnit, SubRegIndex};

/// Flags of a physical register.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct RegFlags(pub u8);

impl RegFlags {
    /// No flags.
    pub const NONE: RegFlags = RegFlags(0);
    /// The register always reads the same value (e.g. AArch64 `XZR`); it is
    /// never live and never allocated.
    pub const CONSTANT: RegFlags = RegFlags(1);
    /// The register exists only to model a part of another register (e.g.
    /// x86 `HAX`, the high half of `EAX`); it never appears in code.
    pub const ARTIFICIAL: RegFlags = RegFlags(2);

    /// Whether every flag of `other` is set here.
    #[inline]
    pub const fn contains(self, other: RegFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of the two flag sets.
    #[inline]
    pub const fn union(self, other: RegFlags) -> RegFlags {
        RegFlags(self.0 | other.0)
    }
}

/// One physical register.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RegisterDesc<'a> {
    /// Name as written in the `.td` file and in MIR after `$` (MIR lower-cases
    /// it: lookups are case-insensitive).
    pub name: Cow<'a, str>,
    /// Hardware encoding (`HWEncoding`).
    pub encoding: u16,
    /// Direct and indirect sub-registers by index, sorted by index so that
    /// [`TargetInfo::sub_reg`](super::TargetInfo::sub_reg) can search it.
    pub sub_regs: Cow<'a, [(SubRegIndex, Reg)]>,
    /// Every register that contains this one as a sub-register, nearest first.
    pub super_regs: Cow<'a, [Reg]>,
    /// Register units, sorted, so that overlap is a merge of two short lists.
    pub units: Cow<'a, [RegUnit]>,
    /// Lane mask of each unit within this register, parallel to `units`
    /// (all lanes for a register without sub-registers).
    pub unit_lanes: Cow<'a, [LaneMask]>,
    /// Extra cost of using this register (`CostPerUse`), added by the allocator
    /// when it breaks ties between candidates.
    pub cost_per_use: u8,
    /// Constant and artificial flags.
    pub flags: RegFlags,
}

/// One register unit: the registers it is the root of. Every unit has one or
/// two roots (two when two registers alias without one containing the other).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RegUnitDesc {
    /// The first root register.
    pub root: Reg,
    /// The second root, when the unit is shared by two independent registers.
    pub root2: Option<Reg>,
}

/// One sub-register index such as `sub_32`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SubRegIndexDesc<'a> {
    /// Name as written in the `.td` file and after `.` in MIR (`%5.sub_32`).
    pub name: Cow<'a, str>,
    /// Size in bits, or `None` when the index has no fixed size.
    pub size: Option<u16>,
    /// Offset in bits from the start of the containing register, or `None`
    /// when not fixed (e.g. a composed index across a gap).
    pub offset: Option<u16>,
    /// The lanes of the containing register this index covers.
    pub lane_mask: LaneMask,
}
