// A ValueTypeByHwMode without an entry for a mode (and no DefaultMode) is left out of that mode's types (RISC-V's XLenVT-like types).
def PredA : Predicate<"a">;
def PredB : Predicate<"b">;
def ModeA : HwMode<"+a", [PredA]>;
def ModeB : HwMode<"+b", [PredB]>;
def OnlyA : ValueTypeByHwMode<[ModeA], [i64]>;
def Both : ValueTypeByHwMode<[ModeA, ModeB, DefaultMode], [i64, i32, i32]>;
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [Both, OnlyA, f32], 32, (sequence "R%u", 0, 3)> {
  let RegInfos = RegInfoByHwMode<[ModeA, ModeB, DefaultMode],
                                 [RegInfo<64, 64, 64>, RegInfo<32, 32, 32>, RegInfo<32, 32, 32>]>;
}
