// Registers with alternative assembly names and dwarf numbers computed with arithmetic.
include "minireg.td"
defvar abi = ["zero", "ra", "sp", "gp"];
foreach i = 0-3 in
  def x#i : Reg<"x"#i, [abi[i]]> {
    let HWEncoding = i;
    let DwarfNumbers = [!add(i, 100)];
    let CostPerUse = !if(!lt(i, 2), 1, 0);
  }
def XRegs : RegClass<"Toy", [32, 64], 32, (sequence "x%u", 0, 3)>;
