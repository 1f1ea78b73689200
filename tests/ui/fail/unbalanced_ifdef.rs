// The .td file has #ifdef without #endif.
regalloc::regalloc!("ui/fail/unbalanced_ifdef.td");

fn main() {}
