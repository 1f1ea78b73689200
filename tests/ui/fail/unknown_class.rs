// The .td file has a def derived from a class that does not exist.
regalloc::regalloc!("ui/fail/unknown_class.td");

fn main() {}
