// Set operator add: union in first-occurrence order, with duplicates, nested adds and a class operand.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def A1 : RegisterClass<"T", [i32], 32, (add R5, R3, R5, (add R3, R9), R1)>;
def A2 : RegisterClass<"T", [i32], 32, (add A1, R0, A1, R11)>;
def A3 : RegisterClass<"T", [i32], 32, (add (add), R7)>;
