// A `let` whose bits are values folding to ints (AMDGPU's `let cpol{CPolBit.GLC} = ps.glc;`):
// in a body, in a top-level `let ... in` (bits in angle brackets), as a range, beside integers.
class Bits { int GLC = 0; int SLC = 1; int DLC = 2; }
def CPolBit : Bits;
defvar Top = 4;
class P { bit glc = 1; bit slc = 0; }
def ps : P;
class I { bits<5> cpol = 0; bits<8> Inst = 0; }
def A : I {
  let cpol{CPolBit.GLC} = ps.glc;
  let cpol{Top...CPolBit.DLC} = 0b101;
  let Inst{CPolBit.DLC, 0} = 0b10;
  let Inst{!add(CPolBit.SLC, 5)-CPolBit.SLC} = {1, 0, 1, 1, 0, 1};
}
let cpol<CPolBit.SLC> = 1 in
def B : I;
let Inst<Top, CPolBit.GLC> = 0b11, cpol<3-2> = 0b01 in
def C : I;
