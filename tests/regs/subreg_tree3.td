// Three-level trees in the style of x86: low/high bytes inside a 16-bit register inside a 32-bit one inside a 64-bit one.
let Namespace = "T" in {
  def sub_lo8 : SubRegIndex<8>;
  def sub_hi8 : SubRegIndex<8, 8>;
  def sub_16 : SubRegIndex<16>;
  def sub_32 : SubRegIndex<32>;
  foreach r = ["A", "B", "C"] in {
    def r#L : Register<!tolower(r)#"l">;
    def r#H : Register<!tolower(r)#"h">;
    let SubRegIndices = [sub_lo8, sub_hi8], CoveredBySubRegs = 1 in
    def r#X : RegisterWithSubRegs<!tolower(r)#"x", [!cast<Register>(r#"L"), !cast<Register>(r#"H")]>;
    let SubRegIndices = [sub_16] in
    def E#r#X : RegisterWithSubRegs<"e"#!tolower(r)#"x", [!cast<Register>(r#"X")]>;
    let SubRegIndices = [sub_32] in
    def R#r#X : RegisterWithSubRegs<"r"#!tolower(r)#"x", [!cast<Register>("E"#r#"X")]>;
  }
}
def GR8 : RegisterClass<"T", [i8], 8, (add AL, BL, CL, AH, BH, CH)>;
def GR8_LO : RegisterClass<"T", [i8], 8, (add AL, BL, CL)>;
def GR16 : RegisterClass<"T", [i16], 16, (add AX, BX, CX)>;
def GR32 : RegisterClass<"T", [i32], 32, (add EAX, EBX, ECX)>;
def GR64 : RegisterClass<"T", [i64], 64, (add RAX, RBX, RCX)>;
