// !add !sub !mul !div with several operands, negatives and truncating division.
def A {
  int add2 = !add(1, 2);
  int add4 = !add(1, 2, 3, 4);
  int sub = !sub(10, 25);
  int mul = !mul(-3, 7);
  int mul3 = !mul(2, 3, 4);
  int div = !div(7, 2);
  int divNeg = !div(-7, 2);
  int onBits = !add({1, 1}, 1);
}
