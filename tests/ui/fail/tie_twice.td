// ui case: one input operand tied twice.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def ADD2 : Instruction {
  let OutOperandList = (outs GPR:$d1, GPR:$d2);
  let InOperandList = (ins GPR:$a);
  let Constraints = "$d1 = $a,$d2 = $a";
}
