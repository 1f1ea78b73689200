// Tuples of registers that have sub-registers of their own: the tuple inherits composed sub-register indices.
let Namespace = "T" in {
  def sub_32 : SubRegIndex<32>;
  def sube64 : SubRegIndex<64>;
  def subo64 : SubRegIndex<64, 64>;
  foreach i = 0-5 in {
    def W#i : Register<"w"#i>;
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#i)]> { let SubRegIndices = [sub_32]; }
  }
}
def GPR32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 5)>;
def GPR64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 5)>;
def XPairs : RegisterTuples<[sube64, subo64], [(decimate GPR64, 2), (decimate (rotl GPR64, 1), 2)]>;
def XSEQ : RegisterClass<"T", [untyped], 64, (add XPairs)> { let Size = 128; }
