// 'field' declarations inherited and overridden by let; !fields lists the inherited field names.
class Enc {
  field bits<8> Inst = 0;
  field bits<8> SoftFail = 0;
  int Size = 1;
}
class Enc2 : Enc {
  field bits<4> Extra = 0xF;
  let Inst{7-4} = 0b0101;
}
def E : Enc2 { let SoftFail{0} = 1; let Size = 2; }
def F : Enc;
