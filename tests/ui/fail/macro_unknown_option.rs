// An option the macro does not know.
regalloc::regalloc!("ui/pass/tiny.td", includes = ["x"]);

fn main() {}
