// The .td file has too many template arguments.
regalloc::regalloc!("ui/fail/template_arg_count.td");

fn main() {}
