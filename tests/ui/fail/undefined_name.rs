// The .td file has an expression naming nothing.
regalloc::regalloc!("ui/fail/undefined_name.td");

fn main() {}
