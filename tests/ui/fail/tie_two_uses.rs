// a tie between two input operands.
regalloc::regalloc!("ui/fail/tie_two_uses.td");

fn main() {}
