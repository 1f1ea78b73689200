// Anonymous instantiations with identical arguments are the same record; different arguments differ.
class K<int n, string s = "k"> { int N = n; string S = s; }
def A { K first = K<1>; K second = K<1>; K third = K<2>; K fourth = K<1, "k">; K fifth = K<1, "other">; }
def B { K again = K<1>; }
