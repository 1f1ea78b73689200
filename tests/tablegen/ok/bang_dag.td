// !dag builds a dag from an operator, a list of arguments and a list of names.
def op;
def GPR;
def D {
  dag built = !dag(op, [1, 2], ["a", "b"]);
  dag recs = !dag(op, [GPR, GPR], ["x", "y"]);
  dag noNames = !dag(op, [3, 4], ?);
  dag noArgs = !dag(op, ?, ["p", "q"]);
}
