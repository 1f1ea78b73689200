// Intrinsics-style builtin name mapping with !cond, !tolower and defaulted template arguments.
class TargetBuiltin<string prefix, string name> { string BuiltinName = "__builtin_" # prefix # "_" # name; }
class Intr<string name, int nargs = 2, bit hasSideEffects = false> {
  string Name = name;
  int NumArgs = nargs;
  string Effects = !cond(hasSideEffects : "side-effects", !eq(nargs, 0) : "constant", true : "pure");
}
multiclass WithBuiltin<string name, int nargs = 2, bit se = false> {
  def NAME : Intr<name, nargs, se>, TargetBuiltin<"toy", !tolower(name)>;
}
defm int_toy_CLZ : WithBuiltin<"CLZ", 1>;
defm int_toy_BARRIER : WithBuiltin<"BARRIER", 0, true>;
defm int_toy_ROTL : WithBuiltin<"ROTL">;
