// The .td file has a callee-saved list naming a sub-register index.
regalloc::regalloc!("ui/fail/csr_not_register.td");

fn main() {}
