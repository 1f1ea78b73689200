// Error: a set expression names a def that is not a register, register class or set (a sub-register index).
let Namespace = "T" in {
  def sub_lo : SubRegIndex<16>;
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, sub_lo)>;
