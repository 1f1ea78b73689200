// ui case: a tie between two input operands.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def ADD : Instruction {
  let OutOperandList = (outs GPR:$dst);
  let InOperandList = (ins GPR:$a, GPR:$b);
  let Constraints = "$a = $b";
}
