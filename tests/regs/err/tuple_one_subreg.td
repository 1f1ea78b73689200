// Error: a RegisterTuples def with a single sub-register list (tuples need at least two).
let Namespace = "T" in {
  def s0 : SubRegIndex<32>;
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 3)>;
def Singles : RegisterTuples<[s0], [(add R0, R1)]>;
def ONE : RegisterClass<"T", [i64], 64, (add Singles)>;
