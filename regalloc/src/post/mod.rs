//! Post-allocation passes: rewriting virtual to physical registers, stack-slot colouring, copy propagation.

pub mod rewrite;
pub mod slots;
