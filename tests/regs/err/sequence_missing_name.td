// Error: a sequence produces the name R4, but only R0 to R3 exist.
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 4)>;
