// Inside a multiclass, a def refers to a sibling def of the same defm through !cast<...>(NAME # suffix).
class Base { int Size = 0; }
class Derived<Base b> { Base Of = b; int Size2 = !mul(b.Size, 2); }
multiclass Family<int s> {
  def _base : Base { let Size = s; }
  def _twice : Derived<!cast<Base>(NAME # "_base")>;
}
defm F4 : Family<4>;
defm F8 : Family<8>;
