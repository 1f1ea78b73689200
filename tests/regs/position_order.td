// PositionOrder: registers with a higher PositionOrder are enumerated after all others, whatever their names.
let Namespace = "T" in {
  def A : Register<"a">;
  def Z : Register<"z">;
  let PositionOrder = 2 in {
    def B2 : Register<"b2">;
    def AA : Register<"aa">;
  }
  let PositionOrder = 1 in {
    def Y : Register<"y">;
    def C : Register<"c">;
  }
}
def ALL : RegisterClass<"T", [i32], 32, (add Z, A, B2, AA, Y, C)>;
def LATE : RegisterClass<"T", [i32], 32, (add B2, AA)>;
