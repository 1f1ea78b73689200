// A defset of generated records later queried with !filter, !foreach, !foldl and !size.
class Reg<int num, bit saved> { int Num = num; bit CalleeSaved = saved; }
defset list<Reg> Regs = {
  foreach i = 0-7 in
    def R#i : Reg<i, !ge(i, 4)>;
}
def Stats {
  list<Reg> Saved = !filter(r, Regs, r.CalleeSaved);
  list<int> SavedNums = !foreach(r, !filter(r, Regs, r.CalleeSaved), r.Num);
  int NumSaved = !size(!filter(r, Regs, r.CalleeSaved));
  int SumNums = !foldl(0, Regs, acc, r, !add(acc, r.Num));
  string Names = !interleave(!foreach(r, Regs, !cast<string>(r)), " ");
}
