// ComposedSubRegIndex: named compositions of a 128-bit register's halves and quarters.
let Namespace = "T" in {
  def sub_lo : SubRegIndex<64>;
  def sub_hi : SubRegIndex<64, 64>;
  def sub_32 : SubRegIndex<32>;
  def sub_hi_32 : ComposedSubRegIndex<sub_hi, sub_32>;
  foreach i = 0-7 in def S#i : Register<"s"#i>;
  foreach i = 0-3 in
    def D#i : RegisterWithSubRegs<"d"#i, [!cast<Register>("S"#!mul(i, 2))]> {
      let SubRegIndices = [sub_32];
    }
  let SubRegIndices = [sub_lo, sub_hi] in {
    def Q0 : RegisterWithSubRegs<"q0", [D0, D1]>;
    def Q1 : RegisterWithSubRegs<"q1", [D2, D3]>;
  }
}
def FPR32 : RegisterClass<"T", [f32], 32, (sequence "S%u", 0, 7)>;
def FPR64 : RegisterClass<"T", [f64], 64, (sequence "D%u", 0, 3)>;
def FPR128 : RegisterClass<"T", [v4f32], 128, (add Q0, Q1)>;
