// Register units and weights: units from sub-registers, alias units with two roots, and a register with no sub-register.
let Namespace = "T" in {
  def lo : SubRegIndex<32>;
  def hi : SubRegIndex<32, 32>;
  foreach i = 0-5 in def S#i : Register<"s"#i>;
  let SubRegIndices = [lo, hi] in {
    def D0 : RegisterWithSubRegs<"d0", [S0, S1]>;
    def D1 : RegisterWithSubRegs<"d1", [S2, S3]>;
  }
  let SubRegIndices = [lo] in
    def D2 : RegisterWithSubRegs<"d2", [S4]>;
  def D3 : Register<"d3"> { let Aliases = [S5, D2]; }
  def FP : Register<"fp">;
}
def SPR : RegisterClass<"T", [f32], 32, (sequence "S%u", 0, 5)>;
def DPR : RegisterClass<"T", [f64], 64, (add (sequence "D%u", 0, 3), FP)>;
