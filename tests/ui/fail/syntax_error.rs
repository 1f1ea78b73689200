// The .td file has a def with no name or body.
regalloc::regalloc!("ui/fail/syntax_error.td");

fn main() {}
