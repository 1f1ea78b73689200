// Error: an alternative allocation order names a register that is not a member of the class.
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2)> {
  let AltOrders = [(add R2, R3)];
  let AltOrderSelect = [{ 1 }];
}
