// two SpillTemplates for one class.
regalloc::regalloc!("ui/fail/template_twice.td");

fn main() {}
