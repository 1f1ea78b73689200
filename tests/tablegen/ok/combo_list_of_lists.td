// Nested lists of records and ints: indexing, slicing, !foldl flattening and !foreach transforms.
class R<int n> { int N = n; }
foreach i = 0-5 in def r#i : R<i>;
def Groups {
  list<list<R>> G = [[r0, r1], [r2, r3, r4], [r5]];
  list<R> Second = G[1];
  list<R> Flat = !foldl([]<R>, G, acc, g, !listconcat(acc, g));
  list<int> Sizes = !foreach(g, G, !size(g));
  list<list<int>> Nums = !foreach(g, G, !foreach(r, g, r.N));
  list<R> Picked = !foldl([]<R>, G, acc, g, !listconcat(acc, [!head(g)]));
}
