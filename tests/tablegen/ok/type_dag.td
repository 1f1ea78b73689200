// The dag type: operator, arguments, argument names, nested dags and unset args.
def op;
def a;
def b;
def D {
  dag empty = (op);
  dag args = (op a, b, 1, "s");
  dag named = (op a:$x, 2:$y, $z);
  dag nested = (op (op a), (op b:$q));
  dag opname = (op:$top a);
  dag unsetArg = (op ?, ?:$u);
}
