// fuzz regression: a zero-width bits<0> field set from an int panics tdgen (resolve.rs: subtract with overflow); llvm-tblgen-19 accepts it as {  }.
def B { bits<0> x = 1; }
