// Spill size and alignment from RegInfos, from Size, and from the first value type; register size differing from spill size.
let Namespace = "T" in {
  foreach i = 0-7 in def R#i : Register<"r"#i>;
}
def BYTYPE : RegisterClass<"T", [i64, i32], 32, (sequence "R%u", 0, 7)>;
def BYSIZE : RegisterClass<"T", [i16], 16, (sequence "R%u", 0, 5)> { let Size = 64; }
def BYINFO : RegisterClass<"T", [i32], 8, (sequence "R%u", 0, 3)> {
  let RegInfos = RegInfoByHwMode<[DefaultMode], [RegInfo<24, 48, 16>]>;
}
def ALIGNED : RegisterClass<"T", [f64], 128, (sequence "R%u", 4, 7)>;
def NARROW : RegisterClass<"T", [i8, i16], 8, (add R1, R2)>;
