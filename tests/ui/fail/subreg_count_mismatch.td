// ui case: two sub-registers, one sub-register index.
include "regalloc.td"
def lo : SubRegIndex<32>;
def A : Register<"a">;
def B : Register<"b">;
def AB : RegisterWithSubRegs<"ab", [A, B]> { let SubRegIndices = [lo]; }
def GPR : RegisterClass<"T", [i64], 64, (add AB)>;
