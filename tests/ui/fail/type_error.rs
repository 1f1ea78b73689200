// The .td file has a string given where bits<16> is wanted.
regalloc::regalloc!("ui/fail/type_error.td");

fn main() {}
