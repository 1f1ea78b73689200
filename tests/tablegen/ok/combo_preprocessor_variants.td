// Preprocessor selecting between class variants, combined with multiclass and foreach.
#define HAS_FPU
#ifdef HAS_FPU
class Unit<string n> { string Name = n; bit Float = true; }
#else
class Unit<string n> { string Name = n; bit Float = false; }
#endif
multiclass Units<list<string> names> {
  foreach n = names in def _ # n : Unit<n>;
}
#ifndef NO_VECTOR
defm V : Units<["add", "mul"]>;
#endif
defm S : Units<["div"]>;
