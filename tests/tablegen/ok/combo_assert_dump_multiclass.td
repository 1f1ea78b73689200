// assert with computed messages in classes and multiclasses, and dump inside a foreach.
class Width<int w> {
  assert !or(!eq(w, 8), !eq(w, 16), !eq(w, 32)), "unsupported width " # w;
  int W = w;
}
multiclass Widths<list<int> ws> {
  assert !not(!empty(ws)), "need at least one width";
  foreach w = ws in def _ # w : Width<w>;
}
defm A : Widths<[8, 32]>;
foreach w = [16] in {
  dump "making W" # w;
  def W # w : Width<w>;
}
