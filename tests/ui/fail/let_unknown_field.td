// ui case: a let of a field the record does not have.
include "regalloc.td"
def R0 : Register<"r0"> { let Colour = 3; }
