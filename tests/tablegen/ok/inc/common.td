// Shared classes used by several include tests.
class Base<int v> {
  int Value = v;
  string Origin = "inc/common.td";
}
def FromCommon : Base<1>;
