// foreach inside a multiclass body generating several defs per defm.
class R<int n> { int N = n; }
multiclass Bank<int count> {
  foreach i = !range(count) in
    def _#i : R<i>;
}
defm V : Bank<3>;
defm W : Bank<1>;
