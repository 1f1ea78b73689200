// ui case: a def with no name or body.
include "regalloc.td"
def : ;
