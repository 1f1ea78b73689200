// A top-level defvar is NOT substituted in a def name (the identifier is taken literally), unlike loop variables and local defvars.
defvar pre = "P";
def pre # _one;
foreach i = [1] in {
  defvar loc = "L";
  def loc # i;
  def pre # i;
}
def X { string s = pre; }
