// RegisterTuples with two sub-registers: consecutive pairs, including overlapping ones (R1_R2 next to R0_R1).
let Namespace = "T" in {
  def even : SubRegIndex<32>;
  def odd : SubRegIndex<32, 32>;
  foreach i = 0-7 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)>;
def Pairs : RegisterTuples<[even, odd], [(sequence "R%u", 0, 6), (sequence "R%u", 1, 7)]>;
def PAIR : RegisterClass<"T", [i64], 64, (add Pairs)>;
def EPAIR : RegisterClass<"T", [i64], 64, (decimate Pairs, 2)>;
