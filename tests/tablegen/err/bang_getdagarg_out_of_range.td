// !getdagarg indexes past the last argument of a dag.
def op;
def A { int n = !getdagarg<int>((op 1, 2), 5); }
