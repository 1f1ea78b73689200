// Dump the register file of a target as the real LLVM 19 (libLLVM-19.so) has
// compiled it in, through the public TargetRegisterInfo API, as JSON shaped
// like the facts that /work/shared/oracle/facts.py extracts from llvm-tblgen
// output.  This is the "ground truth" side of targets/oracle/compare.py.
//
//   clang++-19 -O1 -std=c++17 $(llvm-config-19 --cxxflags) llvm19dump.cpp \
//       $(llvm-config-19 --ldflags --libs) -o llvm19dump
//   ./llvm19dump <triple> [cpu] [features] [mode-label] > real.json
//
// Alternative allocation orders and callee-saved save lists are not reachable
// through the API (only the selected order and the masks are); extract.py
// reads them from the local symbols of LLVM's static archives.
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/CodeGen/ValueTypes.h"
#include <string>
#include <vector>

using namespace llvm;

// RegClassInfo (reg/spill size and alignment in bits for the current HW mode)
// is protected; getSpillAlign() asserts on the zero alignment that classes
// unavailable in a mode have, so read the row directly.
struct RCInfoPeek : TargetRegisterInfo {
  static const RegClassInfo &get(const TargetRegisterInfo *T, const TargetRegisterClass &RC) {
    return (T->*(&RCInfoPeek::getRegClassInfo))(RC);
  }
};

static std::string q(StringRef s) { return "\"" + s.str() + "\""; }

static std::string hex64(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "\"0x%016llX\"", (unsigned long long)v);
  return buf;
}

template <class T, class F>
static std::string list(const T &xs, F f) {
  std::string s = "[";
  bool first = true;
  for (const auto &x : xs) {
    if (!first) s += ", ";
    first = false;
    s += f(x);
  }
  return s + "]";
}

