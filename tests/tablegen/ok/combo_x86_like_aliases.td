// x86-like overlapping registers: 8-bit halves inside 16-bit inside 32-bit inside 64-bit, made by a multiclass.
class SubIdx<int size, int off> { int Size = size; int Offset = off; }
def sub_8bit : SubIdx<8, 0>;
def sub_8bit_hi : SubIdx<8, 8>;
def sub_16bit : SubIdx<16, 0>;
def sub_32bit : SubIdx<32, 0>;
class X86Reg<string n, bits<4> enc, list<X86Reg> subs = [], list<SubIdx> idx = []> {
  string AsmName = n;
  bits<4> Enc = enc;
  list<X86Reg> SubRegs = subs;
  list<SubIdx> SubRegIndices = idx;
}
multiclass GPRFamily<string l, bits<4> enc> {
  def l # L : X86Reg<l # "l", enc>;
  def l # H : X86Reg<l # "h", !add(enc, 4)>;
  def l # X : X86Reg<l # "x", enc, [!cast<X86Reg>(l # "L"), !cast<X86Reg>(l # "H")], [sub_8bit, sub_8bit_hi]>;
  def E # l # X : X86Reg<"e" # l # "x", enc, [!cast<X86Reg>(l # "X")], [sub_16bit]>;
  def R # l # X : X86Reg<"r" # l # "x", enc, [!cast<X86Reg>("E" # l # "X")], [sub_32bit]>;
}
defm "" : GPRFamily<"A", 0>;
defm "" : GPRFamily<"B", 3>;
