// CoveredBySubRegs: a pair covered by its halves joins a callee-saved mask when both halves are saved; an uncovered one does not.
let Namespace = "T" in {
  def lo : SubRegIndex<32>;
  def hi : SubRegIndex<32, 32>;
  foreach i = 0-7 in def R#i : Register<"r"#i>;
  let SubRegIndices = [lo, hi], CoveredBySubRegs = 1 in {
    def P0 : RegisterWithSubRegs<"p0", [R0, R1]>;
    def P1 : RegisterWithSubRegs<"p1", [R2, R3]>;
  }
  let SubRegIndices = [lo, hi] in {
    def P2 : RegisterWithSubRegs<"p2", [R4, R5]>;
    def P3 : RegisterWithSubRegs<"p3", [R6, R7]>;
  }
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)>;
def PAIR : RegisterClass<"T", [i64], 64, (add P0, P1, P2, P3)>;
def CSR_A : CalleeSavedRegs<(add R2, R3, R4, R5)>;
def CSR_B : CalleeSavedRegs<(add R0, R1, R6)>;
