// Set operator sub: difference, keeping the first operand's order, with several subtrahends.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def S1 : RegisterClass<"T", [i32], 32, (sub GPR, R0, R1)>;
def S2 : RegisterClass<"T", [i32], 32, (sub (add R9, R2, R4, R6), (add R2), R4)>;
def S3 : RegisterClass<"T", [i32], 32, (sub GPR, S1, R11)>;
