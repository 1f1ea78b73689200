// let ... in inside a foreach body and a foreach inside a let.
class C { int X = 0; int Y = 0; }
foreach i = 1-2 in {
  let X = i in
  def A#i : C;
}
let Y = 5 in
foreach i = 1-2 in
  def B#i : C { let X = !mul(i, 10); }
