// Register file: registers made by foreach with encodings, a class with (add R0, (sequence ...)).
include "minireg.td"
let Namespace = "Toy" in {
  foreach i = 0-7 in
    def R#i : Reg<"r"#i> { let HWEncoding = i; let DwarfNumbers = [i]; }
  def SP : Reg<"sp"> { let HWEncoding = 15; }
}
def GPR : RegClass<"Toy", [32], 32, (add R0, (sequence "R%u", 1, 7), SP)>;
def GPRnoSP : RegClass<"Toy", [32], 32, (sub GPR, SP)>;
