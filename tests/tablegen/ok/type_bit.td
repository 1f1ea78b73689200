// The bit type: literal 0/1, true/false, and values from ints.
def B {
  bit zero = 0;
  bit one = 1;
  bit t = true;
  bit f = false;
  bit unset = ?;
  bit fromExpr = !eq(1, 1);
}
