// Three levels of multiclass nesting with template args passed down and NAME composed at each level.
class Leaf<string path, int depth> { string Path = path; int Depth = depth; }
multiclass L3<string p> { def _c : Leaf<p # "/c", 3>; }
multiclass L2<string p> {
  defm _b : L3<p # "/b">;
  def _b2 : Leaf<p # "/b2", 2>;
}
multiclass L1 {
  defm _a : L2<NAME>;
  def _a1 : Leaf<NAME # "/a1", 1>;
}
defm Root : L1;
