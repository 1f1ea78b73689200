// ui case: a callee-saved list naming a sub-register index.
include "regalloc.td"
def R0 : Register<"r0"> { let HWEncoding = 0; }
def R1 : Register<"r1"> { let HWEncoding = 1; }
def R2 : Register<"r2"> { let HWEncoding = 2; }
def R3 : Register<"r3"> { let HWEncoding = 3; }
def GPR : RegisterClass<"T", [i64], 64, (add R0, R1, R2)>;
def sub_lo : SubRegIndex<32>;
def CSR : CalleeSavedRegs<(add R1, sub_lo)>;
