// ui case: too many template arguments.
include "regalloc.td"
class Two<int a, int b> { int S = !add(a, b); }
def X : Two<1, 2, 3>;
