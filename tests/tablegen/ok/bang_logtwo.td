// !logtwo computes the floor of log base 2.
def L {
  int one = !logtwo(1);
  int eight = !logtwo(8);
  int nine = !logtwo(9);
  int big = !logtwo(4096);
}
