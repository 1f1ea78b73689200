// A def of a subclass is accepted where a superclass type is expected, including in lists.
class Reg;
class GPR : Reg;
class FPR : Reg;
def r0 : GPR;
def f0 : FPR;
class UsesReg<Reg r> { Reg R = r; }
def U1 : UsesReg<r0>;
def U2 : UsesReg<f0>;
def ListOfRegs { list<Reg> all = [r0, f0]; }
