// A multiclass using if/then to decide whether to instantiate another multiclass with defm.
class I<string n> { string N = n; }
multiclass Imm<string base> { def _imm : I<base # "-imm">; }
multiclass Op<string base, bit hasImm> {
  def _reg : I<base # "-reg">;
  if hasImm then {
    defm NAME : Imm<base>;
  }
}
defm ADD : Op<"add", true>;
defm NEG : Op<"neg", false>;
