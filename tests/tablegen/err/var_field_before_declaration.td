// A field refers to another field that is declared only after it.
def A {
  int a = b;
  int b = 1;
}
