// Register class enumeration: by register size, spill size and alignment, then by member count (largest first), then name.
let Namespace = "T" in {
  foreach i = 0-7 in def R#i : Register<"r"#i>;
}
def Zbig : RegisterClass<"T", [i64], 64, (sequence "R%u", 0, 7)>;
def Abig : RegisterClass<"T", [i64], 64, (sequence "R%u", 0, 1)>;
def Msmall : RegisterClass<"T", [i16], 16, (sequence "R%u", 0, 3)>;
def Bsmall : RegisterClass<"T", [i16], 16, (sequence "R%u", 4, 7)>;
def Cmid : RegisterClass<"T", [i32], 64, (sequence "R%u", 2, 3)>;
def Dmid : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 2)>;
def Emid : RegisterClass<"T", [i32], 32, (sequence "R%u", 5, 7)>;
