// Callee-saved register lists as dags with set operators, plus constant and artificial registers.
include "minireg.td"
foreach i = 0-9 in def G#i : Reg<"g"#i> { let HWEncoding = i; }
def ZERO : Reg<"zero"> { let isConstant = true; }
def FAKE : Reg<"fake"> { let isArtificial = true; }
def CSR_Std : CSRs<(add (sequence "G%u", 4, 9))>;
def CSR_NoG9 : CSRs<(sub CSR_Std.SaveList, G9)>;
def CSR_Mixed : CSRs<(add G0,
                      (and (sequence "G%u", 0, 5), (sequence "G%u", 3, 9)))>;
