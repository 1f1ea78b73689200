include "llvm/Target/Target.td"
include "registers.td"
def X86 : Target;
