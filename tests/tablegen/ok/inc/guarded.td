// A header with an include guard, so including it twice is harmless.
#ifndef GUARDED_TD
#define GUARDED_TD
class Guarded { int g = 7; }
def GuardedDef : Guarded;
#endif
