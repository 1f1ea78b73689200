// Register pairs over single registers: each pair's sub-registers found with !cast of computed names.
class SubRegIndex<int size, int off> { int Size = size; int Offset = off; }
def isub_lo : SubRegIndex<32, 0>;
def isub_hi : SubRegIndex<32, 32>;
class Reg<string n> { string Name = n; list<Reg> SubRegs = []; list<SubRegIndex> SubRegIndices = []; bits<8> Enc = 0; }
foreach i = 0-7 in def R#i : Reg<"r"#i> { let Enc = i; }
foreach i = [0, 2, 4, 6] in {
  defvar lo = !cast<Reg>("R" # i);
  defvar hi = !cast<Reg>("R" # !add(i, 1));
  def D # !srl(i, 1) : Reg<"r" # !add(i, 1) # ":" # i> {
    let SubRegs = [lo, hi];
    let SubRegIndices = [isub_lo, isub_hi];
    let Enc = lo.Enc;
  }
}
