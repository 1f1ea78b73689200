// !and !or !xor !not on ints and bits-derived values.
def B {
  int and = !and(12, 10);
  int and3 = !and(15, 7, 3);
  int or = !or(12, 3);
  int xor = !xor(12, 10);
  int xorNeg = !xor(-1, 5);
  bit not0 = !not(0);
  bit not1 = !not(1);
  bit notExpr = !not(!eq(1, 2));
}
