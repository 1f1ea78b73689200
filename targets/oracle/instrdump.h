// Shared by instr19dump.cpp (LLVM 19's compiled-in MCInstrInfo) and
// instrours.cpp (the MCInstrInfo that llvm-tblgen-19 -gen-instr-info makes of
// targets/<t>/instrs.td): one JSON object per opcode, keyed by opcode name,
// so that compare_instrs.py sees both sides through identical code.
#pragma once
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace instrdump {
using namespace llvm;

static const char *FlagNames[] = {
    "PreISelOpcode", "Variadic", "HasOptionalDef", "Pseudo", "Meta", "Return",
    "EHScopeReturn", "Call", "Barrier", "Terminator", "Branch", "IndirectBranch",
    "Compare", "MoveImm", "MoveReg", "Bitcast", "Select", "DelaySlot",
    "FoldableAsLoad", "MayLoad", "MayStore", "MayRaiseFPException", "Predicable",
    "NotDuplicable", "UnmodeledSideEffects", "Commutable", "ConvertibleTo3Addr",
    "UsesCustomInserter", "HasPostISelHook", "Rematerializable", "CheapAsAMove",
    "ExtraSrcRegAllocReq", "ExtraDefRegAllocReq", "RegSequence", "ExtractSubreg",
    "InsertSubreg", "Convergent", "Add", "Trap", "VariadicOpsAreDefs",
    "Authenticated"};

inline std::string q(StringRef S) { return "\"" + S.str() + "\""; }

// RegClassName(id) -> name; the two sides number register classes and
// registers identically (targets/oracle/run.sh verifies that), but each side
// names them through its own MCRegisterInfo anyway.
inline void dump(const MCInstrInfo &II, const MCRegisterInfo &RI, raw_ostream &o) {
  o << "{\n";
  bool First = true;
  for (unsigned Op = 0, E = II.getNumOpcodes(); Op < E; ++Op) {
    const MCInstrDesc &D = II.get(Op);
    if (!First) o << ",\n";
    First = false;
    o << q(II.getName(Op)) << ": {\"num_operands\": " << D.getNumOperands()
      << ", \"num_defs\": " << D.getNumDefs() << ", \"size\": " << D.getSize()
      << ", \"operands\": [";
    for (unsigned I = 0; I < D.getNumOperands(); ++I) {
      const MCOperandInfo &OI = D.operands()[I];
      std::string RC = "null";
      if (OI.isLookupPtrRegClass())
        RC = q("ptr_rc:" + std::to_string(OI.RegClass));
      else if (OI.RegClass >= 0)
        RC = q(RI.getRegClassName(&RI.getRegClass(OI.RegClass)));
      o << (I ? ", " : "") << "{\"rc\": " << RC << ", \"type\": " << (unsigned)OI.OperandType
        << ", \"flags\": " << (unsigned)OI.Flags
        << ", \"tied_to\": " << D.getOperandConstraint(I, MCOI::TIED_TO)
        << ", \"early_clobber\": " << (D.getOperandConstraint(I, MCOI::EARLY_CLOBBER) != -1 ? "true" : "false")
        << "}";
    }
    o << "], \"implicit_defs\": [";
    unsigned K = 0;
    for (MCPhysReg R : D.implicit_defs()) o << (K++ ? ", " : "") << q(RI.getName(R));
    o << "], \"implicit_uses\": [";
    K = 0;
    for (MCPhysReg R : D.implicit_uses()) o << (K++ ? ", " : "") << q(RI.getName(R));
    o << "], \"flags\": [";
    K = 0;
    for (unsigned B = 0; B < sizeof(FlagNames) / sizeof(FlagNames[0]); ++B)
      if (D.getFlags() & (1ULL << B)) o << (K++ ? ", " : "") << q(FlagNames[B]);
    o << "]}";
  }
  o << "\n}\n";
}
} // namespace instrdump
