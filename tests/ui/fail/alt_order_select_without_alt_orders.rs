// The .td file has an AltOrderSelect on a class without AltOrders.
regalloc::regalloc!("ui/fail/alt_order_select_without_alt_orders.td");

fn main() {}
