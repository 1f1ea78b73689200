// foreach around defm inside a defset: the set lists all defs from every iteration.
class V<int w, string k> { int W = w; string K = k; }
multiclass Kinds<int w> {
  def _int : V<w, "int">;
  def _fp : V<w, "fp">;
}
defset list<V> AllV = {
  foreach w = [32, 64] in
    defm T # w : Kinds<w>;
}
def Q { list<string> names = !foreach(v, AllV, !cast<string>(v)); }
