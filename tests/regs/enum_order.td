// Register enumeration order: alpha and digit parts compared separately (AH < AL < AX, R2 < R10 < R10B), not definition order.
let Namespace = "T" in {
  def R10B : Register<"r10b">;
  def R10 : Register<"r10">;
  def R2 : Register<"r2">;
  def AX : Register<"ax">;
  def AL : Register<"al">;
  def AH : Register<"ah">;
  def R1_2 : Register<"r1_2">;
  def R1A : Register<"r1a">;
  def X0Y1 : Register<"x0y1">;
  def X0Y01 : Register<"x0y01">;
  def Xy : Register<"xy">;
  def XY : Register<"XY">;
  def r9 : Register<"r9">;
}
def ALL : RegisterClass<"T", [i32], 32, (add R10B, R10, R2, AX, AL, AH, R1_2, R1A, X0Y1, X0Y01, Xy, XY, r9)>;
