// ui case: a spill template whose operator is not an instruction.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def ST : Instruction {
  let OutOperandList = (outs);
  let InOperandList = (ins GPR:$v, GPR:$base, imm:$off);
}
def NOT_AN_INSTR;
def : SpillTemplates<GPR> { let Spill = (NOT_AN_INSTR TplReg, TplSlot, 0); }
