// ui case: an expression naming nothing.
include "regalloc.td"
def R0 : Register<"r0"> { let HWEncoding = Nowhere; }
