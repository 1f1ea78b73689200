// The same multiclass name is defined twice.
multiclass M { def _a; }
multiclass M { def _b; }
