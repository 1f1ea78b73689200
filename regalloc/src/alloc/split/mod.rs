//! Live-range splitting: the split kit that carries out a split, and the spill placement that decides where a split value should be in a register and where on the stack.
//!
//! [`kit`] rewrites a register into several by a per-block plan, one
//! register per connected piece ([`components`]);
//! [`spill_placement`] decides register-or-stack per edge bundle for
//! region splitting.

pub mod components;
pub mod kit;
pub mod spill_placement;

pub use kit::{BlockPlan, Gap, SplitKit, SplitPlan};
pub use spill_placement::{BlockConstraint, BorderConstraint, SpillPlacement};
