// Re-declaring a field with the same type in a body acts like an assignment: the later initializer wins.
class Base { int x = 1; string s = "base"; }
def D : Base {
  int x = 2;
  string s = "derived";
}
def E {
  int y = 1;
  int y = 3;
}
