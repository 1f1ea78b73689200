// Field access names a field the record does not have.
class C { int known = 1; }
def c0 : C;
def A { int x = c0.unknown; }
