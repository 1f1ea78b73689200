// The .td file has an unbalanced brace inside a fragment.
regalloc::regalloc!("ui/fail/fragment_unbalanced.td");

fn main() {}
