// !filter keeps list elements for which the predicate is true.
class R<int n> { int N = n; }
foreach i = 0-4 in def Rg#i : R<i>;
def F {
  list<int> evens = !filter(x, [1, 2, 3, 4, 5, 6], !eq(!and(x, 1), 0));
  list<string> longOnes = !filter(s, ["a", "bbb", "cc"], !gt(!size(s), 1));
  list<R> big = !filter(r, [Rg0, Rg1, Rg2, Rg3, Rg4], !ge(r.N, 3));
  list<int> none = !filter(x, [1, 2], 0);
}
