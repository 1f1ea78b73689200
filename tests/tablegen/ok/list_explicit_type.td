// List literals with an explicit element type [a, b]<T>, including empty typed lists.
class R;
class S : R;
def s1 : S;
def L {
  list<int> typedInts = [1, 2]<int>;
  list<string> emptyStrs = []<string>;
  list<R> widened = [s1]<R>;
  int sz = !size([]<int>);
}
