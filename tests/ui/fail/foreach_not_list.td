// ui case: foreach over a string.
include "regalloc.td"
foreach i = "abc" in def R # i : Register<"r">;
def GPR : RegisterClass<"T", [i64], 64, (add R0)>;
