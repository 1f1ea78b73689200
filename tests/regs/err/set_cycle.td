// Error: a register class whose member list refers to the class itself (a cycle in set expressions).
// llvm-tblgen-19 accepts this (the class expands to a partial set while it is being expanded; tdgen is stricter).
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, (sub GPR, R1))>;
