// A nested defm receives the outer multiclass's template arguments and NAME in its arguments.
class Info<string n, int w> { string From = n; int Width = w; }
multiclass Leaf<string owner, int w> { def _leaf : Info<owner, w>; }
multiclass Middle<int w> { defm _m : Leaf<NAME, !mul(w, 2)>; }
defm Top : Middle<8>;
