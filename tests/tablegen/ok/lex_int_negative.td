// Negative integer literals, in decimal and hex, and in lists and arguments.
class C<int v> { int V = v; }
def Neg : C<-3> {
  int a = -1;
  int b = -16;
  int c = -9223372036854775807;
  list<int> l = [-1, 2, -3];
  bits<8> m = -1;
}
