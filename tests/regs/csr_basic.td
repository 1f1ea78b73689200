// CalleeSavedRegs: save lists keep their declared order; masks add sub-registers; sets are enumerated by name.
let Namespace = "T" in {
  def sub_32 : SubRegIndex<32>;
  foreach i = 0-9 in {
    def W#i : Register<"w"#i>;
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#i)]> { let SubRegIndices = [sub_32]; }
  }
}
def GPR32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 9)>;
def GPR64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 9)>;
def CSR_Std : CalleeSavedRegs<(add X9, X8, (sequence "X%u", 4, 6))>;
def CSR_Alt10 : CalleeSavedRegs<(add W3)>;
def CSR_Alt2 : CalleeSavedRegs<(sub CSR_Std, X5)>;
def CSR_None : CalleeSavedRegs<(add)>;
