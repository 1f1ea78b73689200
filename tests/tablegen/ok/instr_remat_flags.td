// Rematerializable and cheap-as-move instructions marked through nested top-level lets.
include "minireg.td"
include "miniinstr.td"
def GPR : RC;
let isReMaterializable = true in {
  let isAsCheapAsAMove = true in {
    def MOVi : Instr { let OutOperandList = (outs GPR:$d); let InOperandList = (ins simm12:$i); }
    def ZERO : Instr { let OutOperandList = (outs GPR:$d); }
  }
  def LUI : Instr { let OutOperandList = (outs GPR:$d); let InOperandList = (ins uimm5:$hi); let Size = 8; }
}
def MOVr : Instr { let OutOperandList = (outs GPR:$d); let InOperandList = (ins GPR:$s); }
