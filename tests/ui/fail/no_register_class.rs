// The .td file has registers but no register class.
regalloc::regalloc!("ui/fail/no_register_class.td");

fn main() {}
