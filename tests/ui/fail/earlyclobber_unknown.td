// ui case: @earlyclobber naming an unknown operand.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def LDP : Instruction {
  let OutOperandList = (outs GPR:$wb, GPR:$t);
  let InOperandList = (ins GPR:$base, imm:$off);
  let Constraints = "@earlyclobber $wback";
}
