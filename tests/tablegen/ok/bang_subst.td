// !subst replaces substrings in strings and whole records in record values.
class R;
def old : R;
def new : R;
def S {
  string s = !subst("ab", "X", "abcabc");
  string noMatch = !subst("zz", "Y", "abc");
  R r = !subst(old, new, old);
  R keep = !subst(new, old, old);
}
