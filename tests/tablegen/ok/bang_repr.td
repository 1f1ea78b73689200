// !repr renders values of several types as their TableGen text.
class C<int n> { int N = n; }
def c1 : C<1>;
def op;
def R {
  string i = !repr(42);
  string s = !repr("str");
  string l = !repr([1, 2]);
  string d = !repr((op 1:$x, "a"));
  string b = !repr({0, 1});
  string rec = !repr(c1);
  string u = !repr(?);
}
