// ui case: a reload template without the stack slot.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def LD : Instruction {
  let OutOperandList = (outs GPR:$d);
  let InOperandList = (ins GPR:$base, imm:$off);
}
def : SpillTemplates<GPR> { let Reload = (LD TplReg, R0, 0); }
