// Deeply nested set expressions mixing the operators, with classes and callee-saved sets as operands.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def CSR : CalleeSavedRegs<(add (sequence "R%u", 8, 11), R4)>;
def NST1 : RegisterClass<"T", [i32], 32,
    (add (trunc (rotr (sub GPR, CSR), 2), 5), (interleave (decimate CSR, 2), (and GPR, (add R0, R5))))>;
def NST2 : RegisterClass<"T", [i32], 32, (sub (shl (rotl NST1, 3), 1), (sequence "R%u", 5, 3))>;
def NST3 : RegisterClass<"T", [i32], 32, (add CSR, (sub NST1, CSR))>;
