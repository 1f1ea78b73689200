// Including the same guarded file twice defines its records once.
include "guarded.td"
include "guarded.td"
def User : Guarded {let g = 8;}
