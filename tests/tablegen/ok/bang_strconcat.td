// !strconcat with two and more operands, and the # operator as shorthand.
def S {
  string two = !strconcat("ab", "cd");
  string many = !strconcat("a", "b", "c", "d");
  string empty = !strconcat("", "");
  string hash = "x" # "y" # "z";
}
