// ui case: two PointerRegClass defs for one pointer kind.
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def LOW : RegisterClass<"T", [i32], 32, (add R0)>;
def ptr : PointerLikeRegClass<0>;
def LD : Instruction {
  let OutOperandList = (outs GPR:$d);
  let InOperandList = (ins ptr:$base);
}
def : PointerRegClass<0, GPR>;
def : PointerRegClass<0, LOW>;
