// A bit index written as a value that folds to an int: a def's field (AMDGPU's cpol{CPolBit.GLC}), an operator, a range of them.
class Bits { int GLC = 0; int SLC = 1; int DLC = 2; }
def CPolBit : Bits;
defvar Top = 4;
class I {
  bits<5> cpol = 0b10110;
  bit glc = cpol{CPolBit.GLC};
  bit slc = cpol{CPolBit.SLC};
  bits<2> two = cpol{!add(CPolBit.SLC, 1)-CPolBit.SLC};
  bits<3> three = cpol{Top...CPolBit.DLC};
  bits<2> mixed = cpol{CPolBit.DLC, 0};
}
def X : I;
class J { bits<4> enc; bit lo = enc{CPolBit.GLC}; }
def Y : J;
