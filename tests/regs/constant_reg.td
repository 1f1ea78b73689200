// isConstant: a zero register, which every callee-saved mask includes.
let Namespace = "T" in {
  foreach i = 0-5 in def R#i : Register<"r"#i>;
  def ZERO : Register<"zero"> { let isConstant = 1; }
}
def GPR : RegisterClass<"T", [i32], 32, (add (sequence "R%u", 0, 5), ZERO)>;
def GPRNZ : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 5)>;
def CSR : CalleeSavedRegs<(add R4, R5)>;
