// Two-level sub-register trees: 64-bit X registers each holding a 32-bit W register as sub_32.
let Namespace = "T" in {
  def sub_32 : SubRegIndex<32>;
  foreach i = 0-5 in {
    def W#i : Register<"w"#i>;
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#i)]> {
      let SubRegIndices = [sub_32];
    }
  }
}
def GPR32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 5)>;
def GPR64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 5)>;
