// defm inside a multiclass: names compose outer NAME + inner defm name + def name.
class Leaf<int v> { int V = v; }
multiclass Inner<int v> {
  def _lo : Leaf<v>;
  def _hi : Leaf<!add(v, 100)>;
}
multiclass Outer<int base> {
  defm _a : Inner<base>;
  defm _b : Inner<!add(base, 1)>;
  def _own : Leaf<base>;
}
defm X : Outer<1>;
