// ui case: a register class whose value type does not exist.
include "regalloc.td"
def R0 : Register<"r0">;
def GPR : RegisterClass<"T", [i65], 64, (add R0)>;
