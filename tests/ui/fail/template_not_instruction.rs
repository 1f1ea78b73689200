// a spill template whose operator is not an instruction.
regalloc::regalloc!("ui/fail/template_not_instruction.td");

fn main() {}
