// Anonymous top-level defs (def : C;) are numbered in the order they are created.
class C<int v> { int V = v; }
def : C<1>;
def Named : C<2>;
def : C<3>;
def : C<4> { let V = 40; }
