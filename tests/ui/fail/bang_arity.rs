// The .td file has a bang operator with the wrong number of operands.
regalloc::regalloc!("ui/fail/bang_arity.td");

fn main() {}
