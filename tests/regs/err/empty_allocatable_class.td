// Error: an allocatable register class whose member list evaluates to no registers.
// llvm-tblgen-19 accepts this (tdgen is stricter).
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2, R3)>;
def NONE : RegisterClass<"T", [i32], 32, (sub GPR, R0, R1, R2, R3)>;
