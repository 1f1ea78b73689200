// A small multiclass library used by an include test.
class LibRec<string n, int v> { string N = n; int V = v; }
multiclass Pair<int v> {
  def _lo : LibRec<NAME # "_lo", v>;
  def _hi : LibRec<NAME # "_hi", !add(v, 1)>;
}
