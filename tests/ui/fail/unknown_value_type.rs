// The .td file has a register class whose value type does not exist.
regalloc::regalloc!("ui/fail/unknown_value_type.td");

fn main() {}
