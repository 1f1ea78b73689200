// A field declaration is missing its terminating semicolon.
def A {
  int x = 1
  int y = 2;
}
