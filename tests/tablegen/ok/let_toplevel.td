// Top-level let ... in applies to every def in its scope, with and without braces.
class C { int X = 0; string S = ""; }
let X = 1 in
def One : C;
let X = 2, S = "two" in {
  def Two : C;
  def Three : C { let X = 3; }
}
def Zero : C;
