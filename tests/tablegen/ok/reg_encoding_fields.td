// Register encodings assembled from bit ranges and used in an instruction word.
include "minireg.td"
class EncReg<string n, bits<3> num, bit bank> : Reg<n> {
  let HWEncoding{2-0} = num;
  let HWEncoding{3} = bank;
}
foreach b = 0-1 in
  foreach n = 0-2 in
    def B#b#N#n : EncReg<"b"#b#"n"#n, n, b>;
def Word {
  bits<8> Inst;
  let Inst{7-4} = B1N2.HWEncoding{3-0};
  let Inst{3-0} = B0N1.HWEncoding{3-0};
}
