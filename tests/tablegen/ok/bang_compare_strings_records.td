// Comparisons on strings (ordering too) and !eq/!ne on records.
def r1;
def r2;
def C {
  bit sEq = !eq("abc", "abc");
  bit sNe = !ne("abc", "abd");
  bit sLt = !lt("abc", "abd");
  bit sGe = !ge("b", "abc");
  bit rEq = !eq(r1, r1);
  bit rNe = !ne(r1, r2);
  bit bitEq = !eq(true, 1);
}
