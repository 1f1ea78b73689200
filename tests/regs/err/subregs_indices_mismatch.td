// Error: a register lists two sub-registers but only one sub-register index.
let Namespace = "T" in {
  def sub_lo : SubRegIndex<16>;
  def H0 : Register<"h0">;
  def H1 : Register<"h1">;
  def W0 : RegisterWithSubRegs<"w0", [H0, H1]> { let SubRegIndices = [sub_lo]; }
}
def G32 : RegisterClass<"T", [i32], 32, (add W0)>;
