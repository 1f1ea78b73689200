// The .td file has a class member that is not defined.
regalloc::regalloc!("ui/fail/set_unknown_register.td");

fn main() {}
