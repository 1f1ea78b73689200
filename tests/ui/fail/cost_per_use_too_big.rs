// The .td file has a CostPerUse the tables cannot hold (u8).
regalloc::regalloc!("ui/fail/cost_per_use_too_big.td");

fn main() {}
