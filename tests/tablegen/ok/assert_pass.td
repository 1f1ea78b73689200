// assert statements that hold: at top level, in a class body, and in a multiclass.
assert !eq(!add(2, 2), 4), "arithmetic works";
class Checked<int n> {
  assert !gt(n, 0), "n must be positive";
  int N = n;
}
def C1 : Checked<1>;
multiclass M<int w> {
  assert !le(w, 64), "too wide: " # w;
  def _w : Checked<w>;
}
defm X : M<32>;
