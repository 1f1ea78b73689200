// Spill templates for a register class that is not defined.
regalloc::regalloc!("ui/fail/template_unknown_class.td");

fn main() {}
