// Tuple defs whose names embed numbers (AGPR_64, AGPR_1024): their registers are numbered with the defs in numeric-aware name order.
let Namespace = "T" in {
  def s0 : SubRegIndex<32>;
  def s1 : SubRegIndex<32, 32>;
  def s2 : SubRegIndex<32, 64>;
  foreach i = 0-7 in def A#i : Register<"a"#i>;
}
def AGPR : RegisterClass<"T", [i32], 32, (sequence "A%u", 0, 7)>;
def AGPR_64 : RegisterTuples<[s0, s1], [(add A0, A2, A4), (add A1, A3, A5)]>;
def AGPR_128 : RegisterTuples<[s0, s1, s2], [(add A5, A6), (add A6, A7), (add A7, A0)]>;
def AGPR_1024 : RegisterTuples<[s0, s1], [(add A6), (add A7)]>;
def AReg_64 : RegisterClass<"T", [i64], 64, (add AGPR_64, AGPR_1024)>;
def AReg_96 : RegisterClass<"T", [i64], 64, (add AGPR_128)>;
