// Sub-register indices inherited by name through four levels: X0 reaches B0 as sub_b, with no synthesized index.
let Namespace = "T" in {
  def sub_b : SubRegIndex<8>;
  def sub_h : SubRegIndex<16>;
  def sub_w : SubRegIndex<32>;
  foreach i = 0-2 in {
    def B#i : Register<"b"#i>;
    def H#i : RegisterWithSubRegs<"h"#i, [!cast<Register>("B"#i)]> { let SubRegIndices = [sub_b]; }
    def W#i : RegisterWithSubRegs<"w"#i, [!cast<Register>("H"#i)]> { let SubRegIndices = [sub_h]; }
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#i)]> { let SubRegIndices = [sub_w]; }
  }
}
def G8 : RegisterClass<"T", [i8], 8, (sequence "B%u", 0, 2)>;
def G16 : RegisterClass<"T", [i16], 16, (sequence "H%u", 0, 2)>;
def G32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 2)>;
def G64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 2)>;
