// hexagon: the prelude, the register file, the instructions, and the spill/reload/copy templates.
include "regalloc.td"
include "registers.td"
include "instrs.td"

// Spill code as LLVM 19 emits it (HexagonInstrInfo::storeRegToStackSlot and
// friends, checked with llc-19 -stop-after=virtregrewriter on the corpus):
// `S2_storeri_io %stack.N, 0, $r`, `$r = L2_loadri_io %stack.N, 0`, the pair
// forms for DoubleRegs, and the STriw_pred/LDriw_pred pseudos (expanded
// through a general register after allocation) for predicates. Templates
// are our prelude's SpillTemplates extension (see regalloc.td);
// GeneralSubRegs, IntRegsLow8 and GeneralDoubleLow8Regs inherit them.
def IntRegsTemplates : SpillTemplates<IntRegs> {
  let Spill = (S2_storeri_io TplSlot, 0, TplReg);
  let Reload = (L2_loadri_io TplReg, TplSlot, 0);
  let Copy = (A2_tfr TplReg, TplSrc);
}
def DoubleRegsTemplates : SpillTemplates<DoubleRegs> {
  let Spill = (S2_storerd_io TplSlot, 0, TplReg);
  let Reload = (L2_loadrd_io TplReg, TplSlot, 0);
  let Copy = (A2_tfrp TplReg, TplSrc);
}
def PredRegsTemplates : SpillTemplates<PredRegs> {
  let Spill = (STriw_pred TplSlot, 0, TplReg);
  let Reload = (LDriw_pred TplReg, TplSlot, 0);
  let Copy = (C2_or TplReg, TplSrc, TplSrc);
}
def ModRegsTemplates : SpillTemplates<ModRegs> {
  let Spill = (STriw_ctr TplSlot, 0, TplReg);
  let Reload = (LDriw_ctr TplReg, TplSlot, 0);
}

// HVX vectors, pairs and predicates: LLVM's pseudo stores and loads. Their
// slots take the class's size and alignment in the function's HW mode (64
// or 128 bytes a vector: the "hvx-length64b"/"hvx-length128b" features);
// Hexagon realigns its stack for them. A pair is copied as the combination
// of the source's halves.
def HvxVRTemplates : SpillTemplates<HvxVR> {
  let Spill = (PS_vstorerv_ai TplSlot, 0, TplReg);
  let Reload = (PS_vloadrv_ai TplReg, TplSlot, 0);
  let Copy = (V6_vassign TplReg, TplSrc);
}
def HvxWRTemplates : SpillTemplates<HvxWR> {
  let Spill = (PS_vstorerw_ai TplSlot, 0, TplReg);
  let Reload = (PS_vloadrw_ai TplReg, TplSlot, 0);
  let Copy = (V6_vcombine TplReg, (TplSrc vsub_hi), (TplSrc vsub_lo));
}
def HvxQRTemplates : SpillTemplates<HvxQR> {
  let Spill = (PS_vstorerq_ai TplSlot, 0, TplReg);
  let Reload = (PS_vloadrq_ai TplReg, TplSlot, 0);
  let Copy = (V6_pred_and TplReg, TplSrc, TplSrc);
}
// LLVM 19 mis-spills these (llc-19 output that its verifier rejects, or
// that overwrites its neighbours): the allocator says so instead.
def : CannotSpill<VectRegRev,
  "LLVM 19 spills it with PS_vstorerw_ai, a whole vector pair, into a slot of the class's 8-byte spill size, which the store overruns">;
def : CannotSpill<HvxVQR,
  "LLVM 19 spills a vector quad with PS_vstorerw_ai, the pair store, which takes HvxWR registers only (llc-19's verifier rejects it, and half the quad would be lost)">;

