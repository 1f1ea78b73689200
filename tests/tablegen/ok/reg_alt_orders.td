// Register classes with alternative allocation orders and a code fragment selecting between them.
include "minireg.td"
foreach i = 0-5 in def X#i : Reg<"x"#i> { let HWEncoding = i; }
def GPRs : RegClass<"Toy", [64], 64, (add (sequence "X%u", 0, 5))> {
  let AltOrders = [(rotl GPRs, 2), (add X5, X4, (sequence "X%u", 0, 3))];
  let AltOrderSelect = [{ if cfg.small { 1 } else { 0 } }];
  let AllocationPriority = 3;
}
def Hidden : RegClass<"Toy", [64], 64,
                      (add X0)> { let isAllocatable = false; let CopyCost = -1; }
