// Dump LLVM 19's own MCInstrDesc table for a target (see instrdump.h).
//   ./instr19dump <triple> > real-instrs-<t>.json
#include "instrdump.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include <memory>
using namespace llvm;
int main(int argc, char **argv) {
  if (argc < 2) { errs() << "usage: instr19dump triple\n"; return 2; }
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(argv[1], Err);
  if (!T) { errs() << Err << "\n"; return 1; }
  std::unique_ptr<MCInstrInfo> II(T->createMCInstrInfo());
  std::unique_ptr<MCRegisterInfo> RI(T->createMCRegInfo(argv[1]));
  instrdump::dump(*II, *RI, outs());
  return 0;
}
