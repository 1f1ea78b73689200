// The .td file has a string literal that never ends.
regalloc::regalloc!("ui/fail/unterminated_string.td");

fn main() {}
