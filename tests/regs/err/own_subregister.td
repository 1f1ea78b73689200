// Error: a register listed as its own sub-register.
let Namespace = "T" in {
  def sub_lo : SubRegIndex<16>;
  def R0 : Register<"r0">;
  def R1 : Register<"r1"> {
    let SubRegs = [R1];
    let SubRegIndices = [sub_lo];
  }
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
