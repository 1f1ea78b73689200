include "llvm/Target/Target.td"
include "registers.td"
def AArch64 : Target;
