//! The aarch64 target: `aarch64/aarch64.td` compiled by `regalloc!` into `TARGET` and typed constants.
regalloc::regalloc!("aarch64/aarch64.td");
