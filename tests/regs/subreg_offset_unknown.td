// Sub-register indices with offset -1 (position not fixed), and a composition through one of them.
let Namespace = "T" in {
  def sub_32 : SubRegIndex<32>;
  def elt0 : SubRegIndex<64, -1>;
  def elt1 : SubRegIndex<64, -1>;
  def elt1_32 : ComposedSubRegIndex<elt1, sub_32>;
  foreach i = 0-5 in {
    def W#i : Register<"w"#i>;
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#i)]> { let SubRegIndices = [sub_32]; }
  }
}
def GPR64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 5)>;
def GPR32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 5)>;
def XTup : RegisterTuples<[elt0, elt1], [(sequence "X%u", 0, 4), (sequence "X%u", 1, 5)]>;
def XPAIR : RegisterClass<"T", [untyped], 64, (add XTup)> { let Size = 128; }
