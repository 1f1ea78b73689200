// !shl !srl !sra: logical vs arithmetic right shift on negative numbers.
def S {
  int shl = !shl(1, 10);
  int srl = !srl(256, 4);
  int sra = !sra(256, 4);
  int srlNeg = !srl(-16, 2);
  int sraNeg = !sra(-16, 2);
  int shlBig = !shl(1, 62);
}
