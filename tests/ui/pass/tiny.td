// A tiny target for the ui pass cases: two 64-bit registers with 32-bit halves,
// a class with an alternative order chosen by Rust code, a callee-saved set.
include "regalloc.td"

let Namespace = "Tiny" in {
def lo32 : SubRegIndex<32>;
def W0 : Register<"w0"> { let HWEncoding = 0; }
def W1 : Register<"w1"> { let HWEncoding = 1; }
def W2 : Register<"w2"> { let HWEncoding = 2; }
let SubRegIndices = [lo32] in {
def X0 : RegisterWithSubRegs<"x0", [W0]> { let HWEncoding = 0; }
def X1 : RegisterWithSubRegs<"x1", [W1]> { let HWEncoding = 1; }
def X2 : RegisterWithSubRegs<"x2", [W2]> { let HWEncoding = 2; }
}
}
def GPR32 : RegisterClass<"Tiny", [i32], 32, (add W0, W1, W2)>;
def GPR : RegisterClass<"Tiny", [i64], 64, (add X0, X1, X2)> {
  let AltOrders = [(add X2, X1, X0)];
  let AltOrderSelect = [{
    if func.has_calls() { 1 } else { 0 }
  }];
}
def CSR : CalleeSavedRegs<(add X2)>;
