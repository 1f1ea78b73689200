// one input operand tied twice.
regalloc::regalloc!("ui/fail/tie_twice.td");

fn main() {}
