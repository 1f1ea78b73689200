// The path names no file.
regalloc::regalloc!("ui/fail/does_not_exist.td");

fn main() {}
