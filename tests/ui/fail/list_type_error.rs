// The .td file has a string in a list of ints.
regalloc::regalloc!("ui/fail/list_type_error.td");

fn main() {}
