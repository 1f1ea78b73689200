// ui case: a CostPerUse the tables cannot hold (u8).
include "regalloc.td"
def R0 : Register<"r0"> { let CostPerUse = [300]; }
def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i64], 64, (add R0, R1)>;
