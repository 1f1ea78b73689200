// ui case: a spill template with the wrong number of operands.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def ST : Instruction {
  let OutOperandList = (outs);
  let InOperandList = (ins GPR:$v, GPR:$base, imm:$off);
}
def : SpillTemplates<GPR> { let Spill = (ST TplReg, TplSlot); }
