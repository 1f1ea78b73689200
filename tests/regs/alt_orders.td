// AltOrders and AltOrderSelect: two alternative orders (subsets, reordered), inherited by an inferred sub-class.
let Namespace = "T" in {
  def sub_lo : SubRegIndex<16>;
  foreach i = 0-7 in def L#i : Register<"l"#i>;
  foreach i = 0-3 in def R#i : RegisterWithSubRegs<"r"#i, [!cast<Register>("L"#i)]> { let SubRegIndices = [sub_lo]; }
  foreach i = 4-7 in def R#i : Register<"r"#i>;
}
def LOW : RegisterClass<"T", [i16], 16, (sequence "L%u", 0, 7)>;
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)> {
  let AltOrders = [(rotl GPR, 4), (add R7, R1, R5)];
  let AltOrderSelect = [{ if !func.has_calls() { 1 } else { 2 } }];
}
def GPRHI : RegisterClass<"T", [i32], 32, (add R6, R2, R4, R7)> {
  let AltOrders = [(sub GPRHI, R6)];
  let AltOrderSelect = [{ 1 }];
}
