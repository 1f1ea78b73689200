//! The symbolic checker that proves an allocated function reads, at every use, the value the original instruction used.

mod error;

pub use error::CheckError;

use crate::alloc::AllocRecord;
use crate::ir::MachineFunction;
use crate::target::TargetInfo;

/// Checks `allocated` (the result of allocating `original`, as `record`
/// describes) and returns every error found.
pub fn check(
    _target: &TargetInfo<'_>,
    _original: &MachineFunction,
    _allocated: &MachineFunction,
    _record: &AllocRecord,
) -> Result<(), Vec<CheckError>> {
    Err(vec![CheckError {
        message: "the checker is being written".into(),
    }])
}
