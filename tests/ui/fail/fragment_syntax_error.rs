// The .td file has Rust syntax error inside an AltOrderSelect [{ }] fragment.
regalloc::regalloc!("ui/fail/fragment_syntax_error.td");

fn main() {}
