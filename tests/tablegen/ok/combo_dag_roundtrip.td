// Taking a dag apart (!getdagop, !getdagarg, !getdagname, !size) and rebuilding it with !dag.
class Node;
def op1 : Node;
def op2 : Node;
def x : Node;
class Rebuild<dag d> {
  list<int> Idx = !range(!size(d));
  list<string> Names = !foreach(i, !range(!size(d)), !getdagname(d, i));
  list<Node> Args = !foreach(i, !range(!size(d)), !getdagarg<Node>(d, i));
  dag Same = !dag(!getdagop<Node>(d), Args, Names);
  dag Other = !dag(op2, Args, Names);
}
def RB : Rebuild<(op1 x:$a, op2:$b, x)>;
