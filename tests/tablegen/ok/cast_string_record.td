// !cast from a string built by pasting to a record, and from a record back to its name.
class Reg<int n> { int Num = n; }
foreach i = 0-3 in def R#i : Reg<i>;
def Pick {
  Reg second = !cast<Reg>("R" # 2);
  string name = !cast<string>(R3);
  list<Reg> byLoop = !foreach(i, [0, 1], !cast<Reg>("R" # i));
}
