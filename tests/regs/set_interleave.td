// Set operator interleave: members taken in turn from operands of different lengths, duplicates dropped.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def IL1 : RegisterClass<"T", [i32], 32, (interleave (sequence "R%u", 0, 3), (sequence "R%u", 8, 11))>;
def IL2 : RegisterClass<"T", [i32], 32, (interleave (add R1, R2, R3, R4, R5), (add R9), (add R10, R11))>;
def IL3 : RegisterClass<"T", [i32], 32, (interleave (add R1, R2), (add R2, R1))>;
