// An assert condition evaluates to the unset value ?, which is not a bit.
class C<int n> { int N = n; }
def A : C<?>;
assert !eq(A.N, 1), "needs a value";
