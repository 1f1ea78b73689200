// ui case: a string given where bits<16> is wanted.
include "regalloc.td"
def R0 : Register<"r0"> { let HWEncoding = "zero"; }
