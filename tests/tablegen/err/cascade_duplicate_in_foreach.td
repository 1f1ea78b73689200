// A loop defines a name that exists: the loop stops there, and the names it
// would have defined after it are not reported again where they are used.
class Reg;
def R2 : Reg;
foreach i = 0-5 in def R#i : Reg;
def Regs { list<Reg> all = [R0, R1, R2, R3, R4, R5]; }
