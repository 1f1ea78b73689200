// ui case: a memory fold whose memory form does not line up with the register form.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def mem : Operand<i32> { let MIOperandInfo = (ops GPR:$base, imm:$off); }
def ADDrr : Instruction {
  let OutOperandList = (outs GPR:$d);
  let InOperandList = (ins GPR:$a, GPR:$b);
  let Constraints = "$d = $a";
}
def CMPrm : Instruction {
  let OutOperandList = (outs);
  let InOperandList = (ins GPR:$a, GPR:$x, mem:$m);
  let mayLoad = true;
}
def : MemoryFold<ADDrr, 2, CMPrm, (ops TplSlot, 0)>;
