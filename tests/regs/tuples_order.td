// Tuple enumeration: tuples come after all ordinary registers, even ones whose names sort later (contrast with tuples_x86reg_order).
class OtherReg<string n> : Register<n> { let Namespace = "T"; }
let Namespace = "T" in {
  def s0 : SubRegIndex<32>;
  def s1 : SubRegIndex<32, 32>;
}
def A0 : OtherReg<"a0">;
def A1 : OtherReg<"a1">;
def A2 : OtherReg<"a2">;
def Z0Z0Z0 : OtherReg<"z">;
def GPR : RegisterClass<"T", [i32], 32, (add A0, A1, A2, Z0Z0Z0)>;
def APairs : RegisterTuples<[s0, s1], [(add A0, A1), (add A1, A2)]>;
def PAIR : RegisterClass<"T", [i64], 64, (add APairs)>;
