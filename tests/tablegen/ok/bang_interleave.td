// !interleave joins a list of strings or ints with a separator.
def I {
  string commas = !interleave(["a", "b", "c"], ", ");
  string ints = !interleave([1, 2, 3], "-");
  string single = !interleave(["only"], "+");
  string empty = !interleave([]<string>, "+");
}
