// Set operator rotl: rotate left, including by more than the set size and by zero.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def RL1 : RegisterClass<"T", [i32], 32, (rotl GPR, 3)>;
def RL2 : RegisterClass<"T", [i32], 32, (rotl (add R4, R5, R6), 7)>;
def RL3 : RegisterClass<"T", [i32], 32, (add (rotl GPR, 0), R0)>;
