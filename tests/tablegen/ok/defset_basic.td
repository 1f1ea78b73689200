// defset collects the defs made inside its braces (also from foreach and defm) into a list.
class Reg<int n> { int N = n; }
multiclass Two { def _x : Reg<0>; def _y : Reg<1>; }
defset list<Reg> AllRegs = {
  def R0 : Reg<0>;
  foreach i = 1-2 in def R#i : Reg<i>;
  defm P : Two;
}
def Summary { list<Reg> regs = AllRegs; int count = !size(AllRegs); }
