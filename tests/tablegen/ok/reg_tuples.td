// Register tuples: pairs of consecutive registers built with dag operators and shl/decimate.
include "minireg.td"
def sub0 : SubIdx<32>;
def sub1 : SubIdx<32, 32>;
foreach i = 0-7 in def V#i : Reg<"v"#i> { let HWEncoding = i; }
def VRegs : RegClass<"Toy", [32], 32, (sequence "V%u", 0, 7)>;
def VPairs : Tuples<[sub0, sub1], [(add (sequence "V%u", 0, 6)), (shl VRegs, 1)]>;
def EvenPairs : Tuples<[sub0, sub1], [(decimate VRegs, 2), (decimate (shl VRegs, 1), 2)]>;
