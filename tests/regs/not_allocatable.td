// isAllocatable = 0: non-allocatable classes, registers in no allocatable class, and what inferred classes inherit.
let Namespace = "T" in {
  def sub_8 : SubRegIndex<8>;
  foreach i = 0-5 in def B#i : Register<"b"#i>;
  foreach i = 0-5 in def R#i : RegisterWithSubRegs<"r"#i, [!cast<Register>("B"#i)]> { let SubRegIndices = [sub_8]; }
  def FLAGS : Register<"flags">;
  def PC : Register<"pc">;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 5)>;
def BYTE : RegisterClass<"T", [i8], 8, (sequence "B%u", 0, 3)> { let isAllocatable = 0; }
def CCR : RegisterClass<"T", [i32], 32, (add FLAGS)> { let isAllocatable = 0; let CopyCost = -1; }
def SPECIAL : RegisterClass<"T", [i32], 32, (add PC, R5, R4)> { let isAllocatable = 0; }
