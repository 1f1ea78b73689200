// Instruction-like records: dag operand lists, asm strings with $operands, and a tied Constraints string.
include "minireg.td"
include "miniinstr.td"
foreach i = 0-3 in def R#i : Reg<"r"#i>;
def GPR : RC;
def ADDrr : Instr {
  let OutOperandList = (outs GPR:$rd);
  let InOperandList = (ins GPR:$rs1, GPR:$rs2);
  let AsmString = "add $rd, $rs1, $rs2";
  let isCommutable = true;
}
def ADDI2 : Instr {
  let OutOperandList = (outs GPR:$dst);
  let InOperandList = (ins GPR:$src, simm12:$imm);
  let AsmString = "addi2 $dst, $imm";
  let Constraints = "$src = $dst";
}
