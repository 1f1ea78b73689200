// !cast in a def's own body names a def that is defined only later in the file.
class Reg;
def A { Reg r = !cast<Reg>("later"); }
def later : Reg;
