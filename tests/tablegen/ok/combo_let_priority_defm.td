// Let priority across layers: class default < multiclass let < top-level let around defm < def-body let.
class C { int A = 0; int B = 0; int Cc = 0; int D = 0; }
multiclass M {
  let A = 1, B = 1 in {
    def _x : C;
    def _y : C { let B = 2; }
  }
}
let A = 10, Cc = 10 in
defm Outer : M;
defm Plain : M;
