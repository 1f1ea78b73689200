//! The bpf target: `bpf/bpf.td` compiled by `regalloc!` into `TARGET` and typed constants.
regalloc::regalloc!("bpf/bpf.td");
