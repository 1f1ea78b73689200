// A required template argument (no default) is not supplied.
class C<int a, int b = 2> { int A = a; int B = b; }
def X : C;
