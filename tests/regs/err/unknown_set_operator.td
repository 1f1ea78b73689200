// Error: a set expression with an operator that is not a set operator (a register used as operator).
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (R0 R1, R2)>;
