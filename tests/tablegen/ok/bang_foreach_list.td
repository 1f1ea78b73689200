// !foreach over lists mapping each element, including to a different element type.
def F {
  list<int> squares = !foreach(x, [1, 2, 3], !mul(x, x));
  list<string> names = !foreach(x, [1, 2], "R" # x);
  list<list<int>> wraps = !foreach(x, [4, 5], [x, x]);
  list<int> overRange = !foreach(i, !range(4), !shl(1, i));
}
