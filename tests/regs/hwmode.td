// HW modes: RegInfoByHwMode and ValueTypeByHwMode give per-mode sizes; modes are enumerated by name.
def PredWide : Predicate<"wide">;
def PredNarrow : Predicate<"narrow">;
def ZWide : HwMode<"+wide", [PredWide]>;
def ANarrow : HwMode<"+narrow", [PredNarrow]>;
def VecVT : ValueTypeByHwMode<[ZWide, ANarrow, DefaultMode], [v4i32, v2i32, v2i32]>;
let Namespace = "T" in {
  foreach i = 0-5 in def V#i : Register<"v"#i>;
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def VR : RegisterClass<"T", [VecVT], 64, (sequence "V%u", 0, 5)> {
  let RegInfos = RegInfoByHwMode<[ZWide, ANarrow, DefaultMode],
                                 [RegInfo<128, 128, 128>, RegInfo<64, 64, 64>, RegInfo<64, 64, 64>]>;
}
def VRLOW : RegisterClass<"T", [VecVT], 64, (sequence "V%u", 0, 2)> {
  let RegInfos = RegInfoByHwMode<[ZWide, ANarrow, DefaultMode],
                                 [RegInfo<128, 128, 128>, RegInfo<64, 64, 32>, RegInfo<64, 64, 64>]>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 3)>;
