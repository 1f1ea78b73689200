// A class body declares the same field twice, the second time with another type.
class C {
  int x = 1;
  string x = "two";
}
