// The argument is not a string literal.
regalloc::regalloc!(bpf);

fn main() {}
