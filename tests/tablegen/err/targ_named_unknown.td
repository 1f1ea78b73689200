// A named template argument names a parameter the class does not have.
class C<int a = 1> { int A = a; }
def X : C<b = 2>;
