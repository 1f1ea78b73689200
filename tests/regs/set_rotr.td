// Set operator rotr: rotate right, including by more than the set size.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def RR1 : RegisterClass<"T", [i32], 32, (rotr GPR, 2)>;
def RR2 : RegisterClass<"T", [i32], 32, (rotr (add R4, R5, R6, R9), 5)>;
def RR3 : RegisterClass<"T", [i32], 32, (rotr (rotl GPR, 4), 1)>;
