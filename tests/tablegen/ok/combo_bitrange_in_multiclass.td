// Bit-range lets inside multiclass defs, with encodings built from template args and a foreach index.
class Enc { bits<16> Inst = 0; }
multiclass Forms<bits<4> major> {
  foreach minor = 0-2 in
    def _ # minor : Enc {
      let Inst{15-12} = major;
      let Inst{11-8} = minor;
      let Inst{0} = !eq(minor, 2);
    }
}
defm LD : Forms<0x3>;
defm ST : Forms<0xC>;
