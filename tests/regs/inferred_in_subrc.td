// Inferred classes RC_with_idx_in_SubRC: super-registers whose sub-register lies in a given class.
let Namespace = "T" in {
  def sub_32 : SubRegIndex<32>;
  foreach i = 0-7 in {
    def W#i : Register<"w"#i>;
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#i)]> { let SubRegIndices = [sub_32]; }
  }
}
def GPR32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 7)>;
def ARG32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 3)>;
def ODD32 : RegisterClass<"T", [i32], 32, (decimate (shl GPR32, 1), 2)>;
def GPR64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 7)>;
def HI64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 2, 7)>;
