// A small register file in the TableGen language: the example README.md runs.
class Reg<string n, int enc> {
  string AsmName = n;
  bits<16> HWEncoding = enc;
  list<Reg> SubRegs = [];
}

class RegClass<string ns, list<Reg> regs, int size = 64> {
  string Namespace = ns;
  list<Reg> Members = regs;
  int Size = size;
}

// R0-R11 and their 32-bit halves W0-W11.
foreach i = 0-11 in {
  def W#i : Reg<"w"#i, i>;
  def R#i : Reg<"r"#i, i> { let SubRegs = [!cast<Reg>("W"#i)]; }
}

defvar all = !foreach(i, !range(12), !cast<Reg>("R"#i));
def GPR : RegClass<"Toy", all>;
def GPR32 : RegClass<"Toy", !foreach(r, all, !head(r.SubRegs)), 32>;
def CalleeSaved : RegClass<"Toy", !filter(r, all, !ge(r.HWEncoding, 6))>;
