// Inferred classes RC1_and_RC2: every non-empty intersection of two classes of the same size, chained.
let Namespace = "T" in {
  foreach i = 0-9 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 9)>;
def ARG : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 5)>;
def TMP : RegisterClass<"T", [i32], 32, (sequence "R%u", 4, 9)>;
def ODD : RegisterClass<"T", [i32], 32, (decimate (shl GPR, 1), 2)>;
def DISJ : RegisterClass<"T", [i32], 32, (add R0)>;
