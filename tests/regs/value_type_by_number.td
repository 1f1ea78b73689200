// A target's own value types are named by their Value number: a pointer type with i32's number is i32 (SPIR-V's p32, v2p32).
def p32 : PtrValueType<i32, 0>;
class PtrVec<int nelem, PtrValueType ptr> : ValueType<!mul(nelem, ptr.Size), ptr.Value>;
def v2p32 : PtrVec<2, p32>;
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def PTR : RegisterClass<"T", [p32, f32], 32, (sequence "R%u", 0, 3)>;
def VPTR : RegisterClass<"T", [v2p32], 32, (sequence "R%u", 0, 1)>;
def ANY : RegisterClass<"T", [v2p32], 0, (sequence "R%u", 2, 3)> { let Size = 0; }
