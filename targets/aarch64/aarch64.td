// aarch64: the prelude and the register file (instructions get included here once targets/aarch64/instrs.td is ready).
include "regalloc.td"
include "registers.td"
