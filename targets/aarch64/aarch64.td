// aarch64: the prelude, the register file, the instructions, and the spill/reload/copy templates.
include "regalloc.td"
include "registers.td"
include "instrs.td"

// Spill code as LLVM 19 emits it (AArch64InstrInfo::storeRegToStackSlot and
// friends, checked with llc-19 -stop-after=virtregrewriter on the corpus):
// the unsigned-offset forms `STRXui $x, %stack.N, 0` / `$x = LDRXui
// %stack.N, 0`. Copies: ORRWrr/ORRXrr (LLVM's copyPhysReg emits the ORR with
// the zero register), FMOVHr/FMOVSr/FMOVDr, ORRv16i8 for Q registers (FPR8 has
// no copy of its own: LLVM copies B registers through their Q super-registers). Templates are
// our prelude's SpillTemplates extension (see regalloc.td); the classes are
// the widest of each kind, so GPR32, GPR64common, GPR64sp, tcGPR64 ...
// inherit them.
multiclass Templates<RegisterClass rc, Instruction st, Instruction ld> {
  def NAME : SpillTemplates<rc> {
    let Spill = (st TplReg, TplSlot, 0);
    let Reload = (ld TplReg, TplSlot, 0);
  }
}
// General registers: SP/WSP are reserved, so no allocated copy names them;
// the copy is LLVM's `ORR $d, $zr, $s, lsl #0` (ORRWrs/ORRXrs).
def GPR32allTemplates : SpillTemplates<GPR32all> {
  let Spill = (STRWui TplReg, TplSlot, 0);
  let Reload = (LDRWui TplReg, TplSlot, 0);
  let Copy = (ORRWrs TplReg, WZR, TplSrc, 0);
}
def GPR64allTemplates : SpillTemplates<GPR64all> {
  let Spill = (STRXui TplReg, TplSlot, 0);
  let Reload = (LDRXui TplReg, TplSlot, 0);
  let Copy = (ORRXrs TplReg, XZR, TplSrc, 0);
}
defm FPR8Templates : Templates<FPR8, STRBui, LDRBui>;
def FPR16Templates : SpillTemplates<FPR16> {
  let Spill = (STRHui TplReg, TplSlot, 0);
  let Reload = (LDRHui TplReg, TplSlot, 0);
  let Copy = (FMOVHr TplReg, TplSrc);
}
def FPR32Templates : SpillTemplates<FPR32> {
  let Spill = (STRSui TplReg, TplSlot, 0);
  let Reload = (LDRSui TplReg, TplSlot, 0);
  let Copy = (FMOVSr TplReg, TplSrc);
}
def FPR64Templates : SpillTemplates<FPR64> {
  let Spill = (STRDui TplReg, TplSlot, 0);
  let Reload = (LDRDui TplReg, TplSlot, 0);
  let Copy = (FMOVDr TplReg, TplSrc);
}
def FPR128Templates : SpillTemplates<FPR128> {
  let Spill = (STRQui TplReg, TplSlot, 0);
  let Reload = (LDRQui TplReg, TplSlot, 0);
  let Copy = (ORRv16i8 TplReg, TplSrc, TplSrc);
}
// Register tuples: one LD1/ST1 of the whole tuple, addressed by the slot
// alone (no offset operand). LLVM copies a tuple one sub-register at a
// time, which a template cannot say, so tuples have no copy template.
multiclass TupleTemplates<RegisterClass rc, Instruction st, Instruction ld> {
  def NAME : SpillTemplates<rc> {
    let Spill = (st TplReg, TplSlot);
    let Reload = (ld TplReg, TplSlot);
  }
}
defm QQTemplates : TupleTemplates<QQ, ST1Twov2d, LD1Twov2d>;
defm QQQTemplates : TupleTemplates<QQQ, ST1Threev2d, LD1Threev2d>;
defm QQQQTemplates : TupleTemplates<QQQQ, ST1Fourv2d, LD1Fourv2d>;
defm DDTemplates : TupleTemplates<DD, ST1Twov1d, LD1Twov1d>;
defm DDDTemplates : TupleTemplates<DDD, ST1Threev1d, LD1Threev1d>;
defm DDDDTemplates : TupleTemplates<DDDD, ST1Fourv1d, LD1Fourv1d>;

// SVE vectors, predicates and their tuples live on the scalable-vector
// stack (slots scaled by the vector length at run time), addressed by the
// slot and a vector-length-scaled offset 0. Copies: ORR of the source with
// itself (LLVM copies a tuple one register at a time: no template).
class SveSpillTemplates<RegisterClass rc, Instruction st, Instruction ld>
    : SpillTemplates<rc> {
  let StackID = "scalable-vector";
  let Spill = (st TplReg, TplSlot, 0);
  let Reload = (ld TplReg, TplSlot, 0);
}
multiclass SveTemplates<RegisterClass rc, Instruction st, Instruction ld> {
  def NAME : SveSpillTemplates<rc, st, ld>;
}
def ZPRTemplates : SveSpillTemplates<ZPR, STR_ZXI, LDR_ZXI> {
  let Copy = (ORR_ZZZ TplReg, TplSrc, TplSrc);
}
def PPRorPNRTemplates : SveSpillTemplates<PPRorPNR, STR_PXI, LDR_PXI> {
  let Copy = (ORR_PPzPP TplReg, TplSrc, TplSrc, TplSrc);
}
defm PPR2Templates : SveTemplates<PPR2, STR_PPXI, LDR_PPXI>;
defm ZPR2Templates : SveTemplates<ZPR2, STR_ZZXI, LDR_ZZXI>;
defm ZPR2SCTemplates : SveTemplates<ZPR2StridedOrContiguous, STR_ZZXI,
                                    LDR_ZZXI>;
