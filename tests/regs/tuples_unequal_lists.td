// RegisterTuples whose register lists differ in length: zipped as far as the shortest (ARM's Tuples2DSpc).
let Namespace = "T" in {
  def s0 : SubRegIndex<32>;
  def s1 : SubRegIndex<32, 32>;
  foreach i = 0-5 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 5)>;
def Pairs : RegisterTuples<[s0, s1], [(add R0, R2, R4), (add R1, R3)]>;
def PAIR : RegisterClass<"T", [i64], 64, (add Pairs)>;
