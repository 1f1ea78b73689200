// !foreach over a dag maps each argument (the variable is dag-typed) and keeps operator and names.
class Node;
def op : Node;
def a : Node;
def b : Node;
def F {
  dag recs = (op a:$p, b, a);
  dag swapped = !foreach(v, recs, !subst(a, b, v));
  dag constant = !foreach(v, (op 1:$x, 2), 0);
}
