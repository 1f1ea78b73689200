// The .td file has sequence without its end bound.
regalloc::regalloc!("ui/fail/sequence_bad_args.td");

fn main() {}
