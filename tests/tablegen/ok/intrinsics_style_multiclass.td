// Intrinsics-style multiclass producing per-width intrinsics with names pasted from NAME and widths.
class VT<int nbits> { int Bits = nbits; }
foreach w = [8, 16, 32] in def v#w : VT<w>;
class Intr<string name, list<VT> args> {
  string IntrName = name;
  list<VT> Args = args;
  list<int> ArgBits = !foreach(a, args, a.Bits);
  int TotalBits = !foldl(0, args, acc, a, !add(acc, a.Bits));
}
multiclass SatOps<string base> {
  foreach w = [8, 16, 32] in {
    defvar t = !cast<VT>("v" # w);
    def _ # w : Intr<"llvm.toy." # base # "." # w, [t, t]>;
  }
}
defm int_sadd_sat : SatOps<"sadd.sat">;
defm int_usub_sat : SatOps<"usub.sat">;
