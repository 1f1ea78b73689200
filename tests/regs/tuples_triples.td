// RegisterTuples with three sub-registers, wrapping around the register file, and a class of them.
let Namespace = "T" in {
  def dsub0 : SubRegIndex<64>;
  def dsub1 : SubRegIndex<64, 64>;
  def dsub2 : SubRegIndex<64, 128>;
  foreach i = 0-5 in def D#i : Register<"d"#i>;
}
def DPR : RegisterClass<"T", [f64], 64, (sequence "D%u", 0, 5)>;
def DTriples : RegisterTuples<[dsub0, dsub1, dsub2],
                              [(add DPR), (rotl DPR, 1), (rotl DPR, 2)]>;
def DTRIPLE : RegisterClass<"T", [untyped], 64, (add DTriples)> { let Size = 192; }
