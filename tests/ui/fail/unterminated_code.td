// ui case: a [{ code fragment that never ends.
include "regalloc.td"
def R0 : Register<"r0"> { let HWEncoding = 0; }
def R1 : Register<"r1"> { let HWEncoding = 1; }
def R2 : Register<"r2"> { let HWEncoding = 2; }
def R3 : Register<"r3"> { let HWEncoding = 3; }
def GPR : RegisterClass<"T", [i64], 64, (add R0)> {
  let AltOrderSelect = [{ return 1;
}
