// Set operator trunc: keep the first n members, including n = 0 and n larger than the set.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def T1 : RegisterClass<"T", [i32], 32, (trunc GPR, 3)>;
def T2 : RegisterClass<"T", [i32], 32, (add (trunc GPR, 0), (trunc (add R7, R2), 9))>;
def T3 : RegisterClass<"T", [i32], 32, (trunc (shl GPR, 5), 2)>;
