include "llvm/Target/Target.td"
include "registers.td"
def Hexagon : Target;
