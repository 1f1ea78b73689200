// !find returns the index of a substring, or -1, optionally from a start position.
def F {
  int found = !find("hello world", "o");
  int fromStart = !find("hello world", "o", 5);
  int missing = !find("abc", "z");
  int emptyNeedle = !find("abc", "");
}
