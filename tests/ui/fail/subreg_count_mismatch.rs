// The .td file has two sub-registers, one sub-register index.
regalloc::regalloc!("ui/fail/subreg_count_mismatch.td");

fn main() {}
