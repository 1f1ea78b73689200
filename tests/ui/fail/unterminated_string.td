// ui case: a string literal that never ends.
include "regalloc.td"
def R0 : Register<"r0>;
