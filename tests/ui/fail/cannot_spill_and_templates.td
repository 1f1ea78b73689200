// ui case: a class declared unspillable that also has spill templates.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def ST : Instruction { let OutOperandList = (outs); let InOperandList = (ins GPR:$v, GPR:$base, imm:$off); }
def LD : Instruction { let OutOperandList = (outs GPR:$d); let InOperandList = (ins GPR:$base, imm:$off); }
def : CannotSpill<GPR, "no store reaches these registers">;
def : SpillTemplates<GPR> { let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }
