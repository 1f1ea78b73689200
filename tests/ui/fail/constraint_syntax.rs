// a Constraints entry that is neither a tie nor @earlyclobber.
regalloc::regalloc!("ui/fail/constraint_syntax.td");

fn main() {}
