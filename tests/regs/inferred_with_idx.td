// Inferred classes RC_with_idx: the members of a class that have a given sub-register index.
let Namespace = "T" in {
  def sub_lo : SubRegIndex<16>;
  def sub_hi : SubRegIndex<16, 16>;
  foreach i = 0-5 in def H#i : Register<"h"#i>;
  let SubRegIndices = [sub_lo, sub_hi] in {
    def R0 : RegisterWithSubRegs<"r0", [H0, H1]>;
    def R1 : RegisterWithSubRegs<"r1", [H2, H3]>;
  }
  let SubRegIndices = [sub_lo] in
    def R2 : RegisterWithSubRegs<"r2", [H4]>;
  def R3 : Register<"r3">;
  def R4 : Register<"r4">;
}
def HALF : RegisterClass<"T", [i16], 16, (sequence "H%u", 0, 5)>;
def GPR : RegisterClass<"T", [i32], 32, (add R4, R3, R2, R1, R0)>;
