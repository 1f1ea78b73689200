// ui case: two SpillTemplates for one class.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def MOV : Instruction {
  let OutOperandList = (outs GPR:$d);
  let InOperandList = (ins GPR:$s);
}
def : SpillTemplates<GPR> { let Copy = (MOV TplReg, TplSrc); }
def : SpillTemplates<GPR> { let Copy = (MOV TplReg, TplSrc); }
