// A register's def names a misspelt class; every later use of it follows from that.
class Reg<string n> { string AsmName = n; }
class RegClass<list<Reg> regs> { list<Reg> Members = regs; }
def R0 : Reg<"r0">;
def R1 : Regg<"r1">;
def GPR : RegClass<[R0, R1]>;
def ALL : RegClass<[R0, R1]>;
def Pair { list<RegClass> classes = [GPR, ALL]; }
