// Error: a callee-saved register that belongs to no register class.
// llvm-tblgen-19 accepts this (tdgen is stricter).
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
  def LR : Register<"lr">;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2, R3)>;
def CSR : CalleeSavedRegs<(add R3, LR)>;
