// !cast names an existing def that is not of the requested class.
class Reg;
class Imm;
def i0 : Imm;
def A { Reg r = !cast<Reg>("i0"); }
