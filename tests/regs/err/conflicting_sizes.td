// Error: a register class gives RegInfos with a list of sizes that does not match its list of modes.
def PredWide : Predicate<"wide">;
def Wide : HwMode<"+wide", [PredWide]>;
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2, R3)> {
  let RegInfos = RegInfoByHwMode<[DefaultMode, Wide], [RegInfo<32, 32, 32>]>;
}
