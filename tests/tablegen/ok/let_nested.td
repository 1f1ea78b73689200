// Nested let blocks: the innermost let wins, outer lets still apply to other fields.
class C { int A = 0; int B = 0; int Cf = 0; }
let A = 1 in {
  let B = 2 in {
    def AB : C;
    let A = 10 in
    def AB2 : C;
  }
  let Cf = 3 in def AC : C;
}
