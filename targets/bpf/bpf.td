// bpf: the prelude, the register file, the instructions, and the spill/reload/copy templates.
include "regalloc.td"
include "registers.td"
include "instrs.td"

// Spill code as LLVM 19 emits it (BPFInstrInfo::storeRegToStackSlot /
// loadRegFromStackSlot / copyPhysReg, checked with llc-19
// -stop-after=virtregrewriter on the corpus): `STD $r, %stack.N, 0`,
// `$r = LDD %stack.N, 0`, and the 32-bit forms for GPR32. Templates are our
// prelude's SpillTemplates extension (see regalloc.td).
def GPRTemplates : SpillTemplates<GPR> {
  let Spill = (STD TplReg, TplSlot, 0);
  let Reload = (LDD TplReg, TplSlot, 0);
  let Copy = (MOV_rr TplReg, TplSrc);
}
def GPR32Templates : SpillTemplates<GPR32> {
  let Spill = (STW32 TplReg, TplSlot, 0);
  let Reload = (LDW32 TplReg, TplSlot, 0);
  let Copy = (MOV_rr_32 TplReg, TplSrc);
}

// R10 is the read-only frame pointer the kernel hands every program; R11 is
// an internal register no instruction allocates (LLVM's
// BPFRegisterInfo::getReservedRegs). W10 and W11 overlap them, so they are
// reserved too.
def BPFReserved : ReservedRegisters {
  let Always = (add R10, R11);
}

// Branch facts for splitting a critical edge: a new block jumps with JMP.
// BPFInstrInfo::analyzeBranch understands no conditional branch, so no
// ConditionalBranch is given and LLVM (and the allocator) never split an
// edge out of a block that ends in one.
def : UnconditionalBranch<JMP>;
