// The .td file has a file that includes itself.
regalloc::regalloc!("ui/fail/include_cycle.td");

fn main() {}
