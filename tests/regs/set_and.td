// Set operator and: intersection in the first operand's order.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def H1 : RegisterClass<"T", [i32], 32, (add R8, R1, R6, R3, R10)>;
def N1 : RegisterClass<"T", [i32], 32, (and H1, (sequence "R%u", 0, 6))>;
def N2 : RegisterClass<"T", [i32], 32, (and GPR, (add R10, R2, R8))>;
