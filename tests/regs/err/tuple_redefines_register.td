// Error: two tuple sets both produce the register R0_R1.
let Namespace = "T" in {
  def s0 : SubRegIndex<32>;
  def s1 : SubRegIndex<32, 32>;
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 3)>;
def PairsA : RegisterTuples<[s0, s1], [(add R0, R2), (add R1, R3)]>;
def PairsB : RegisterTuples<[s0, s1], [(add R0), (add R1)]>;
def PAIR : RegisterClass<"T", [i64], 64, (add PairsA)>;
