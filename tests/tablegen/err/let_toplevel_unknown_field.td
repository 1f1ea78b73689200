// A top-level let names a field the def does not have.
class C { int known = 1; }
let missing = 5 in
def A : C;
