// A multiclass from an included file used with defm, top-level let and a def-level override.
include "mc_lib.td"
defm P0 : Pair<0>;
let V = 99 in
defm P1 : Pair<10>;
def Extra : LibRec<"extra", P0_hi.V>;
