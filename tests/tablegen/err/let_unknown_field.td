// A let in a def body names a field that does not exist.
class C { int known = 1; }
def A : C { let unknown = 2; }
