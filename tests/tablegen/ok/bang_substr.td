// !substr with start only, start and length, and lengths past the end.
def S {
  string fromTwo = !substr("abcdef", 2);
  string mid = !substr("abcdef", 1, 3);
  string past = !substr("abc", 1, 100);
  string atEnd = !substr("abc", 3);
  string zeroLen = !substr("abc", 0, 0);
}
