// Tuples built from another tuple set's registers, and a tuple set used as a set-expression operand.
let Namespace = "T" in {
  def s0 : SubRegIndex<32>;
  def s1 : SubRegIndex<32, 32>;
  def p0 : SubRegIndex<64>;
  def p1 : SubRegIndex<64, 64>;
  foreach i = 0-7 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)>;
def EvenOdd : RegisterTuples<[s0, s1], [(decimate GPR, 2), (decimate (shl GPR, 1), 2)]>;
def Quads : RegisterTuples<[p0, p1], [(decimate EvenOdd, 2), (decimate (shl EvenOdd, 1), 2)]>;
def PAIR : RegisterClass<"T", [i64], 64, (add EvenOdd)>;
def PAIRLOW : RegisterClass<"T", [i64], 64, (trunc EvenOdd, 2)>;
def QUAD : RegisterClass<"T", [untyped], 64, (add Quads)> { let Size = 128; }
