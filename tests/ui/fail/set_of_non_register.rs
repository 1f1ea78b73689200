// The .td file has a class member that is a sub-register index.
regalloc::regalloc!("ui/fail/set_of_non_register.td");

fn main() {}
