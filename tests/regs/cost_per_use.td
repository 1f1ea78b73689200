// CostPerUse: lists of different lengths (padded with zeros) and non-zero costs on some registers.
let Namespace = "T" in {
  def R0 : Register<"r0">;
  def R1 : Register<"r1"> { let CostPerUse = [1]; }
  def R2 : Register<"r2"> { let CostPerUse = [0, 2]; }
  def R3 : Register<"r3"> { let CostPerUse = [3, 1, 4]; }
  def R4 : Register<"r4"> { let CostPerUse = []; }
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 4)>;
