// OtherPreserved: registers preserved but not saved appear in the mask only, with their sub- and covered super-registers.
let Namespace = "T" in {
  def lo : SubRegIndex<32>;
  def hi : SubRegIndex<32, 32>;
  foreach i = 0-7 in def R#i : Register<"r"#i>;
  let SubRegIndices = [lo, hi], CoveredBySubRegs = 1 in
  foreach i = 0-3 in
    def D#i : RegisterWithSubRegs<"d"#i, [!cast<Register>("R"#!mul(i, 2)), !cast<Register>("R"#!add(!mul(i, 2), 1))]>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)>;
def DPR : RegisterClass<"T", [i64], 64, (sequence "D%u", 0, 3)>;
def CSR_Win : CalleeSavedRegs<(add R0)> {
  let OtherPreserved = (add R4, R5, D3);
}
def CSR_Plain : CalleeSavedRegs<(add D1)>;
