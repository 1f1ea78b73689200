// Set operator sequence counting down (first bound above the second), with and without a step.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
def DN1 : RegisterClass<"T", [i32], 32, (sequence "R%u", 11, 4)>;
def DN2 : RegisterClass<"T", [i32], 32, (sequence "R%u", 10, 0, 3)>;
def DN3 : RegisterClass<"T", [i32], 32, (add (sequence "R%u", 3, 0), (sequence "R%u", 8, 11))>;
