// !exists guarding !cast in a foreach, so missing records fall back to a default.
class Reg<string n> { string AsmName = n; }
def R0 : Reg<"r0">;
def R2 : Reg<"r2">;
def RNone : Reg<"none">;
foreach i = 0-3 in
  def Use#i {
    Reg R = !if(!exists<Reg>("R" # i), !cast<Reg>("R" # i), RNone);
  }
