// CopyCost: default 1, higher costs, zero and a negative (impossible) cost, and what inferred classes take.
let Namespace = "T" in {
  foreach i = 0-7 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)>;
def EXP : RegisterClass<"T", [i32], 32, (sequence "R%u", 2, 5)> { let CopyCost = 4; }
def FREE : RegisterClass<"T", [i32], 32, (add R0, R1, R2)> { let CopyCost = 0; }
def NOCOPY : RegisterClass<"T", [i32], 32, (add R7, R4, R3)> { let CopyCost = -1; }
