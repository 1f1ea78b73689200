// Register file with sub-register indices: 16-bit halves inside 32-bit registers.
include "minireg.td"
let Namespace = "Toy" in {
  def lo16 : SubIdx<16>;
  def hi16 : SubIdx<16, 16>;
}
foreach i = 0-3 in {
  def H#i#L : Reg<"h"#i#"l"> { let HWEncoding = i; }
  def H#i#H : Reg<"h"#i#"h"> { let HWEncoding = i; }
  let SubRegIndices = [lo16, hi16] in
  def W#i : RegWithSubs<"w"#i, [!cast<Reg>("H"#i#"L"), !cast<Reg>("H"#i#"H")]> {
    let HWEncoding = i;
  }
}
def Half : RegClass<"Toy", [16], 16, (add (sequence "H%uL", 0, 3), (sequence "H%uH", 0, 3))>;
def Word : RegClass<"Toy", [32], 32, (sequence "W%u", 0, 3)>;
