// an operand typed by a record that is neither a class nor an operand type.
regalloc::regalloc!("ui/fail/operand_not_a_type.td");

fn main() {}
