// Set operator shl: drop the first n members, including n larger than the set.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def L1 : RegisterClass<"T", [i32], 32, (shl GPR, 4)>;
def L2 : RegisterClass<"T", [i32], 32, (add (shl GPR, 11), (shl GPR, 20), R3)>;
def L3 : RegisterClass<"T", [i32], 32, (shl (add R9, R1, R4), 1)>;
