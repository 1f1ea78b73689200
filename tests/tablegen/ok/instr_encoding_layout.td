// An instruction encoding assembled from operand fields with bit ranges and concatenated bits.
include "minireg.td"
include "miniinstr.td"
def GPR : RC;
class RType<bits<7> funct7, bits<3> funct3, bits<7> opcode> : Instr {
  bits<5> rd;
  bits<5> rs1;
  bits<5> rs2;
  let Inst{31-25} = funct7;
  let Inst{24-20} = rs2;
  let Inst{19-15} = rs1;
  let Inst{14-12} = funct3;
  let Inst{11-7} = rd;
  let Inst{6-0} = opcode;
}
def ADD : RType<0b0000000, 0b000, 0b0110011>;
def SUB : RType<0b0100000, 0b000, 0b0110011>;
def FIXED : RType<0, 0b111,
                  0b0010011> { let rd = 1; let rs1 = 2; let rs2 = {0, 0, 1, 1,
                      1}; }
