//! Live-range splitting: the split kit that carries out a split, and the spill placement that decides where a value should live in a register.

pub mod kit;

pub use kit::{BlockPlan, Gap, SplitKit, SplitPlan, SplitResult};
