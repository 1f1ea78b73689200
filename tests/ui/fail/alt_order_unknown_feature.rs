// The .td file has an AltOrderSelect asking for a feature no SubtargetFeature declares.
regalloc::regalloc!("ui/fail/alt_order_unknown_feature.td");

fn main() {}
