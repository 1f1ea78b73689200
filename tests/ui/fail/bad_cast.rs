// The .td file has !cast to a def that does not exist.
regalloc::regalloc!("ui/fail/bad_cast.td");

fn main() {}
