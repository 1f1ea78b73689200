// The .td file has an AltOrderSelect that can pick an order the class does not have.
regalloc::regalloc!("ui/fail/alt_order_index_out_of_range.td");

fn main() {}
