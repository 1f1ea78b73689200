// !head and !tail on lists of several element types.
def H {
  int first = !head([7, 8, 9]);
  list<int> rest = !tail([7, 8, 9]);
  list<int> restOfOne = !tail([1]);
  string firstStr = !head(["x", "y"]);
  list<list<int>> nestedTail = !tail([[1], [2, 3]]);
}
