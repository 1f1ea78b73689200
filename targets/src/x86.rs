//! The x86 target: `x86/x86.td` compiled by `regalloc!` into `TARGET` and typed constants.
regalloc::regalloc!("x86/x86.td");
