// defvar inside a def body, shadowing nothing, used by fields of that def only.
def D {
  defvar local = "loc";
  string S = local # "al";
  int I = !size(local);
}
