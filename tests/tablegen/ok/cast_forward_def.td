// !cast<Class>("name") in a class body naming a def that only exists later, when the class is used.
class Reg { int Num = 0; }
class UsesName<string n> { Reg R = !cast<Reg>(n); int N = !cast<Reg>(n).Num; }
class FixedName { Reg R = !cast<Reg>("r9"); }
def r7 : Reg { let Num = 7; }
def r9 : Reg { let Num = 9; }
def U : UsesName<"r7">;
def F : FixedName;
