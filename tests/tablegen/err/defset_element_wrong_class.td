// A def inside a defset is not of the class named by the defset's element type.
class Reg;
class Imm;
defset list<Reg> Regs = {
  def r0 : Reg;
  def i0 : Imm;
}