// The stack pointer R29, frame pointer R30 and link register R31 are never
// allocated by Hexagon's LLVM back end; the pairs D14 (R29:R28) and D15
// (R31:R30) overlap them and so are reserved too. USR, the user status
// register (rounding mode, sticky overflow) that floating-point instructions
// read, is reserved with its overflow bit USR_OVF and its control-register
// alias C8: calls do not preserve it, and it is never allocated. The
// control registers that only the system or the hardware sets (PC, the
// global pointers UGP and GP, the circular-buffer starts CS0/CS1, the
// cycle, packet and timer counters, FRAMELIMIT and FRAMEKEY) are reserved
// as LLVM reserves them: code reads them (`COPY $ugp` for the thread
// pointer) without their value flowing from a definition, so their
// liveness is not tracked and calls do not clobber them. VTMP, the HVX
// temporary that only a packet's .tmp loads may write, is in HvxVR's
// members but LLVM 19 reserves it (HexagonRegisterInfo::getReservedRegs):
// an allocated value there fails llc's verifier. The hardware-loop
// registers (start addresses SA0/SA1, counts LC0/LC1, with their pairs
// C1_0 and C3_2) are reserved too, as LLVM reserves them: only the loop
// set-up and loop-end instructions write and read them, implicitly, so
// LLVM's live variables leave their operands without kill or dead flags.
// LLVM reserves more than allocation needs to know of, marking only each
// register and its super-registers: the guest registers G0-G3 (GELR, GSR,
// GOSP, G3), P3_0 (the four predicates seen as one control register:
// reserving it in Always would reserve P0-P3 with it, which LLVM
// allocates), the control-register name C8, USR's overflow bit USR_OVF, and
// the reversed vector pairs WR0-WR15 (LLVM 19 never allocates them). Its
// post-allocation data-flow analyses (RDF) leave them untracked, and so do
// ours.
def HexagonReserved : ReservedRegisters {
  let Always = (add R29, R30, R31, USR, PC, UGP, GP, CS0, CS1, UPCYCLELO,
                    UPCYCLEHI, FRAMELIMIT, FRAMEKEY, PKTCOUNTLO, PKTCOUNTHI,
                    UTIMERLO, UTIMERHI, VTMP, SA0, LC0, SA1, LC1);
  let Untracked = (add GELR, GSR, GOSP, G3, P3_0, C8, USR_OVF,
                       (sequence "WR%u", 0, 15));
}

// The register coalescer joins copies that cross blocks before those local
// to one (Hexagon's subtarget enables the machine scheduler, and with it
// enableJoinGlobalCopies). Liveness follows sub-register lanes (the
// subtarget's enableSubRegLiveness, on by default in LLVM 19): so
// detect-dead-lanes runs and interference follows lanes.
def HexagonPreAllocation : PreAllocationPolicy {
  let JoinGlobalCopies = true;
  let TracksSubRegLiveness = true;
}

// Branch facts for splitting a critical edge (HexagonInstrInfo's
// analyzeBranch, insertBranch and reverseBranchCondition): a new block
// jumps with J2_jump; a jump on a predicate and a new-value compare-and-jump
// with two compared operands swap with the form taken on the opposite
// predicate; the hardware-loop ends are understood but cannot be reversed.
def : UnconditionalBranch<J2_jump>;
foreach s = ["", "pt", "new", "newpt"] in {
  def : ConditionalBranch<!cast<Instruction>("J2_jumpt" # s)> {
    let Inverse = !cast<Instruction>("J2_jumpf" # s);
  }
  def : ConditionalBranch<!cast<Instruction>("J2_jumpf" # s)> {
    let Inverse = !cast<Instruction>("J2_jumpt" # s);
  }
}
foreach c = ["eq", "gt", "gtu", "lt", "ltu", "eqi", "gti", "gtui", "eqn1",
             "gtn1"] in
  foreach h = ["t", "nt"] in {
    def : ConditionalBranch<!cast<Instruction>("J4_cmp" # c # "_t_jumpnv_" # h)> {
      let Inverse = !cast<Instruction>("J4_cmp" # c # "_f_jumpnv_" # h);
    }
    def : ConditionalBranch<!cast<Instruction>("J4_cmp" # c # "_f_jumpnv_" # h)> {
      let Inverse = !cast<Instruction>("J4_cmp" # c # "_t_jumpnv_" # h);
    }
  }
def : ConditionalBranch<ENDLOOP0>;
def : ConditionalBranch<ENDLOOP1>;
def : ConditionalBranch<ENDLOOP01>;
