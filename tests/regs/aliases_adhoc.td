// Ad-hoc Aliases: overlapping registers that are not sub-registers of each other share an extra two-root unit.
let Namespace = "T" in {
  def A0 : Register<"a0">;
  def A1 : Register<"a1">;
  def B0 : Register<"b0"> { let Aliases = [A0]; }
  def B1 : Register<"b1"> { let Aliases = [A1]; }
  def C0 : Register<"c0">;
}
def ACLS : RegisterClass<"T", [i32], 32, (add A0, A1, C0)>;
def BCLS : RegisterClass<"T", [i32], 32, (add B0, B1)>;
