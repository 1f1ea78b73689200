// Field access is applied to a value of type int.
def A { int n = 3; int m = n.field; }
