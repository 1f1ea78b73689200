// A miniature target: registers, sub-register indices, classes, callee-saved set and instructions together.
include "minireg.td"
include "miniinstr.td"
let Namespace = "Mini" in {
  def sub_lo : SubIdx<16>;
  foreach i = 0-7 in {
    def L#i : Reg<"l"#i> { let HWEncoding = i; }
    def W#i : RegWithSubs<"w"#i, [!cast<Reg>("L"#i)]> {
      let SubRegIndices = [sub_lo];
      let HWEncoding = i;
      let DwarfNumbers = [!add(i, 16)];
    }
  }
}
def GPR16 : RegClass<"Mini", [16], 16, (sequence "L%u", 0, 7)>;
def GPR32 : RegClass<"Mini", [32], 32, (add (sequence "W%u", 4, 7), (sequence "W%u", 0, 3))> {
  let AllocationPriority = 1;
}
def CSR_Mini : CSRs<(sequence "W%u", 4, 7)>;
def GPR32C : RC;
def MOVrr : Instr { let OutOperandList = (outs GPR32C:$d); let InOperandList = (ins GPR32C:$s); let isAsCheapAsAMove = true; }
def ADDrr : Instr {
  let OutOperandList = (outs GPR32C:$d);
  let InOperandList = (ins GPR32C:$a, GPR32C:$b);
  let Constraints = "$a = $d";
  let isCommutable = true;
  let Defs = [W7];
}
