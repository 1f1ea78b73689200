// !cast to a record names a def that does not exist.
class Reg;
def r0 : Reg;
def A { Reg r = !cast<Reg>("r1"); }
