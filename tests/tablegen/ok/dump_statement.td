// dump writes a note to stderr but does not change the records or the exit status.
defvar v = [1, 2, 3];
dump "v is " # !repr(v);
class C<int n> { int N = n; }
def D : C<2>;
dump D;
