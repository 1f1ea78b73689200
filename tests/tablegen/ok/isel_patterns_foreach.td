// Pattern-generation style: foreach over (type, instruction) pairs creating Pat records with dags.
class ValueType<string n> { string Name = n; }
def i32 : ValueType<"i32">;
def i64 : ValueType<"i64">;
class Inst<string mn> { string Mnemonic = mn; }
def ADDW : Inst<"addw">;
def ADDD : Inst<"addd">;
def add;
class Pat<dag from, dag to> { dag PatternToMatch = from; dag ResultInstr = to; }
foreach p = [[i32, ADDW], [i64, ADDD]] in {
  defvar vt = !cast<ValueType>(p[0]);
  def : Pat<(add vt:$a, vt:$b), (!cast<Inst>(p[1]) $a, $b)>;
}
