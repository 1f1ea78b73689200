// The .td file has foreach over a string.
regalloc::regalloc!("ui/fail/foreach_not_list.td");

fn main() {}
