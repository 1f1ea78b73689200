// The .td file has an AltOrderSelect fragment outside the language (a method the language does not have).
regalloc::regalloc!("ui/fail/fragment_outside_language.td");

fn main() {}
