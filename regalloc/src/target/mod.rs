//! The plain-data tables that describe a target to the allocator (filled by tdgen's emitter or built at run time).
//!
//! [`TargetInfo`] holds every table; rows are [`RegisterDesc`],
//! [`RegUnitDesc`], [`SubRegIndexDesc`], [`RegClassDesc`],
//! [`CalleeSavedDesc`] and [`InstrDesc`]. Tables use `Cow` slices so that the
//! same type serves `'static` generated tables and owned run-time ones.
//! Interference is decided on register units throughout.

pub mod bits;
mod branches;
mod builder;
mod classes;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
mod ids;
mod info;
mod instrs;
mod names;
mod regs;
#[cfg(test)]
mod tests;

pub use branches::{BranchReversal, CommuteRuleDesc, ConditionalBranchDesc};
pub use builder::{ClassSpec, TargetBuilder};
pub use classes::{
    AllocOrderPolicy, CalleeSavedDesc, ClassSizes, FunctionInfo, OrderSelector, RegClassDesc,
    ReservedWithout,
};
pub use ids::{CalleeSavedSet, FeatureSet, LaneMask, Opcode, Reg, RegClass, RegUnit, SubRegIndex};
pub use info::TargetInfo;
pub use instrs::{
    FeatureDesc, HwModeDesc, InstrDesc, InstrFlags, InstrTemplate, MemoryFoldDesc, OperandDesc,
    OperandKind, TemplateChoice, TemplateOperand, ThreeAddressDesc, ThreeAddressOperand, choose,
};
pub use names::NameIndex;
pub use regs::{RegFlags, RegUnitDesc, RegisterDesc, SubRegIndexDesc};
