// The .td file has a set operator that does not exist.
regalloc::regalloc!("ui/fail/bad_set_expression.td");

fn main() {}
