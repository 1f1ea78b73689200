// @earlyclobber naming an unknown operand.
regalloc::regalloc!("ui/fail/earlyclobber_unknown.td");

fn main() {}
