// Unnamed compositions: a sub-register of a sub-register with no ComposedSubRegIndex gets a synthesized A_then_B index.
let Namespace = "T" in {
  def sub_h : SubRegIndex<16, 16>;
  def sub_w : SubRegIndex<32, 32>;
  foreach i = 0-3 in {
    def H#i : Register<"h"#i>;
    def W#i : RegisterWithSubRegs<"w"#i, [!cast<Register>("H"#i)]> { let SubRegIndices = [sub_h]; }
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#i)]> { let SubRegIndices = [sub_w]; }
  }
}
def G16 : RegisterClass<"T", [i16], 16, (sequence "H%u", 0, 3)>;
def G32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 3)>;
def G64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 3)>;
