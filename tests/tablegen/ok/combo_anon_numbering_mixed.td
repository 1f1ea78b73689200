// Anonymous numbering when anonymous defs, anonymous instantiations, foreach and defm interleave.
class T<int v> { int V = v; }
class Holder<T t> { T Held = t; }
def : T<1>;
def H1 : Holder<T<2>>;
foreach i = [3, 4] in def : T<i>;
multiclass M { def : T<5>; def _n : Holder<T<6>>; }
defm : M;
defm Named : M;
def : Holder<T<2>>;