defm ZPR3Templates : SveTemplates<ZPR3, STR_ZZZXI, LDR_ZZZXI>;
defm ZPR4Templates : SveTemplates<ZPR4, STR_ZZZZXI, LDR_ZZZZXI>;
defm ZPR4SCTemplates : SveTemplates<ZPR4StridedOrContiguous, STR_ZZZZXI,
                                    LDR_ZZZZXI>;

// Sequential register pairs (the operands of CASP): LLVM stores the two
// halves with one STP and loads them with one LDP.
def XSeqPairsTemplates : SpillTemplates<XSeqPairsClass> {
  let Spill = (STPXi (TplReg sube64), (TplReg subo64), TplSlot, 0);
  let Reload = (LDPXi (TplReg sube64), (TplReg subo64), TplSlot, 0);
}
def WSeqPairsTemplates : SpillTemplates<WSeqPairsClass> {
  let Spill = (STPWi (TplReg sube32), (TplReg subo32), TplSlot, 0);
  let Reload = (LDPWi (TplReg sube32), (TplReg subo32), TplSlot, 0);
}

// Classes LLVM 19 cannot spill (llc-19 -verify-machineinstrs rejects what
// it emits: an opcode-0 PHI where storeRegToStackSlot found no store).
def : CannotSpill<GPR64x8Class,
  "LLVM 19 has no store or load for the eight-register tuples of LS64 (AArch64InstrInfo emits an invalid instruction)">;
def : CannotSpill<FIXED_REGS,
  "LLVM 19 has no store or load for FFR and the other fixed registers (AArch64InstrInfo emits an invalid instruction)">;
def : CannotSpill<ZTR,
  "LLVM 19 has no store or load for SME's ZT0 lookup table (AArch64InstrInfo emits an invalid instruction)">;

// The stack pointer always; the frame pointer X29 (spelled FP) in functions
// that keep a frame record, which under clang's default
// -mframe-pointer=non-leaf is every function that calls, plus those with
// variable-sized objects or a taken frame address. WSP and W29 overlap them.
// XZR/WZR are constant registers (isConstant), not reserved. X18 is an
// ordinary register on Linux (only Darwin and Windows reserve it). FPCR, the
// floating-point control register every FP instruction reads, is reserved
// like the stack pointer: calls do not preserve it in their masks, yet its
// value is never a register allocator's business. So are, as LLVM 19
// reserves them, FPSR (status), VG (the SVE vector length in granules,
// read by every instruction that scales by it: CNTH, ADDVL, PTRUE...) and
// FFR (the SVE first-fault register; LLVM reserves it where SVE is on,
// and no code without SVE names it).
//
// AAPCS64 keeps SP 16-byte aligned; a frame with an object aligned to more
// is realigned, which keeps a frame record (AArch64FrameLowering::hasFP
// consults hasStackRealignment). A function with variable-sized objects
// cannot address its locals from SP; LLVM 19 then reserves X19 (with W19)
// as the base pointer when FP cannot reach them either: the stack is
// realigned, or the local frame is 256 bytes or more, beyond which LLVM
// guesses the short negative offsets from FP may fall short
// (AArch64RegisterInfo::hasBasePointer, the case without SVE objects,
// which this target does not describe).
def AArch64Reserved : ReservedRegisters {
  let Always = (add SP, FPCR, FPSR, VG, FFR);
  let FramePointer = (add FP);
  let FramePointerInNonLeaf = true;
  let StackAlignment = 16;
  let BasePointer = (add X19);
  let BasePointerFrameSize = 256;
}

// The register coalescer joins copies that cross blocks before those local
// to one (AArch64's subtarget enables the machine scheduler, and with it
// enableJoinGlobalCopies).
def AArch64PreAllocation : PreAllocationPolicy {
  let JoinGlobalCopies = true;
}

// Branch facts for splitting a critical edge (AArch64InstrInfo's
// analyzeBranch, insertBranch and reverseBranchCondition): a new block
// jumps with B; Bcc's condition ($cc) is reversed by flipping its lowest
// bit (EQ 0 / NE 1, HS 2 / LO 3, ...); compare-and-branch and
// test-and-branch swap with their opposites.
def : UnconditionalBranch<B>;
def : ConditionalBranch<Bcc> {
  let Inverse = Bcc;
  let ConditionOperand = "cc";
  let ConditionXor = 1;
}
foreach pair = [["CBZW", "CBNZW"], ["CBZX", "CBNZX"], ["TBZW", "TBNZW"],
                ["TBZX", "TBNZX"]] in {
  def : ConditionalBranch<!cast<Instruction>(pair[0])> { let Inverse = !cast<Instruction>(pair[1]); }
  def : ConditionalBranch<!cast<Instruction>(pair[1])> { let Inverse = !cast<Instruction>(pair[0]); }
}
