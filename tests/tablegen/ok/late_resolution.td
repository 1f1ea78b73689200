// Late resolution: a field computed from another field sees the value a later let gives it.
class C {
  int Size = 4;
  int Bits = !mul(Size, 8);
  string Desc = "size" # Size;
}
def Default : C;
def Overridden : C { let Size = 8; }
let Size = 2 in def TopLet : C;
class D : C { let Size = 16; }
def ViaSubclass : D;
