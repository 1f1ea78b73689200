// A class template argument of class type receives a def of an unrelated class.
class Reg;
class Imm;
def i0 : Imm;
class UsesReg<Reg r> { Reg R = r; }
def A : UsesReg<i0>;
