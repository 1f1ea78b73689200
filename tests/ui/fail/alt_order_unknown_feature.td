// ui case: an AltOrderSelect asking for a feature no SubtargetFeature declares.
include "regalloc.td"
def R0 : Register<"r0"> { let HWEncoding = 0; }
def R1 : Register<"r1"> { let HWEncoding = 1; }
def R2 : Register<"r2"> { let HWEncoding = 2; }
def GPR : RegisterClass<"T", [i64], 64, (add R0, R1, R2)> {
  let AltOrders = [(add R2, R1, R0)];
  let AltOrderSelect = [{ if func.has_feature("zz") { 1 } else { 0 } }];
}
