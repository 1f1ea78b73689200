// The .td file has an assert that does not hold.
regalloc::regalloc!("ui/fail/failed_assert.td");

fn main() {}
