// ui case: C++ (LLVM's language for fragments) instead of Rust.
include "regalloc.td"
def R0 : Register<"r0"> { let HWEncoding = 0; }
def R1 : Register<"r1"> { let HWEncoding = 1; }
def R2 : Register<"r2"> { let HWEncoding = 2; }
def R3 : Register<"r3"> { let HWEncoding = 3; }
def GPR : RegisterClass<"T", [i64], 64, (add R0, R1, R2)> {
  let AltOrders = [(add R2, R1, R0)];
  let AltOrderSelect = [{
    const auto &S = MF.getSubtarget<TSubtarget>();
    return S.isFancy() ? 1 : 0;
  }];
}
