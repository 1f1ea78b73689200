// Error: one sub-register reached under two different indices.
let Namespace = "T" in {
  def sub_a : SubRegIndex<16>;
  def sub_b : SubRegIndex<16, 16>;
  def S : Register<"s">;
  def R : RegisterWithSubRegs<"r", [S, S]> { let SubRegIndices = [sub_a, sub_b]; }
}
def GPR : RegisterClass<"T", [i32], 32, (add R)>;
