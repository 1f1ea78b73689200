// The unset value ? for every type, and fields declared without an initializer.
class R;
def U {
  int i = ?;
  string s = ?;
  bit b = ?;
  bits<3> bs = ?;
  list<int> l = ?;
  dag d = ?;
  R r = ?;
  int noInit;
  string noInitS;
  list<R> noInitL;
}
