// ui case: a def derived from a class that does not exist.
include "regalloc.td"
def R0 : Registr<"r0">;
