//! LLVM's RegAllocBasic: intervals by descending spill weight; assign, evict lighter, or spill.

use crate::ir::MachineFunction;
use crate::target::TargetInfo;

use super::{AllocError, AllocErrorKind, AllocRecord};

/// Allocates `func` with the basic allocator.
pub fn run(_target: &TargetInfo<'_>, func: &mut MachineFunction) -> Result<AllocRecord, AllocError> {
    Err(AllocError::new(AllocErrorKind::Unsupported, &func.name, "the basic allocator is being written"))
}
