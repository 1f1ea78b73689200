// ui case: an operand typed by a record that is neither a class nor an operand type.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def junk;
def MOV : Instruction {
  let OutOperandList = (outs GPR:$dst);
  let InOperandList = (ins junk:$src);
}
