// a reload template without the stack slot.
regalloc::regalloc!("ui/fail/template_missing_slot.td");

fn main() {}
