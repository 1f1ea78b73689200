// !exists<Class>("name") checks whether a def of that name and class exists yet.
class Reg;
def R0 : Reg;
def NotReg;
def Q {
  bit r0 = !exists<Reg>("R0");
  bit r1 = !exists<Reg>("R1");
  bit wrongClass = !exists<Reg>("NotReg");
  bit pasted = !exists<Reg>("R" # 0);
}
