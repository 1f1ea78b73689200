// ui case: an assert that does not hold.
include "regalloc.td"
class Even<int n> { assert !eq(!and(n, 1), 0), "n must be even"; }
def Three : Even<3>;
