// list<T> for several element types, empty lists and nested lists.
class R;
def r1 : R;
def r2 : R;
def L {
  list<int> ints = [1, 2, 3];
  list<string> strs = ["a", "b"];
  list<bit> bitsl = [0, 1, 1];
  list<R> recs = [r1, r2];
  list<list<int>> nested = [[1], [2, 3], []];
  list<int> empty = [];
  list<dag> dags = [(r1), (r2 1)];
}
