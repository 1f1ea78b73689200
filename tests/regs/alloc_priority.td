// AllocationPriority and GlobalPriority, and inheritance of both by inferred classes.
let Namespace = "T" in {
  foreach i = 0-7 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (sequence "R%u", 0, 7)> { let AllocationPriority = 3; }
def HOT : RegisterClass<"T", [i32], 32, (sequence "R%u", 4, 7)> { let AllocationPriority = 31; let GlobalPriority = 1; }
def MID : RegisterClass<"T", [i32], 32, (sequence "R%u", 2, 5)> { let AllocationPriority = 10; }
