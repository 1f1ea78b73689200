// x86: the prelude, the register file, the instructions, the memory-operand folds, and the spill/reload/copy templates.
include "regalloc.td"
include "registers.td"
include "instrs.td"
include "folds.td"

// The class each pointer-like operand kind of instrs.td stands for in 64-bit
// mode (System V), as LLVM's X86RegisterInfo::getPointerRegClass answers it:
// our prelude's PointerRegClass extension (not in LLVM's Target.td, so it is
// here and not in instrs.td, which the oracle tests read with Target.td).
def : PointerRegClass<0, GR64>;
def : PointerRegClass<1, GR64_NOSP>;
def : PointerRegClass<2, GR64_NOREX>;
def : PointerRegClass<3, GR64_NOREX_NOSP>;
def : PointerRegClass<4, GR64_TC>;

// Spill code as LLVM 19 emits it (X86InstrInfo::storeRegToStackSlot and
// friends, checked with llc-19 -stop-after=virtregrewriter on the corpus):
// the five-operand address `%stack.N, 1, $noreg, 0, $noreg` (base, scale,
// index, displacement, segment), the value after it for stores. Templates
// are our prelude's SpillTemplates extension (see regalloc.td); sub-classes
// (GR64_NOSP, GR32_ABCD, GR64_with_sub_8bit, ...) inherit them. Checked for
// every allocatable class, per subtarget, against llc-19 by
// tests/tests/spill_every_class.rs.
multiclass GPRTemplates<RegisterClass rc, Instruction st, Instruction ld,
                        Instruction mv> {
  def NAME : SpillTemplates<rc> {
    let Spill = (st TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
    let Reload = (ld TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
    let Copy = (mv TplReg, TplSrc);
  }
}
defm GR8Templates : GPRTemplates<GR8, MOV8mr, MOV8rm, MOV8rr>;
// GR8_NOREX values are spilled as GR8's: LLVM takes the _NOREX store and
// load only for AH, BH, CH or DH themselves (a physical register, when a
// COPY from one is folded), never for a virtual register of the class. Its
// copy of a high byte register is the _NOREX move.
def GR8_NOREXTemplates : SpillTemplates<GR8_NOREX> {
  let Copy = (MOV8rr_NOREX TplReg, TplSrc);
}
// Every register of GR8_ABCD_H is a high byte register: the _NOREX forms
// (what LLVM stores when it folds a COPY from one of them).
defm GR8_ABCD_HTemplates : GPRTemplates<GR8_ABCD_H, MOV8mr_NOREX, MOV8rm_NOREX,
                                        MOV8rr_NOREX>;
defm GR16Templates : GPRTemplates<GR16, MOV16mr, MOV16rm, MOV16rr>;
defm GR32Templates : GPRTemplates<GR32, MOV32mr, MOV32rm, MOV32rr>;
defm GR64Templates : GPRTemplates<GR64, MOV64mr, MOV64rm, MOV64rr>;

// The subtarget features the vector and mask classes' spill code depends
// on (LLVM 19's X86.td names, and what each implies among these).
def FeatureAVX : SubtargetFeature<"avx", "X86SSELevel", "AVX", "AVX">;
def FeatureAVX2 : SubtargetFeature<"avx2", "X86SSELevel", "AVX2", "AVX2",
                                   [FeatureAVX]>;
def FeatureAVX512 : SubtargetFeature<"avx512f", "X86SSELevel", "AVX512",
                                     "AVX-512", [FeatureAVX2]>;
def FeatureBWI : SubtargetFeature<"avx512bw", "HasBWI", "true",
                                  "AVX-512 bytes and words", [FeatureAVX512]>;
def FeatureDQI : SubtargetFeature<"avx512dq", "HasDQI", "true",
                                  "AVX-512 doublewords and quadwords",
                                  [FeatureAVX512]>;
def FeatureVLX : SubtargetFeature<"avx512vl", "HasVLX", "true",
                                  "AVX-512 vector lengths", [FeatureAVX512]>;
def FeatureFP16 : SubtargetFeature<"avx512fp16", "HasFP16", "true",
                                   "AVX-512 half precision",
                                   [FeatureBWI, FeatureVLX, FeatureDQI]>;

// Vector and scalar-FP registers: per subtarget, the SSE form, the VEX form
// under AVX, the EVEX form under AVX-512 (for 128- and 256-bit registers,
// only with VL; without it, pseudos that widen to 512 bits); an unaligned
// store and load where the class's alignment exceeds the stack's (see
// SpillRealignNeedsFramePointer below). The classes named are the widest
// of each width: FR32, VR128, VR256 and the rest inherit.
class VecSpill<RegisterClass rc, list<SubtargetFeature> fs,
               Instruction st, Instruction ld, Instruction mv>
    : SpillTemplates<rc> {
  let Features = fs;
  let Spill = (st TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
  let Reload = (ld TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
  let Copy = (mv TplReg, TplSrc);
}
multiclass VecTemplates<RegisterClass rc, list<SubtargetFeature> fs,
                        Instruction st, Instruction ld, Instruction mv> {
  def NAME : VecSpill<rc, fs, st, ld, mv>;
}
multiclass WideVecTemplates<RegisterClass rc, list<SubtargetFeature> fs,
                            Instruction st, Instruction ld, Instruction mv,
                            Instruction ust, Instruction uld> {
  def NAME : VecSpill<rc, fs, st, ld, mv> {
    let UnalignedSpill = (ust TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
    let UnalignedReload = (uld TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
  }
}
defm FR16XTemplates : VecTemplates<FR16X, [], MOVSSmr, MOVSSrm, MOVAPSrr>;
defm FR16XAVXTemplates : VecTemplates<FR16X, [FeatureAVX], VMOVSSmr, VMOVSSrm,
                                      VMOVAPSrr>;
defm FR16X512Templates : VecTemplates<FR16X, [FeatureAVX512], VMOVSSZmr,
                                      VMOVSSZrm, VMOVAPSrr>;
defm FR16XVLXTemplates : VecTemplates<FR16X, [FeatureVLX], VMOVSSZmr, VMOVSSZrm,
                                      VMOVAPSZ128rr>;
defm FR16XFP16Templates : VecTemplates<FR16X, [FeatureFP16], VMOVSHZmr,
                                       VMOVSHZrm_alt, VMOVAPSZ128rr>;
defm FR32XTemplates : VecTemplates<FR32X, [], MOVSSmr, MOVSSrm_alt, MOVAPSrr>;
defm FR32XAVXTemplates : VecTemplates<FR32X, [FeatureAVX], VMOVSSmr,
                                      VMOVSSrm_alt, VMOVAPSrr>;
defm FR32X512Templates : VecTemplates<FR32X, [FeatureAVX512], VMOVSSZmr,
                                      VMOVSSZrm_alt, VMOVAPSrr>;
defm FR32XVLXTemplates : VecTemplates<FR32X, [FeatureVLX], VMOVSSZmr,
                                      VMOVSSZrm_alt, VMOVAPSZ128rr>;
defm FR64XTemplates : VecTemplates<FR64X, [], MOVSDmr, MOVSDrm_alt, MOVAPSrr>;
defm FR64XAVXTemplates : VecTemplates<FR64X, [FeatureAVX], VMOVSDmr,
                                      VMOVSDrm_alt, VMOVAPSrr>;
defm FR64X512Templates : VecTemplates<FR64X, [FeatureAVX512], VMOVSDZmr,
                                      VMOVSDZrm_alt, VMOVAPSrr>;
defm FR64XVLXTemplates : VecTemplates<FR64X, [FeatureVLX], VMOVSDZmr,
                                      VMOVSDZrm_alt, VMOVAPSZ128rr>;
defm VR128XTemplates : VecTemplates<VR128X, [], MOVAPSmr, MOVAPSrm, MOVAPSrr>;
defm VR128XAVXTemplates : VecTemplates<VR128X, [FeatureAVX], VMOVAPSmr,
                                       VMOVAPSrm, VMOVAPSrr>;
defm VR128X512Templates : VecTemplates<VR128X, [FeatureAVX512],
                                       VMOVAPSZ128mr_NOVLX, VMOVAPSZ128rm_NOVLX,
                                       VMOVAPSrr>;
defm VR128XVLXTemplates : VecTemplates<VR128X, [FeatureVLX], VMOVAPSZ128mr,
                                       VMOVAPSZ128rm, VMOVAPSZ128rr>;
// LLVM spills 256-bit registers with the VEX moves whatever the subtarget.
defm VR256XTemplates : WideVecTemplates<VR256X, [], VMOVAPSYmr, VMOVAPSYrm,
    VMOVAPSYrr, VMOVUPSYmr, VMOVUPSYrm>;
defm VR256X512Templates : WideVecTemplates<VR256X, [FeatureAVX512],
                                           VMOVAPSZ256mr_NOVLX,
    VMOVAPSZ256rm_NOVLX, VMOVAPSYrr, VMOVUPSZ256mr_NOVLX, VMOVUPSZ256rm_NOVLX>;
defm VR256XVLXTemplates : WideVecTemplates<VR256X, [FeatureVLX], VMOVAPSZ256mr,
    VMOVAPSZ256rm, VMOVAPSZ256rr, VMOVUPSZ256mr, VMOVUPSZ256rm>;
defm VR512Templates : WideVecTemplates<VR512, [], VMOVAPSZmr, VMOVAPSZrm,
    VMOVAPSZrr, VMOVUPSZmr, VMOVUPSZrm>;

// AVX-512 mask registers by width (VK1 ... VK16 and their WM forms are
// 16-bit classes of the same registers and inherit VK16's), mask pairs
// through LLVM's pseudos; with BWI LLVM copies masks with the 64-bit move.
multiclass MaskTemplates<RegisterClass rc, Instruction st, Instruction ld> {
  def NAME : SpillTemplates<rc> {
    let Spill = (st TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
    let Reload = (ld TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
    let Copy = (KMOVWkk TplReg, TplSrc);
  }
  def NAME # BWI : SpillTemplates<rc> {
    let Features = [FeatureBWI];
    let Spill = (st TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
    let Reload = (ld TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
    let Copy = (KMOVQkk TplReg, TplSrc);
  }
}
defm VK16Templates : MaskTemplates<VK16, KMOVWmk, KMOVWkm>;
defm VK32Templates : MaskTemplates<VK32, KMOVDmk, KMOVDkm>;
defm VK64Templates : MaskTemplates<VK64, KMOVQmk, KMOVQkm>;
def VK16PAIRTemplates : SpillTemplates<VK16PAIR> {
  let Spill = (MASKPAIR16STORE TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
  let Reload = (MASKPAIR16LOAD TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
}

// MMX.
defm VR64Templates : GPRTemplates<VR64, MMX_MOVQ64mr, MMX_MOVQ64rm,
                                  MMX_MOVQ64rr>;

// x87 stack registers (float, double, long double): LLVM's pseudo loads and
// stores; their copies are left to the FP stackifier (no one instruction).
multiclass FpTemplates<RegisterClass rc, Instruction st, Instruction ld> {
  def NAME : SpillTemplates<rc> {
    let Spill = (st TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
    let Reload = (ld TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
  }
}
defm RFP32Templates : FpTemplates<RFP32, ST_Fp32m, LD_Fp32m>;
defm RFP64Templates : FpTemplates<RFP64, ST_Fp64m, LD_Fp64m>;
defm RFP80Templates : FpTemplates<RFP80, ST_FpP80m, LD_Fp80m>;

// Classes LLVM 19 cannot spill (llc-19 -verify-machineinstrs rejects what
// it emits, or it crashes): the allocator says so rather than inventing
// spill code LLVM would not write.
def : CannotSpill<LOW32_ADDR_ACCESS,
  "LLVM 19 cannot spill it: the class holds RIP beside the 32-bit registers, and X86InstrInfo stores a 4-byte class only if it is a GR32, FR32X, VK32 or FR16X class (llc-19 emits a VMOVSHZmr of a general register, which its verifier rejects)">;
def : CannotSpill<LOW32_ADDR_ACCESS_RBP,
  "LLVM 19 cannot spill it: the class holds RIP and RBP beside the 32-bit registers, and X86InstrInfo stores a 4-byte class only if it is a GR32, FR32X, VK32 or FR16X class (llc-19 emits a VMOVSHZmr of a general register, which its verifier rejects)">;
def : CannotSpill<DEBUG_REG,
  "LLVM 19 has no store or load for debug registers (llc-19 emits an instruction its verifier rejects)">;
def : CannotSpill<CONTROL_REG,
  "LLVM 19 has no store or load for control registers (llc-19 emits an instruction its verifier rejects)">;
def : CannotSpill<SEGMENT_REG,
  "segment registers are never allocated (every one is reserved), so a value never needs one spilled">;
def : CannotSpill<TILE,
  "LLVM 19 spills an AMX tile with TILESTORED after loading its stride into a register: two instructions, which one template cannot say (and llc-19 crashes spilling a tile live across a call)">;

// The stack pointer and the instruction pointer always (with their 32-, 16-
// and 8-bit views, which overlap them), the shadow-stack pointer, the x87 and
// SSE control/status registers and the segment registers, none of which the
// allocator may touch; R16-R31 too, because they exist only with APX (EGPR),
// which the x86-64 baseline lacks. RBP when the function keeps a frame
// pointer (x86-64 Linux at -O2 keeps one only when it must: variable-sized
// objects, a taken frame address, an opaque stack-pointer adjustment, or a
// realigned stack).
//
// The SysV x86-64 ABI keeps the stack 16-byte aligned at calls; a frame
// with an object aligned to more (an over-aligned local, say a 32-byte AVX
// vector) is realigned on entry, and LLVM then keeps a frame pointer
// (X86FrameLowering::hasFP consults hasStackRealignment). If such a
// function also moves its stack pointer at run time (variable-sized
// objects, an opaque adjustment), neither RSP nor RBP can address its
// locals, and LLVM 19 reserves RBX as the base pointer
// (X86RegisterInfo::hasBasePointer; EBX on x32, which this target does not
// describe). x86 has no frame-size rule: its 32-bit displacements reach.
//
// XMM16-XMM31 (and the YMM and ZMM registers holding them) exist only with
// AVX-512: LLVM reserves them in a function without it.
def : ReservedWithoutFeatures<[FeatureAVX512], (sequence "XMM%u", 16, 31)>;
//
// A spill slot of a 32- or 64-byte vector class asks for 32 or 64 bytes of
// alignment; x86 can realign only a function that reserved its frame
// pointer (and base pointer) before allocation (X86RegisterInfo's
// canRealignStack), so elsewhere the slot gets 16 and the unaligned moves
// (VMOVUPSYmr rather than VMOVAPSYmr).
def X86Reserved : ReservedRegisters {
  let Always = (add RSP, RIP, SSP, FPCW, FPSW, MXCSR, CS, DS, SS, ES, FS, GS,
                    (sequence "R%u", 16, 31));
  let FramePointer = (add RBP);
  let StackAlignment = 16;
  let BasePointer = (add RBX);
  let SpillRealignNeedsFramePointer = true;
}

// The register coalescer joins copies that cross blocks before those local
// to one (X86's subtarget enables the machine scheduler, and with it
// enableJoinGlobalCopies).
def X86PreAllocation : PreAllocationPolicy {
  let JoinGlobalCopies = true;
}

// Branch facts for splitting a critical edge (X86InstrInfo's analyzeBranch,
// insertBranch and reverseBranchCondition): a new block jumps with JMP_1;
// JCC_1's condition code ($cc) is reversed by flipping its lowest bit (E and
// NE are 4 and 5, B and AE 2 and 3, ...).
def : UnconditionalBranch<JMP_1>;
// A switch's dispatch (JMP64r through the jump table's entry, JMP64m
// non-PIC) is split by rewriting the table (X86InstrInfo::getJumpTableIndex).
def : JumpTableBranch<JMP64r>;
def : JumpTableBranch<JMP64m>;
def : ConditionalBranch<JCC_1> {
  let Inverse = JCC_1;
  let ConditionOperand = "cc";
  let ConditionXor = 1;
}

// Commuting facts (X86InstrInfo's findCommutedOpIndices and
// commuteInstructionImpl): a CMOV commutes by swapping its sources and
// reversing its condition ($cc, lowest bit flipped as for JCC_1). These
// isCommutable instructions do not commute by swapping alone: MOVSS and
// MOVSD become BLENDPS/SHUFPD, UNPCKHPD becomes MOVHLPS, SHLD and SHRD
// become each other with the shift count changed, SHUFPD changes its
// control bits, and the SSE compares commute only for the symmetric
// predicates of their immediate.
foreach w = ["16", "32", "64"] in
  def : CommuteRule<!cast<Instruction>("CMOV" # w # "rr")> {
    let ConditionOperand = "cc";
    let ConditionXor = 1;
  }
foreach i = ["MOVSSrr", "MOVSDrr", "UNPCKHPDrr", "SHUFPDrri", "CMPSSrri",
             "CMPSDrri",
             "CMPPSrri", "CMPPDrri", "SHLD16rri8", "SHLD32rri8", "SHLD64rri8",
             "SHRD16rri8", "SHRD32rri8", "SHRD64rri8"] in
  def : CommuteRule<!cast<Instruction>(i)> { let Commutes = false; }

// Three-address forms (X86InstrInfo::convertToThreeAddress, 64-bit mode):
// when a tie would cost a copy, ADD, SUB of an immediate, INC, DEC and SHL
// by 1 to 3 become an LEA, whose operands are base, scale, index,
// displacement and segment. LEA's index may not be RSP, so a source used as
// an index (and INC's and DEC's, as LLVM's classifyLEAReg has it) is
// narrowed to GR64_NOSP. A 32-bit source is read as the low half of a new
// 64-bit register (LEA64_32r computes in 64 bits, writes 32); an 8- or
// 16-bit one is inserted into an IMPLICIT_DEF'd 64-bit register and the
// result's low part copied out (convertToThreeAddressWithLEA). LLVM makes
// the register of ADD32rr's second source before its first's, and those of
// ADD8rr/ADD16rr as input, result, input.
foreach i = ["ADD64ri32", "ADD64ri32_DB"] in
  def : ThreeAddressForm<!cast<Instruction>(i),
          (LEA64r TplDef, (TplOperand 1), 1, TplNoReg, (TplOperand 2),
           TplNoReg)>;
def : ThreeAddressForm<SUB64ri32,
        (LEA64r TplDef, (TplOperand 1), 1, TplNoReg, (TplNegated 2, 32),
         TplNoReg)>;
foreach i = ["ADD32ri", "ADD32ri_DB"] in
  def : ThreeAddressForm<!cast<Instruction>(i),
          (LEA64_32r TplDef, (TplWiden 1, GR64, sub_32bit), 1, TplNoReg,
           (TplOperand 2), TplNoReg)>;
def : ThreeAddressForm<SUB32ri,
        (LEA64_32r TplDef, (TplWiden 1, GR64, sub_32bit), 1, TplNoReg,
         (TplNegated 2, 32), TplNoReg)>;
foreach op = ["INC", "DEC"] in {
  defvar by = !if(!eq(op, "INC"), 1, -1);
  def : ThreeAddressForm<!cast<Instruction>(op # "64r"),
          (LEA64r TplDef, (TplOperand 1, GR64_NOSP), 1, TplNoReg, by,
           TplNoReg)>;
  def : ThreeAddressForm<!cast<Instruction>(op # "32r"),
          (LEA64_32r TplDef, (TplWiden 1, GR64_NOSP, sub_32bit), 1, TplNoReg,
           by, TplNoReg)>;
  foreach w = ["8", "16"] in {
    defvar idx = !cast<SubRegIndex>("sub_" # w # "bit");
    def : ThreeAddressForm<!cast<Instruction>(op # w # "r"),
            (LEA64_32r (TplResult GR32, idx), (TplInsert 1, GR64_NOSP, idx), 1,
             TplNoReg, by,
                       TplNoReg)>;
  }
}
foreach i = ["ADD64rr", "ADD64rr_DB"] in
  def : ThreeAddressForm<!cast<Instruction>(i),
          (LEA64r TplDef, (TplOperand 1, GR64), 1, (TplOperand 2, GR64_NOSP), 0,
           TplNoReg)>;
foreach i = ["ADD32rr", "ADD32rr_DB"] in
  def : ThreeAddressForm<!cast<Instruction>(i),
          (LEA64_32r TplDef, (TplWiden 1, GR64, sub_32bit), 1,
                     (TplWiden 2, GR64_NOSP, sub_32bit), 0, TplNoReg)> {
    let NewRegisterOrder = [3, 1];
  }
foreach w = ["8", "16"] in {
  defvar idx = !cast<SubRegIndex>("sub_" # w # "bit");
  foreach i = ["ri", "ri_DB"] in
    def : ThreeAddressForm<!cast<Instruction>("ADD" # w # i),
            (LEA64_32r (TplResult GR32, idx), (TplInsert 1, GR64_NOSP, idx), 1,
             TplNoReg,
                       (TplOperand 2), TplNoReg)>;
  foreach i = ["rr", "rr_DB"] in
    def : ThreeAddressForm<!cast<Instruction>("ADD" # w # i),
            (LEA64_32r (TplResult GR32, idx), (TplInsert 1, GR64_NOSP, idx), 1,
                       (TplInsert 2, GR64_NOSP, idx), 0, TplNoReg)> {
      let NewRegisterOrder = [1, 0, 3];
    }
}
foreach s = [1, 2, 3] in {
  let ImmediateOperand = 2, ImmediateValue = s in {
    def : ThreeAddressForm<SHL64ri,
            (LEA64r TplDef, TplNoReg, !shl(1, s), (TplOperand 1, GR64_NOSP), 0,
             TplNoReg)>;
    def : ThreeAddressForm<SHL32ri,
            (LEA64_32r TplDef, TplNoReg, !shl(1, s),
             (TplWiden 1, GR64_NOSP, sub_32bit), 0,
                       TplNoReg)>;
    foreach w = ["8", "16"] in {
      defvar idx = !cast<SubRegIndex>("sub_" # w # "bit");
      def : ThreeAddressForm<!cast<Instruction>("SHL" # w # "ri"),
              (LEA64_32r (TplResult GR32, idx), TplNoReg, !shl(1, s),
                         (TplInsert 1, GR64_NOSP, idx), 0, TplNoReg)>;
    }
  }
}
