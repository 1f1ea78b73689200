// The .td file has an AltOrder naming a register outside the class.
regalloc::regalloc!("ui/fail/alt_order_outside_class.td");

fn main() {}
