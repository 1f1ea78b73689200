// Error: two ComposedSubRegIndex defs name the same composition sub_hi then sub_lo.
let Namespace = "T" in {
  def sub_lo : SubRegIndex<16>;
  def sub_hi : SubRegIndex<32, 32>;
  def sub_x : ComposedSubRegIndex<sub_hi, sub_lo>;
  def sub_y : ComposedSubRegIndex<sub_hi, sub_lo>;
  def H0 : Register<"h0">;
  def H1 : Register<"h1">;
  def W0 : RegisterWithSubRegs<"w0", [H0]> { let SubRegIndices = [sub_lo]; }
  def W1 : RegisterWithSubRegs<"w1", [H1]> { let SubRegIndices = [sub_lo]; }
  def X0 : RegisterWithSubRegs<"x0", [W0, W1]> { let SubRegIndices = [sub_lo, sub_hi]; }
}
def G64 : RegisterClass<"T", [i64], 64, (add X0)>;
