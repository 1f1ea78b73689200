// !eq !ne !lt !le !gt !ge on ints and bits.
def C {
  bit eq = !eq(3, 3);
  bit ne = !ne(3, 4);
  bit lt = !lt(-1, 0);
  bit le = !le(5, 5);
  bit gt = !gt(2, 9);
  bit ge = !ge(9, 2);
  bit bitsEq = !eq({1, 0}, 2);
}
