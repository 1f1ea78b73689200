// bpf: the prelude and the register file (instructions get included here once targets/bpf/instrs.td is ready).
include "regalloc.td"
include "registers.td"
