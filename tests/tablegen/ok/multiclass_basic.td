// multiclass with defm: NAME is prepended to each def name; template args reach the defs.
class Inst<string asm, int sz> { string Asm = asm; int Size = sz; }
multiclass Arith<string mnemonic> {
  def rr : Inst<mnemonic # " r, r", 2>;
  def ri : Inst<mnemonic # " r, imm", 4>;
}
defm ADD : Arith<"add">;
defm SUB : Arith<"sub">;
