// a tie naming an operand the instruction does not have.
regalloc::regalloc!("ui/fail/tie_unknown_operand.td");

fn main() {}
