// Error: a sub-register index declared as the composition of itself with itself (a cycle in ComposedOf).
// llvm-tblgen-19 accepts this (and emits an inconsistent composition table; tdgen is stricter).
let Namespace = "T" in {
  def sub_lo : SubRegIndex<16>;
  def sub_loop : SubRegIndex<16> { let ComposedOf = [sub_loop, sub_loop]; }
  def H0 : Register<"h0">;
  def W0 : RegisterWithSubRegs<"w0", [H0]> { let SubRegIndices = [sub_lo]; }
}
def G32 : RegisterClass<"T", [i32], 32, (add W0)>;
