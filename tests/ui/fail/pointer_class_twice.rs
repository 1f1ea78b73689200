// two PointerRegClass defs for one pointer kind.
regalloc::regalloc!("ui/fail/pointer_class_twice.td");

fn main() {}
