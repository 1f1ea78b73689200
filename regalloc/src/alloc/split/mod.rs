//! Live range splitting for the greedy allocator: where a split value should be in a register and where on the stack.
//!
//! [`spill_placement`] decides register-or-stack per edge bundle for region
//! splitting.

pub mod spill_placement;

pub use spill_placement::{BlockConstraint, BorderConstraint, SpillPlacement};
