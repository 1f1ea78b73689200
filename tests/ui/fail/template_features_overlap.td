// ui case: two templates of one class under features neither of which implies the other.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def ST : Instruction { let OutOperandList = (outs); let InOperandList = (ins GPR:$v, GPR:$base, imm:$off); }
def LD : Instruction { let OutOperandList = (outs GPR:$d); let InOperandList = (ins GPR:$base, imm:$off); }
def FeatureA : SubtargetFeature<"a", "HasA", "true", "feature a">;
def FeatureB : SubtargetFeature<"b", "HasB", "true", "feature b">;
def : SpillTemplates<GPR> { let Features = [FeatureA]; let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }
def : SpillTemplates<GPR> { let Features = [FeatureB]; let Spill = (ST TplReg, TplSlot, 4); let Reload = (LD TplReg, TplSlot, 4); }
