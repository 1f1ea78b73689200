// The .td file has the same def twice.
regalloc::regalloc!("ui/fail/duplicate_def.td");

fn main() {}
