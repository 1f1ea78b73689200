// AltOrderSelect fragments using every form of the language, for
// tests/tests/alt_order_select.rs: the compiled and the interpreted
// selectors must agree on each for every function.
include "regalloc.td"

let Namespace = "S" in {
  foreach i = 0...5 in def R#i : Register<"r"#i> { let HWEncoding = i; }
}

def FeatureA : SubtargetFeature<"a", "HasA", "true", "feature a">;
def FeatureB : SubtargetFeature<"b", "HasB", "true", "feature b, implied by a", []>;
def FeatureC : SubtargetFeature<"c", "HasC", "true", "feature c, implying b", [FeatureB]>;
def FeatureD : SubtargetFeature<"d", "HasD", "true", "feature d">;

class Three<dag regs> : RegisterClass<"S", [i64], 64, regs> {
  let AltOrders = [(rotl regs, 1), (rotl regs, 2), (rotl regs, 3)];
}

def Constant : Three<(add R0, R1, R2, R3)> { let AltOrderSelect = [{ return 2; }]; }
def Tail : Three<(add R0, R1, R2, R3)> { let AltOrderSelect = [{ 3 }]; }
def Grouped : Three<(add R0, R1, R2, R4)> { let AltOrderSelect = [{ { (1) } }]; }
def Feature : Three<(add R0, R1, R2, R5)> {
  let AltOrderSelect = [{ if func.has_feature("c") { 1 } else { 0 } }];
}
def Implied : Three<(add R0, R1, R3, R4)> {
  // "c" implies "b": a function with +c has b too.
  let AltOrderSelect = [{ if func.has_feature("b") { 2 } else { 0 } }];
}
def Chain : Three<(add R0, R1, R3, R5)> {
  let AltOrderSelect = [{
    if func.has_feature("a") && !func.has_feature("d") {
      1
    } else if func.has_feature("d") || func.has_calls() {
      2
    } else if func.has_frame_pointer() {
      3
    } else {
      0
    }
  }];
}
def Early : Three<(add R0, R2, R3, R4)> {
  let AltOrderSelect = [{
    if func.has_base_pointer() { return 3; }
    if !func.has_calls() { return 1; }
    0
  }];
}
def Compare : Three<(add R0, R2, R3, R5)> {
  let AltOrderSelect = [{
    if (func.has_feature("a") == func.has_feature("d")) != func.has_calls() {
      return if 2 >= 1 && 1 < 2 && 3 > 2 && 1 <= 1 { 1 } else { 3 };
    }
    if true == false || !(1 == 1) || 2 != 2 { 3 } else { 2 }
  }];
}
def Nested : Three<(add R1, R2, R3, R4)> {
  let AltOrderSelect = [{
    return if func.has_calls() {
      if func.has_feature("b") { 3 } else { return 2; }
    } else {
      { if func.has_frame_pointer() || func.has_feature("a") { 1 } else { 0 } }
    };
  }];
}

def SelectLang : Target;
