// if/then/else inside a multiclass driven by template arguments.
class W<int n> { int N = n; }
multiclass Sizes<bit has64> {
  def _32 : W<32>;
  if has64 then
    def _64 : W<64>;
  else
    def _none : W<0>;
}
defm Big : Sizes<1>;
defm Small : Sizes<0>;
