// The .td file has a [{ code fragment that never ends.
regalloc::regalloc!("ui/fail/unterminated_code.td");

fn main() {}
