// defvar inside a class body sees template arguments and is not a field.
class Scaled<int base> {
  defvar factor = 4;
  defvar scaled = !mul(base, factor);
  int Result = scaled;
  string Desc = "x" # factor;
}
def S3 : Scaled<3>;
def S5 : Scaled<5>;
