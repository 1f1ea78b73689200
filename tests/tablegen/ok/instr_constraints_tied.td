// Two-address instructions whose Constraints strings are built from operand names with !interleave.
include "minireg.td"
include "miniinstr.td"
def GPR : RC;
class TwoAddr<string mn, list<string> tied> : Instr {
  let OutOperandList = (outs GPR:$dst);
  let InOperandList = (ins GPR:$src1, GPR:$src2);
  let AsmString = mn # "\t$dst, $src2";
  let Constraints = !interleave(!foreach(t, tied, t # " = $dst"), ", ");
}
def SHL2 : TwoAddr<"shl2", ["$src1"]>;
def MAC : TwoAddr<"mac", ["$src1", "$src2"]>;
def EarlyClob : Instr { let Constraints = "@earlyclobber $dst"; let OutOperandList = (outs GPR:$dst); }
