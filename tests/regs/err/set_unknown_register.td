// Error: a set expression names a register that is not defined.
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R9)>;
