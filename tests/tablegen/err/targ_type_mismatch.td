// A template argument of type int receives a string.
class C<int a> { int A = a; }
def X : C<"not an int">;
