// Includes inc/regs.td through the include directory the macro names.
include "regalloc.td"
include "regs.td"
def ARegs : RegisterClass<"I", [i32], 32, (add A1, A0)>;
