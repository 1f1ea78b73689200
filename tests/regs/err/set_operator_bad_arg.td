// Error: shl given a register where it needs a count.
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2, R3)>;
def SHIFTED : RegisterClass<"T", [i32], 32, (shl GPR, R1)>;
