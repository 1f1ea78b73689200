// A flat register file: eight registers without sub-registers, one allocatable class.
let Namespace = "T" in {
  def R0 : Register<"r0">;
  def R1 : Register<"r1">;
  def R2 : Register<"r2">;
  def R3 : Register<"r3">;
  def R4 : Register<"r4">;
  def R5 : Register<"r5">;
  def R6 : Register<"r6">;
  def R7 : Register<"r7">;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2, R3, R4, R5, R6, R7)>;
