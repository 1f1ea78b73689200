// The .td file has C++ (LLVM's language for fragments) instead of Rust.
regalloc::regalloc!("ui/fail/fragment_cpp.td");

fn main() {}
