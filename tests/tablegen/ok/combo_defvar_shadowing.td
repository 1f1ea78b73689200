// defvar in an inner scope (foreach, class, multiclass, def) shadows a top-level defvar of the same name.
defvar v = "outer";
foreach i = [1, 2] in {
  defvar v = "loop" # i;
  def L#i { string s = v; }
}
class C { defvar v = "class"; string s = v; }
def FromClass : C;
multiclass M { defvar v = "multi"; def _d { string s = v; } }
defm MC : M;
def Top { string s = v; }
