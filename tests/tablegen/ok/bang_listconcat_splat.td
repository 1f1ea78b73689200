// !listconcat of several lists and !listsplat repeating a value.
def L {
  list<int> cat = !listconcat([1, 2], [3], [], [4, 5]);
  list<string> strs = !listconcat(["a"], ["b", "c"]);
  list<int> splat = !listsplat(7, 3);
  list<string> splatStr = !listsplat("s", 2);
  list<int> splat0 = !listsplat(1, 0);
  list<list<int>> nest = !listsplat([1, 2], 2);
}
