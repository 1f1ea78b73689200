// The int type from literals, bits and expressions.
def I {
  int a = 42;
  int b = -42;
  int c = !add(a, b);
  int d = {1, 1, 0};
  int e = true;
}
