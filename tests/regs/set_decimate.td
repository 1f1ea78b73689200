// Set operator decimate: every n-th member starting with the first.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def DC1 : RegisterClass<"T", [i32], 32, (decimate GPR, 2)>;
def DC2 : RegisterClass<"T", [i32], 32, (decimate GPR, 5)>;
def DC3 : RegisterClass<"T", [i32], 32, (decimate (rotl GPR, 1), 3)>;
def DC4 : RegisterClass<"T", [i32], 32, (decimate (rotr GPR, 1), 1)>;
