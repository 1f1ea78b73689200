// A stub target over LLVM's own Target.td: the whole of LLVM's target vocabulary, one trivial target.
include "llvm/Target/Target.td"
def Stub : Target;
