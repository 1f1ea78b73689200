// Tuple enumeration quirk: when the first register def derives from a class named X86Reg, tuples sort among ordinary registers.
class X86Reg<string n> : Register<n> { let Namespace = "T"; }
let Namespace = "T" in {
  def s0 : SubRegIndex<32>;
  def s1 : SubRegIndex<32, 32>;
}
def A0 : X86Reg<"a0">;
def A1 : X86Reg<"a1">;
def A2 : X86Reg<"a2">;
def Z0Z0Z0 : X86Reg<"z">;
def GPR : RegisterClass<"T", [i32], 32, (add A0, A1, A2, Z0Z0Z0)>;
def APairs : RegisterTuples<[s0, s1], [(add A0, A1), (add A1, A2)]>;
def PAIR : RegisterClass<"T", [i64], 64, (add APairs)>;
