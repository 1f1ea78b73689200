// A class is given more template arguments than it declares.
class C<int a, int b> { int A = a; int B = b; }
def X : C<1, 2, 3>;
