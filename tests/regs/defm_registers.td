// Registers, indices and classes produced by multiclasses, defm and foreach, as real register files write them.
class MyReg<string n, bits<16> enc> : Register<n> {
  let Namespace = "T";
  let HWEncoding = enc;
}
class MyPair<string n, bits<16> enc, list<Register> subs> : RegisterWithSubRegs<n, subs> {
  let Namespace = "T";
  let HWEncoding = enc;
  let CoveredBySubRegs = 1;
}
let Namespace = "T" in {
  def slo : SubRegIndex<32>;
  def shi : SubRegIndex<32, 32>;
}
multiclass Bank<string p, int base> {
  foreach i = 0-3 in
    def _#i : MyReg<p#i, !add(base, i)>;
  let SubRegIndices = [slo, shi] in {
    def _P0 : MyPair<p#"p0", base, [!cast<Register>(NAME#"_0"), !cast<Register>(NAME#"_1")]>;
    def _P1 : MyPair<p#"p1", !add(base, 2), [!cast<Register>(NAME#"_2"), !cast<Register>(NAME#"_3")]>;
  }
}
defm A : Bank<"a", 0>;
defm B : Bank<"b", 4>;
def SCALAR : RegisterClass<"T", [i32], 32, (add (sequence "A_%u", 0, 3), (sequence "B_%u", 3, 0))>;
def PAIRS : RegisterClass<"T", [i64], 64, (add A_P0, A_P1, B_P0, B_P1)>;
