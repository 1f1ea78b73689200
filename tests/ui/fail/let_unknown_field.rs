// The .td file has a let of a field the record does not have.
regalloc::regalloc!("ui/fail/let_unknown_field.td");

fn main() {}
