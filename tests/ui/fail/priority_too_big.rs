// The .td file has an AllocationPriority the tables cannot hold (u8).
regalloc::regalloc!("ui/fail/priority_too_big.td");

fn main() {}
