// hexagon: the prelude and the register file (instructions get included here once targets/hexagon/instrs.td is ready).
include "regalloc.td"
include "registers.td"
