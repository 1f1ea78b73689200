// The .td file has decimate by zero.
regalloc::regalloc!("ui/fail/decimate_zero.td");

fn main() {}