int main(int argc, char **argv) {
  if (argc < 2) {
    errs() << "usage: llvm19dump triple [cpu] [features] [mode-label]\n";
    return 2;
  }
  std::string Triple = argv[1];
  std::string CPU = argc > 2 ? argv[2] : "";
  std::string Features = argc > 3 ? argv[3] : "";
  std::string ModeLabel = argc > 4 ? argv[4] : "Default";
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(Triple, Err);
  if (!T) {
    errs() << Err << "\n";
    return 1;
  }
  TargetOptions Opts;
  auto *TM = static_cast<LLVMTargetMachine *>(
      T->createTargetMachine(Triple, CPU, Features, Opts, Reloc::PIC_));
  LLVMContext Ctx;
  Module M("m", Ctx);
  M.setTargetTriple(Triple);
  M.setDataLayout(TM->createDataLayout());
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                 GlobalValue::ExternalLinkage, "f", M);
  if (!CPU.empty()) F->addFnAttr("target-cpu", CPU);
  if (!Features.empty()) F->addFnAttr("target-features", Features);
  MachineModuleInfo MMI(TM);
  MachineFunction &MF = MMI.getOrCreateMachineFunction(*F);
  const TargetRegisterInfo *TRI = MF.getSubtarget().getRegisterInfo();
  unsigned NR = TRI->getNumRegs();
  auto RN = [&](MCPhysReg R) { return q(TRI->getName(R)); };

  // Assembly spelling, through the target's instruction printer (default
  // syntax variant 0, e.g. AT&T on x86 whose '%' prefix is dropped).
  std::unique_ptr<MCInstPrinter> IP(T->createMCInstPrinter(
      llvm::Triple(Triple), 0, *TM->getMCAsmInfo(), *TM->getMCInstrInfo(), *TM->getMCRegisterInfo()));
  auto AsmName = [&](MCPhysReg R) {
    std::string S;
    raw_string_ostream OS(S);
    if (IP) IP->printRegName(OS, R);
    OS.flush();
    if (!S.empty() && S[0] == '%') S = S.substr(1);
    return q(S);
  };
  raw_ostream &o = outs();
  o << "{\n\"triple\": " << q(Triple) << ", \"mode\": " << q(ModeLabel) << ",\n";
  o << "\"counts\": {\"registers\": " << NR - 1 << ", \"register_units\": " << TRI->getNumRegUnits()
    << ", \"register_classes\": " << TRI->getNumRegClasses()
    << ", \"subreg_indices\": " << TRI->getNumSubRegIndices() - 1
    << ", \"pressure_sets\": " << TRI->getNumRegPressureSets() << "},\n";

  // Sub-register indices.
  o << "\"subreg_indices\": [\n";
  for (unsigned I = 1; I < TRI->getNumSubRegIndices(); ++I) {
    o << " {\"name\": " << q(TRI->getSubRegIndexName(I)) << ", \"index\": " << I
      << ", \"size\": " << TRI->getSubRegIdxSize(I) << ", \"offset\": " << TRI->getSubRegIdxOffset(I)
      << ", \"lane_mask\": " << hex64(TRI->getSubRegIndexLaneMask(I).getAsInteger()) << "}"
      << (I + 1 < TRI->getNumSubRegIndices() ? ",\n" : "\n");
  }
  o << "],\n";

  // Registers.
  ArrayRef<uint8_t> Costs = TRI->getRegisterCosts(MF);
  o << "\"registers\": [\n";
  for (unsigned R = 1; R < NR; ++R) {
    std::vector<std::string> subs;
    for (MCSubRegIterator S(R, TRI); S.isValid(); ++S)
      subs.push_back("[" + q(TRI->getSubRegIndexName(TRI->getSubRegIndex(R, *S))) + ", " + RN(*S) + "]");
    std::vector<MCPhysReg> sups;
    for (MCSuperRegIterator S(R, TRI); S.isValid(); ++S) sups.push_back(*S);
    std::vector<unsigned> units;
    std::vector<uint64_t> umasks;
    for (MCRegUnitMaskIterator U(R, TRI); U.isValid(); ++U) {
      units.push_back((*U).first);
      umasks.push_back((*U).second.getAsInteger());
    }
    o << " {\"name\": " << RN(R) << ", \"enum\": " << R
      << ", \"subregs\": " << list(subs, [](const std::string &s) { return s; })
      << ", \"super_regs\": " << list(sups, RN)
      << ", \"units\": " << list(units, [](unsigned u) { return std::to_string(u); })
      << ", \"unit_lane_masks\": " << list(umasks, hex64)
      << ", \"is_constant\": " << (TRI->isConstant(R) ? "true" : "false")
      << ", \"cost_per_use\": " << (R < Costs.size() ? (unsigned)Costs[R] : 0u)
      << ", \"in_allocatable_class\": " << (TRI->isInAllocatableClass(R) ? "true" : "false")
      << ", \"encoding\": " << TRI->getEncodingValue(R)
      << ", \"asm\": " << AsmName(R)
      << ", \"dwarf\": " << TRI->getDwarfRegNum(R, false) << ", \"dwarf_eh\": " << TRI->getDwarfRegNum(R, true)
      << ", \"base_class\": " << (TRI->getPhysRegBaseClass(R) ? q(TRI->getRegClassName(TRI->getPhysRegBaseClass(R))) : std::string("null"))
      << "}" << (R + 1 < NR ? ",\n" : "\n");
  }
  o << "],\n";

  // Register units.
  o << "\"register_units\": [\n";
  for (unsigned U = 0; U < TRI->getNumRegUnits(); ++U) {
    std::vector<MCPhysReg> roots;
    for (MCRegUnitRootIterator Ro(U, TRI); Ro.isValid(); ++Ro) roots.push_back(*Ro);
    o << " {\"unit\": " << U << ", \"roots\": " << list(roots, RN)
      << ", \"weight\": " << TRI->getRegUnitWeight(U) << "}"
      << (U + 1 < TRI->getNumRegUnits() ? ",\n" : "\n");
  }
  o << "],\n";

  // Register classes.
  o << "\"register_classes\": [\n";
  unsigned NC = TRI->getNumRegClasses();
  for (unsigned C = 0; C < NC; ++C) {
    const TargetRegisterClass *RC = TRI->getRegClass(C);
    std::vector<MCPhysReg> order0(RC->begin(), RC->end());
    std::vector<MCPhysReg> members;
    for (unsigned R = 1; R < NR; ++R)
      if (RC->contains(R)) members.push_back(R);
    ArrayRef<MCPhysReg> raw = RC->getRawAllocationOrder(MF);
    std::vector<std::string> subc, supc, vts;
    for (unsigned D = 0; D < NC; ++D)
      if (RC->hasSubClassEq(TRI->getRegClass(D))) subc.push_back(q(TRI->getRegClassName(TRI->getRegClass(D))));
    for (auto S = RC->getSuperClasses(); *S; ++S) supc.push_back(q(TRI->getRegClassName(*S)));
    for (auto I = TRI->legalclasstypes_begin(*RC); *I != MVT::Other; ++I)
      vts.push_back(q(EVT(MVT(*I)).getEVTString() + std::string("|") + std::to_string((unsigned)*I)));
    std::string swsr = "{", src = "{";
    for (unsigned I = 1; I < TRI->getNumSubRegIndices(); ++I) {
      if (const TargetRegisterClass *S = TRI->getSubClassWithSubReg(RC, I))
        swsr += (swsr.size() > 1 ? ", " : "") + q(TRI->getSubRegIndexName(I)) + ": " + q(TRI->getRegClassName(S));
      if (const TargetRegisterClass *S = TRI->getSubRegisterClass(RC, I))
        src += (src.size() > 1 ? ", " : "") + q(TRI->getSubRegIndexName(I)) + ": " + q(TRI->getRegClassName(S));
    }
    swsr += "}";
    src += "}";
    const RegClassWeight &W = TRI->getRegClassWeight(RC);
    o << " {\"name\": " << q(TRI->getRegClassName(RC)) << ", \"id\": " << C
      << ", \"members\": " << list(members, RN) << ", \"order\": " << list(order0, RN)
      << ", \"raw_allocation_order\": " << list(raw, RN)
      << ", \"copy_cost\": " << (int)RC->getCopyCost()
      << ", \"allocatable\": " << (RC->isAllocatable() ? "true" : "false")
      << ", \"base_class\": " << (RC->isBaseClass() ? "true" : "false")
      << ", \"allocation_priority\": " << (unsigned)RC->AllocationPriority
      << ", \"global_priority\": " << (RC->GlobalPriority ? "true" : "false")
      << ", \"tsflags\": " << (unsigned)RC->TSFlags
      << ", \"has_disjunct_subregs\": " << (RC->HasDisjunctSubRegs ? "true" : "false")
      << ", \"covered_by_subregs\": " << (RC->CoveredBySubRegs ? "true" : "false")
      << ", \"lane_mask\": " << hex64(RC->getLaneMask().getAsInteger())
      << ", \"by_mode\": {" << q(ModeLabel) << ": {\"reg_size\": " << RCInfoPeek::get(TRI, *RC).RegSize
      << ", \"spill_size\": " << RCInfoPeek::get(TRI, *RC).SpillSize
      << ", \"spill_alignment\": " << RCInfoPeek::get(TRI, *RC).SpillAlignment
      << ", \"value_types\": " << list(vts, [](const std::string &s) { return s; }) << "}}"
      << ", \"sub_classes\": " << list(subc, [](const std::string &s) { return s; })
      << ", \"super_classes\": " << list(supc, [](const std::string &s) { return s; })
      << ", \"sub_class_with_subreg\": " << swsr << ", \"sub_register_class\": " << src
      << ", \"weight\": {\"reg_weight\": " << W.RegWeight << ", \"weight_limit\": " << W.WeightLimit << "}"
      << "}" << (C + 1 < NC ? ",\n" : "\n");
  }
  o << "],\n";

  // Register masks (callee-saved sets, by the names MIR uses).
  o << "\"reg_masks\": [\n";
  ArrayRef<const char *> Names = TRI->getRegMaskNames();
  ArrayRef<const uint32_t *> Masks = TRI->getRegMasks();
  for (unsigned I = 0; I < Names.size(); ++I) {
    std::vector<MCPhysReg> in;
    for (unsigned R = 1; R < NR; ++R)
      if (Masks[I][R / 32] >> (R % 32) & 1) in.push_back(R);
    o << " {\"name\": " << q(Names[I]) << ", \"reg_mask\": " << list(in, RN) << "}"
      << (I + 1 < Names.size() ? ",\n" : "\n");
  }
  o << "],\n";
  o << "\"pressure_sets\": [\n";
  for (unsigned I = 0; I < TRI->getNumRegPressureSets(); ++I)
    o << " {\"name\": " << q(TRI->getRegPressureSetName(I)) << ", \"limit\": "
      << TRI->getRegPressureSetLimit(MF, I) << "}" << (I + 1 < TRI->getNumRegPressureSets() ? ",\n" : "\n");
  o << "]\n}\n";
  return 0;
}
