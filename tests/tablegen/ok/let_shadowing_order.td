// Shadowing order: top-level let beats class default, def-body let beats top-level let.
class C<int v> { int F = v; int G = v; }
let F = 50 in {
  def UsesTop : C<1>;
  def UsesBody : C<1> { let F = 99; }
}
let G = 7 in
def GOnly : C<2>;
