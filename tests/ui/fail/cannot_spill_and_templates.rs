// a class declared unspillable that also has spill templates.
regalloc::regalloc!("ui/fail/cannot_spill_and_templates.td");

fn main() {}
