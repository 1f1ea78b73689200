// Bit-range lets that assign other fields' bits, building an instruction word.
class Inst2 {
  bits<16> Word;
  bits<4> rd = 0;
  bits<4> rs = 0;
  let Word{15-12} = 0b1001;
  let Word{11-8} = rd;
  let Word{7-4} = rs;
  let Word{3-0} = 0;
}
def ADD : Inst2 { let rd = 3; let rs = 5; }
