// Overlapping tuples inside bigger registers: D1_D2 lies inside QQ0 by a DAG, not a tree, and gets a concatenated index.
let Namespace = "T" in {
  def dsub_0 : SubRegIndex<64>;
  def dsub_1 : SubRegIndex<64, 64>;
  def qsub_0 : SubRegIndex<128>;
  def qsub_1 : SubRegIndex<128, 128>;
  foreach i = 0-7 in def D#i : Register<"d"#i>;
  let SubRegIndices = [dsub_0, dsub_1] in
  foreach i = 0-3 in
    def Q#i : RegisterWithSubRegs<"q"#i, [!cast<Register>("D"#!mul(i, 2)),
                                          !cast<Register>("D"#!add(!mul(i, 2), 1))]>;
  let SubRegIndices = [qsub_0, qsub_1] in {
    def QQ0 : RegisterWithSubRegs<"qq0", [Q0, Q1]>;
    def QQ1 : RegisterWithSubRegs<"qq1", [Q2, Q3]>;
  }
}
def DPR : RegisterClass<"T", [f64], 64, (sequence "D%u", 0, 7)>;
def QPR : RegisterClass<"T", [v2f64], 128, (sequence "Q%u", 0, 3)>;
def QQPR : RegisterClass<"T", [untyped], 128, (add QQ0, QQ1)> { let Size = 256; }
def DPairs : RegisterTuples<[dsub_0, dsub_1], [(sequence "D%u", 0, 6), (sequence "D%u", 1, 7)]>;
def DPAIR : RegisterClass<"T", [v2f64], 128, (add DPairs)>;
