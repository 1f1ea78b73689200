// Nested defsets: inner defs belong to both the inner and outer set.
class T;
defset list<T> Outer = {
  def a : T;
  defset list<T> Inner = {
    def b : T;
  }
  def c : T;
}
def Sets { list<T> O = Outer; list<T> I = Inner; }
