// Sub-class relation: subsets of members count only when sizes allow (A's sizes at most B's, B's alignment a multiple of A's).
let Namespace = "T" in {
  foreach i = 0-7 in def R#i : Register<"r"#i>;
}
def W32 : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)>;
def W32_ALIGN64 : RegisterClass<"T", [i32], 64, (sequence "R%u", 0, 3)>;
def W64 : RegisterClass<"T", [i64], 64, (sequence "R%u", 0, 5)>;
def W64_SMALL : RegisterClass<"T", [i64], 64, (add R1, R2)>;
def W16 : RegisterClass<"T", [i16], 16, (sequence "R%u", 0, 7)>;
def W32_ALIGN16 : RegisterClass<"T", [i32], 16, (add R7, R6)>;
