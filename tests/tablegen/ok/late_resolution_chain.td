// Late resolution through a chain of fields and a template argument default.
class Chain<int seed = 1> {
  int A = seed;
  int B = !add(A, 1);
  int C = !mul(B, 10);
  list<int> All = [A, B, C];
}
def Plain : Chain;
def Reset : Chain<5> { let A = 100; }
