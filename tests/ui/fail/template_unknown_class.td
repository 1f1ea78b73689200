// ui case: spill templates for a register class that is not defined.
include "regalloc.td"
def R0 : Register<"r0">;
def GPR : RegisterClass<"T", [i32], 32, (add R0)>;
def MOV : Instruction {
  let OutOperandList = (outs GPR:$d);
  let InOperandList = (ins GPR:$s);
}
def : SpillTemplates<FPR> { let Copy = (MOV TplReg, TplSrc); }
