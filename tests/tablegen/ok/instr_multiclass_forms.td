// A multiclass making register-register and register-immediate forms with encodings per opcode.
include "minireg.td"
include "miniinstr.td"
def GPR : RC;
class ALU<bits<4> op, bits<2> form, string asm, dag ops> : Instr {
  let OutOperandList = (outs GPR:$rd);
  let InOperandList = ops;
  let AsmString = asm;
  let Inst{31-28} = op;
  let Inst{27-26} = form;
}
multiclass ALUOps<bits<4> op, string mn, bit comm = false> {
  def rr : ALU<op, 0b00, mn # " $rd, $a, $b", (ins GPR:$a, GPR:$b)> { let isCommutable = comm; }
  def ri : ALU<op, 0b01, mn # " $rd, $a, $imm", (ins GPR:$a, simm12:$imm)>;
}
defm ADD : ALUOps<0x1, "add", true>;
defm SUB : ALUOps<0x2, "sub">;
defm XOR : ALUOps<0x7, "xor", true>;
