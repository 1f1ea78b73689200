// ui case: a bang operator with the wrong number of operands.
include "regalloc.td"
def X { int V = !sub(1); }
