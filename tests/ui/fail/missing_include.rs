// The .td file has an include that is nowhere on the search path.
regalloc::regalloc!("ui/fail/missing_include.td");

fn main() {}
