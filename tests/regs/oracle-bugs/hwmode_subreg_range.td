// SubRegRangeByHwMode: a sub-register index whose size and offset differ by mode.
def PredBig : Predicate<"big">;
def Big : HwMode<"+big", [PredBig]>;
let Namespace = "T" in {
  def sub_lo : SubRegIndex<32> {
    let SubRegRanges = SubRegRangeByHwMode<[DefaultMode, Big], [SubRegRange<32>, SubRegRange<64>]>;
  }
  def sub_hi : SubRegIndex<32, 32> {
    let SubRegRanges = SubRegRangeByHwMode<[Big], [SubRegRange<64, 64>]>;
  }
  foreach i = 0-7 in def H#i : Register<"h"#i>;
  let SubRegIndices = [sub_lo, sub_hi], CoveredBySubRegs = 1 in
  foreach i = 0-3 in
    def P#i : RegisterWithSubRegs<"p"#i, [!cast<Register>("H"#!mul(i, 2)), !cast<Register>("H"#!add(!mul(i, 2), 1))]>;
}
def HALF : RegisterClass<"T", [i32], 32, (sequence "H%u", 0, 7)> {
  let RegInfos = RegInfoByHwMode<[DefaultMode, Big], [RegInfo<32, 32, 32>, RegInfo<64, 64, 64>]>;
}
def PAIR : RegisterClass<"T", [i64], 64, (sequence "P%u", 0, 3)> {
  let RegInfos = RegInfoByHwMode<[DefaultMode, Big], [RegInfo<64, 64, 64>, RegInfo<128, 128, 128>]>;
}
