// An assert in a multiclass fails for the arguments of one defm.
class R<int n> { int N = n; }
multiclass Limited<int count> {
  assert !le(count, 4), "at most 4 registers, got " # count;
  foreach i = !range(count) in def _ # i : R<i>;
}
defm Ok : Limited<2>;
defm Bad : Limited<9>;
