// Enum-like table: foreach over !range of a name list, values from indices, and a lookup via !cast.
class EnumEntry<string n, int v> { string Name = n; int Value = v; }
defvar kinds = ["Invalid", "Reg", "Imm", "Mem", "Label"];
foreach i = !range(!size(kinds)) in {
  defvar k = kinds[i];
  def Kind_ # k : EnumEntry<k, i>;
}
def Lookup {
  int ImmValue = !cast<EnumEntry>("Kind_Imm").Value;
  int Count = !size(kinds);
  string Last = kinds[!sub(!size(kinds), 1)];
}
