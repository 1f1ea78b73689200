//! Post-allocation passes: rewriting virtual to physical registers, stack-slot colouring, reuse of registers that still hold a reloaded slot, machine copy propagation.

pub mod copy_prop;
pub mod reload_reuse;
pub mod rewrite;
pub mod slots;
