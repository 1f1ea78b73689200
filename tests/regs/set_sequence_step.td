// Set operator sequence with a step, with a zero-padding format, and with a single element.
let Namespace = "T" in {
  foreach i = 0-11 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11)>;
let Namespace = "T" in {
  foreach i = 1-9 in def X0#i : Register<"x0"#i>;
}
def SQ1 : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 11, 3)>;
def SQ2 : RegisterClass<"T", [i32], 32, (sequence "X%02u", 1, 9, 2)>;
def SQ3 : RegisterClass<"T", [i32], 32, (sequence "R%u", 7, 7)>;
