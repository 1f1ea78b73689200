// Template arguments with default values; callers may omit trailing ones.
class Opt<int a, int b = 10, string c = "dflt"> {
  int A = a;
  int B = b;
  string C = c;
}
def NoneGiven : Opt<1>;
def OneGiven : Opt<1, 2>;
def AllGiven : Opt<1, 2, "given">;
