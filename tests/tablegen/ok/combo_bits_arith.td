// Bit manipulation: shifts and masks computing encoding fields, !cast to bits, slices of the result.
class Imm<int v> {
  int Value = v;
  bits<12> Lo12 = !and(v, 0xfff);
  bits<20> Hi20 = !srl(!add(v, 0x800), 12);
  bits<4> Nibble1 = !cast<bits<4>>(!and(!srl(v, 4), 0xf));
  bits<8> Byte0 = Lo12{7-0};
  int Signed = !sra(!shl(v, 52), 52);
}
def I1 : Imm<0x12345>;
def I2 : Imm<0xfff>;
def I3 : Imm<-1>;
