// A bit range names bit -1; llvm-tblgen reads bit ranges as unsigned.
def A { bits<8> b = 0; bits<1> c = b{-1}; }
