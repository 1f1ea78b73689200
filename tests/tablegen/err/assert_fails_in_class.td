// An assert in a class body fails for one particular instantiation.
class Pow2<int n> {
  assert !eq(!and(n, !sub(n, 1)), 0), n # " is not a power of two";
  int N = n;
}
def Good : Pow2<8>;
def Bad : Pow2<6>;
