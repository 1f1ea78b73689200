// !cond picks the first true clause; a final 'true' clause acts as a default.
class Size<int n> {
  string Name = !cond(!eq(n, 8) : "byte",
                      !eq(n, 16) : "half",
                      !eq(n, 32) : "word",
                      true : "other");
  int Log = !cond(!le(n, 8) : 3, !le(n, 16) : 4, 1 : 5);
}
def B : Size<8>;
def H : Size<16>;
def W : Size<32>;
def X : Size<48>;
