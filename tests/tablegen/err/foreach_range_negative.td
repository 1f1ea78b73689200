// A foreach range starts below zero; llvm-tblgen reads ranges as unsigned.
foreach i = -1-1 in def R#i;
