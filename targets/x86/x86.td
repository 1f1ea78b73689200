// x86: the prelude and the register file (instructions get included here once targets/x86/instrs.td is ready).
include "regalloc.td"
include "registers.td"
