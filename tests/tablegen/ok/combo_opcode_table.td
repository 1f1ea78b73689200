// Opcode table: foreach with defvar, !cond classification, pasted names and bits encodings.
class Opcode<string n, bits<6> enc, string kind> {
  string Name = n;
  bits<6> Encoding = enc;
  string Kind = kind;
  bit IsBranch = !eq(kind, "branch");
}
defvar names = ["add", "sub", "and", "or", "beq", "bne", "ld", "st"];
foreach i = !range(names) in {
  defvar n = names[i];
  defvar kind = !cond(!lt(i, 4) : "alu", !lt(i, 6) : "branch", true : "mem");
  def OP_ # !toupper(n) : Opcode<n, !add(i, 0x20), kind>;
}
