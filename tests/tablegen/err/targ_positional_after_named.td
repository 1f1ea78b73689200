// A positional template argument follows a named one.
class C<int a = 1, int b = 2> { int A = a; int B = b; }
def X : C<a = 5, 7>;
