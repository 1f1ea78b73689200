// HWEncoding, DwarfNumbers, DwarfRegAlias and AltNames: record fields that do not change the register structure.
let Namespace = "T" in {
  def ABI : RegAltNameIndex;
  let RegAltNameIndices = [ABI] in {
    def R0 : Register<"r0", ["zero"]>, DwarfRegNum<[0]> { let HWEncoding = 0; }
    def R1 : Register<"r1", ["ra"]>, DwarfRegNum<[1]> { let HWEncoding = 1; }
    def R2 : Register<"r2", ["sp"]>, DwarfRegNum<[2]> { let HWEncoding = 0x12; }
    def R3 : Register<"r3", ["gp"]>, DwarfRegNum<[3, -1]> { let HWEncoding = 0xffff; }
  }
  def R3ALT : Register<"r3alt">, DwarfRegAlias<R3> { let HWEncoding = 3; }
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2, R3)>;
def GPRABI : RegisterClass<"T", [i32], 32, (add R1, R2, R3), ABI>;
def OTHER : RegisterClass<"T", [i32], 32, (add R3ALT)>;
