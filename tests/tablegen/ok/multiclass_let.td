// let inside a multiclass body and a top-level let around a defm.
class C { int X = 0; int Y = 0; int Z = 0; }
multiclass M {
  let X = 1 in {
    def _a : C;
    def _b : C { let Y = 2; }
  }
  def _c : C;
}
defm P : M;
let Z = 3 in
defm Q : M;
