// The .td file has a def without its terminating semicolon.
regalloc::regalloc!("ui/fail/missing_semicolon.td");

fn main() {}
