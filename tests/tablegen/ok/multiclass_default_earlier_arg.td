// A multiclass template argument's default may use earlier arguments (X86's IsKZCommutable = IsCommutable, RISC-V's sew = !shl(1, log2sew)).
class B<int x, list<int> y, bit z> { int X = x; list<int> Y = y; bit Z = z; }
multiclass M<int a, list<int> b = [a], int c = !shl(1, a), bit d = 1, bit e = d> {
  def _r : B<c, b, e>;
}
defm D : M<3>;
defm E : M<4, [7]>;
defm F : M<2, d = 0>;
multiclass Outer<int n> {
  defm _in : M<n, [n, n]>;
}
defm G : Outer<5>;
