// A let in a def body assigns a string to an inherited int field.
class C { int n = 0; }
def A : C { let n = "five"; }
