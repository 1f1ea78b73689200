// Dump the MCInstrDesc table that llvm-tblgen-19 made of targets/<t>/instrs.td
// (see instrdump.h).  Compiled once per target with
//   -DNS=<Namespace> -DREGINC=\"<NS>Reg.inc\" -DINSTRINC=\"<NS>Instr.inc\"
// and without linking the real target's tables (this program never creates
// LLVM's own target, so no name of its tables is used).
#include "instrdump.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#define GET_REGINFO_ENUM
#define GET_REGINFO_MC_DESC
#include REGINC
#define GET_INSTRINFO_ENUM
#define GET_INSTRINFO_MC_DESC
#include INSTRINC
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
using namespace llvm;
int main() {
  MCRegisterInfo RI;
  CAT(CAT(Init, NS), MCRegisterInfo)(&RI, 0);
  MCInstrInfo II;
  CAT(CAT(Init, NS), MCInstrInfo)(&II);
  instrdump::dump(II, RI, outs());
  return 0;
}
