// Callee-saved sets used as set-expression operands, in classes, alternative orders and other callee-saved sets.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def CSR_Base : CalleeSavedRegs<(sequence "R%u", 8, 11)>;
def CSR_More : CalleeSavedRegs<(add CSR_Base, R6, R7)>;
def GPR : RegisterClass<"T", [i32], 32, (add (sub (sequence "R%u", 0, 11), CSR_More), CSR_More)> {
  let AltOrders = [(add CSR_Base)];
  let AltOrderSelect = [{ 1 }];
}
def SAVED : RegisterClass<"T", [i32], 32, (and GPR, CSR_More)>;
