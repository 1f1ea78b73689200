// Several ad-hoc aliases per register, in both directions, mixed with sub-registers.
let Namespace = "T" in {
  def lo : SubRegIndex<16>;
  def hi : SubRegIndex<16, 16>;
  def L0 : Register<"l0">;
  def L1 : Register<"l1">;
  def L2 : Register<"l2">;
  def L3 : Register<"l3">;
  let SubRegIndices = [lo, hi], CoveredBySubRegs = 1 in {
    def P0 : RegisterWithSubRegs<"p0", [L0, L1]>;
    def P1 : RegisterWithSubRegs<"p1", [L2, L3]>;
  }
  def M0 : Register<"m0"> { let Aliases = [P0, L2]; }
  def M1 : Register<"m1"> { let Aliases = [M0]; }
  def N0 : Register<"n0"> { let Aliases = [L3, M1]; }
}
def LOW : RegisterClass<"T", [i16], 16, (sequence "L%u", 0, 3)>;
def PAIR : RegisterClass<"T", [i32], 32, (add P0, P1)>;
def MISC : RegisterClass<"T", [i32], 32, (add M0, M1, N0)>;
