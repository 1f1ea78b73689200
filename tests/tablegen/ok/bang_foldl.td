// !foldl accumulates over a list: sums, string joins and building lists.
def F {
  int sum = !foldl(0, [1, 2, 3, 4], acc, x, !add(acc, x));
  string joined = !foldl("", ["a", "b", "c"], acc, s, acc # s);
  list<int> reversed = !foldl([]<int>, [1, 2, 3], acc, x,
                              !listconcat([x], acc));
  int emptyList = !foldl(42, []<int>, acc, x, !add(acc, x));
}
