// a spill template with the wrong number of operands.
regalloc::regalloc!("ui/fail/template_operand_count.td");

fn main() {}
