// AArch64 machine instructions as the register allocator sees them (LLVM 19,
// aarch64-linux-gnu): the opcodes of the corpus MIR and their families
// (W/X widths, scalar FP widths, every load/store width in the unsigned-offset,
// register-offset, unscaled, pre- and post-indexed forms, the vector
// arrangements of the operations the corpus uses).
//
// Written against LLVM 19's Target.td classes; facts follow LLVM 19's
// MCInstrDesc (targets/oracle/compare_instrs.py).  The target sets
// AllowRegisterRenaming = 1 (see targets/oracle/aarch64-instrs-top.td).
//
// Spill/reload/copy per allocatable class (the templates are in targets/aarch64/aarch64.td):
//   GPR32*  STRWui / LDRWui / ORRWrr (COPY of W regs lowers to ORRWrs wzr)
//   GPR64*  STRXui / LDRXui / ORRXrr
//   FPR8    STRBui / LDRBui,  FPR16 STRHui / LDRHui,  FPR32 STRSui / LDRSui
//   FPR64   STRDui / LDRDui / FMOVDr,  FPR128 STRQui / LDRQui / ORRv16i8
//   DD/DDD/DDDD, QQ/QQQ/QQQQ tuples: ST1Twov1d.../ST1Twov2d... and LD1... (QQQQ is in
//   the corpus); tuple copies are one ORR/FMOV per sub-register in LLVM.
//   SVE ZPR/PPR and tuples: STR_ZXI.../STR_PXI... and LDR_..., copies ORR_ZZZ/ORR_PPzPP;
//   XSeqPairs/WSeqPairs: STPXi/STPWi and LDPXi/LDPWi of the two halves.

//===-- Operand kinds ---------------------------------------------------===//

def a64_imm : Operand<i32> { let OperandType = "OPERAND_IMMEDIATE"; }
def a64_pcrel : Operand<i64> { let OperandType = "OPERAND_PCREL"; }
// Untyped immediates (shift amounts, encoded constants, condition codes,
// lane indices, scaled offsets).
def a64_enc : Operand<i32>;
// Register with a shift (LSL/LSR/ASR/ROR #n): register + encoded shift.
def a64_sreg32 : Operand<i32> { let MIOperandInfo = (ops GPR32, a64_enc); }
def a64_sreg64 : Operand<i64> { let MIOperandInfo = (ops GPR64, a64_enc); }
// Extended register (UXTB..SXTX #n); the source is a W register in both widths
// as LLVM models the common forms.
def a64_ext32 : Operand<i32> { let MIOperandInfo = (ops GPR32, a64_enc); }
// 12-bit immediate with optional LSL #12.
def a64_addimm : Operand<i32> { let MIOperandInfo = (ops a64_enc, a64_enc); }

// A name fragment with one or two register classes, for foreach lists.
class Arr<string suffix, RegisterClass rc1, RegisterClass rc2 = rc1> {
  string s = suffix;
  RegisterClass r = rc1;
  RegisterClass r2 = rc2;
}

//===-- Base classes ----------------------------------------------------===//

class A64Op<dag outs, dag ins> : Instruction {
  let Namespace = "AArch64";
  let OutOperandList = outs;
  let InOperandList = ins;
  let AsmString = "";
  let Size = 4;
  let hasSideEffects = false;
  let mayLoad = false;
  let mayStore = false;
}
class A64Pseudo<dag outs, dag ins> : A64Op<outs, ins> {
  let isPseudo = true;
  let Size = 0;
}
// Floating-point operations read FPCR and may raise FP exceptions.
class A64FP<dag outs, dag ins> : A64Op<outs, ins> {
  let Uses = [FPCR];
  let mayRaiseFPException = true;
}

//===-- Integer arithmetic ----------------------------------------------===//

// ADD/SUB (and the flag-setting ADDS/SUBS) in the four shapes:
// ri immediate, rr (pseudo, selected into rs), rs shifted, rx extended.
multiclass AddSub<bit setsFlags> {
  defvar remat = !not(setsFlags);
  let Defs = !if(setsFlags, [NZCV], []<Register>), isCompare = setsFlags in {
    let isReMaterializable = remat, isAsCheapAsAMove = remat,
        hasPostISelHook = true in {
      def Wri : A64Op<(outs !if(setsFlags, GPR32, GPR32sp):$d),
                      (ins GPR32sp:$n, a64_addimm:$imm)>;
      def Xri : A64Op<(outs !if(setsFlags, GPR64, GPR64sp):$d),
                      (ins GPR64sp:$n, a64_addimm:$imm)>;
    }
    let isReMaterializable = remat, isAsCheapAsAMove = remat in {
      def Wrr : A64Pseudo<(outs GPR32:$d), (ins GPR32:$n, GPR32:$m)>;
      def Xrr : A64Pseudo<(outs GPR64:$d), (ins GPR64:$n, GPR64:$m)>;
      def Wrs : A64Op<(outs GPR32:$d), (ins GPR32:$n, a64_sreg32:$m)>;
      def Xrs : A64Op<(outs GPR64:$d), (ins GPR64:$n, a64_sreg64:$m)>;
    }
    def Wrx : A64Op<(outs !if(setsFlags, GPR32, GPR32sp):$d),
                    (ins GPR32sp:$n, a64_ext32:$m)>;
    def Xrx : A64Op<(outs !if(setsFlags, GPR64, GPR64sp):$d),
                    (ins GPR64sp:$n, a64_ext32:$m)>;
  }
}
defm ADD : AddSub<false>;
defm SUB : AddSub<false>;
defm ADDS : AddSub<true>;
defm SUBS : AddSub<true>;

// Logical operations.  Immediate forms exist for AND/ORR/EOR/ANDS; the rr
// pseudos are rematerializable unless they set flags.
multiclass LogicRR<bit setsFlags> {
  let Defs = !if(setsFlags, [NZCV], []<Register>) in {
    let isReMaterializable = !not(setsFlags),
        isAsCheapAsAMove = !not(setsFlags) in {
      def Wrr : A64Pseudo<(outs GPR32:$d), (ins GPR32:$n, GPR32:$m)>;
      def Xrr : A64Pseudo<(outs GPR64:$d), (ins GPR64:$n, GPR64:$m)>;
    }
    def Wrs : A64Op<(outs GPR32:$d), (ins GPR32:$n, a64_sreg32:$m)>;
    def Xrs : A64Op<(outs GPR64:$d), (ins GPR64:$n, a64_sreg64:$m)>;
  }
}
multiclass LogicImm<bit setsFlags> {
  let Defs = !if(setsFlags, [NZCV], []<Register>), isCompare = setsFlags,
      isReMaterializable = !not(setsFlags),
          isAsCheapAsAMove = !not(setsFlags) in {
    def Wri : A64Op<(outs !if(setsFlags, GPR32, GPR32sp):$d),
                    (ins GPR32:$n, a64_imm:$imm)>;
    def Xri : A64Op<(outs !if(setsFlags, GPR64, GPR64sp):$d),
                    (ins GPR64:$n, a64_imm:$imm)>;
  }
}
foreach op = ["AND", "ORR", "EOR", "BIC", "ORN", "EON"] in
  defm op : LogicRR<false>;
foreach op = ["ANDS", "BICS"] in
  defm op : LogicRR<true>;
foreach op = ["AND", "ORR", "EOR"] in
  defm op : LogicImm<false>;
defm ANDS : LogicImm<true>;

// Two-register and one-register data processing, W and X.
multiclass GPRBinary {
  def Wr : A64Op<(outs GPR32:$d), (ins GPR32:$n, GPR32:$m)>;
  def Xr : A64Op<(outs GPR64:$d), (ins GPR64:$n, GPR64:$m)>;
}
multiclass GPRUnary {
  def Wr : A64Op<(outs GPR32:$d), (ins GPR32:$n)>;
  def Xr : A64Op<(outs GPR64:$d), (ins GPR64:$n)>;
}
foreach op = ["ASRV", "LSLV", "LSRV", "RORV", "SDIV", "UDIV"] in
  defm op : GPRBinary;
foreach op = ["CLZ", "CLS", "RBIT", "REV", "REV16"] in
  defm op : GPRUnary;
def REV32Xr : A64Op<(outs GPR64:$d), (ins GPR64:$n)>;

foreach op = ["SMULH", "UMULH"] in
  def op # rr : A64Op<(outs GPR64:$d), (ins GPR64:$n, GPR64:$m)>;

// Multiply-accumulate: d = a +/- n * m.
foreach op = ["MADD", "MSUB"] in {
  def op # Wrrr : A64Op<(outs GPR32:$d), (ins GPR32:$n, GPR32:$m, GPR32:$a)>;
  def op # Xrrr : A64Op<(outs GPR64:$d), (ins GPR64:$n, GPR64:$m, GPR64:$a)>;
}
foreach op = ["SMADDL", "UMADDL", "SMSUBL", "UMSUBL"] in
  def op # rrr : A64Op<(outs GPR64:$d), (ins GPR32:$n, GPR32:$m, GPR64:$a)>;

// Bitfield moves; BFM inserts into its destination (tied).
foreach op = ["SBFM", "UBFM"] in {
  def op # Wri : A64Op<(outs GPR32:$d), (ins GPR32:$n, a64_imm:$r, a64_imm:$s)>;
  def op # Xri : A64Op<(outs GPR64:$d), (ins GPR64:$n, a64_imm:$r, a64_imm:$s)>;
}
let Constraints = "$d = $src" in {
  def BFMWri : A64Op<(outs GPR32:$d),
                     (ins GPR32:$src, GPR32:$n, a64_imm:$r, a64_imm:$s)>;
  def BFMXri : A64Op<(outs GPR64:$d),
                     (ins GPR64:$src, GPR64:$n, a64_imm:$r, a64_imm:$s)>;
}
def EXTRWrri : A64Op<(outs GPR32:$d), (ins GPR32:$n, GPR32:$m, a64_imm:$lsb)>;
def EXTRXrri : A64Op<(outs GPR64:$d), (ins GPR64:$n, GPR64:$m, a64_imm:$lsb)>;

// Conditional select family: read NZCV.
let Uses = [NZCV] in
foreach op = ["CSEL", "CSINC", "CSINV", "CSNEG"] in {
  def op # Wr : A64Op<(outs GPR32:$d), (ins GPR32:$n, GPR32:$m, a64_enc:$cc)>;
  def op # Xr : A64Op<(outs GPR64:$d), (ins GPR64:$n, GPR64:$m, a64_enc:$cc)>;
}

// Conditional compares: read and write NZCV.
let Defs = [NZCV], Uses = [NZCV] in
foreach op = ["CCMP", "CCMN"] in {
  def op # Wi : A64Op<(outs),
                      (ins GPR32:$n, a64_imm:$imm, a64_imm:$nzcv, a64_enc:$cc)>;
  def op # Xi : A64Op<(outs),
                      (ins GPR64:$n, a64_imm:$imm, a64_imm:$nzcv, a64_enc:$cc)>;
  def op # Wr : A64Op<(outs),
                      (ins GPR32:$n, GPR32:$m, a64_imm:$nzcv, a64_enc:$cc)>;
  def op # Xr : A64Op<(outs),
                      (ins GPR64:$n, GPR64:$m, a64_imm:$nzcv, a64_enc:$cc)>;
}

//===-- Moves and addresses ---------------------------------------------===//

foreach op = ["MOVZ", "MOVN"] in {
  def op # Wi : A64Op<(outs GPR32:$d), (ins a64_enc:$imm, a64_enc:$shift)>;
  def op # Xi : A64Op<(outs GPR64:$d), (ins a64_enc:$imm, a64_enc:$shift)>;
}
let Constraints = "$d = $src" in {
  def MOVKWi : A64Op<(outs GPR32:$d),
                     (ins GPR32:$src, a64_enc:$imm, a64_enc:$shift)>;
  def MOVKXi : A64Op<(outs GPR64:$d),
                     (ins GPR64:$src, a64_enc:$imm, a64_enc:$shift)>;
}

// Materialize any constant (expanded after allocation).
let isReMaterializable = true, isAsCheapAsAMove = true, isMoveImm = true in {
  def MOVi32imm : A64Pseudo<(outs GPR32:$d), (ins a64_imm:$imm)>;
  def MOVi64imm : A64Pseudo<(outs GPR64:$d), (ins a64_imm:$imm)>;
}

let isReMaterializable = true in {
  def ADRP : A64Op<(outs GPR64:$d), (ins a64_pcrel:$page)>;
  // ADRP + ADD pairs for the various symbol kinds.
  foreach kind = ["", "JT", "CP", "BA", "TLS", "EXT"] in
    def MOVaddr # kind : A64Pseudo<(outs GPR64common:$d),
                                   (ins a64_imm:$hi, a64_imm:$lo)>;
  def LOADgot : A64Pseudo<(outs GPR64common:$d), (ins a64_imm:$sym)>;
}

//===-- Loads and stores ------------------------------------------------===//

// One multiclass per data register class: the five addressing forms.
//   ui   base + scaled unsigned offset
//   roW  base + W register (extend, shift flags)     roX  base + X register
//   pre/post  base updated (tied, early-clobber write-back, defined first)
//   LDUR/STUR  base + unscaled signed offset
multiclass LoadForms<string sfx, RegisterClass rc> {
  let mayLoad = true in {
    def LDR # sfx # ui : A64Op<(outs rc:$t), (ins GPR64sp:$base, a64_enc:$off)>;
    def LDR # sfx # roW : A64Op<(outs rc:$t),
                                (ins GPR64sp:$base, GPR32:$idx, a64_enc:$sext,
                                 a64_enc:$shift)>;
    def LDR # sfx # roX : A64Op<(outs rc:$t),
                                (ins GPR64sp:$base, GPR64:$idx, a64_enc:$sext,
                                 a64_enc:$shift)>;
    def LDUR # sfx # i : A64Op<(outs rc:$t), (ins GPR64sp:$base, a64_enc:$off)>;
    let Constraints = "@earlyclobber $wb,$base = $wb" in
    foreach idx = ["pre", "post"] in
      def LDR # sfx # idx : A64Op<(outs GPR64sp:$wb, rc:$t),
                                  (ins GPR64sp:$base, a64_enc:$off)>;
  }
}
multiclass StoreForms<string sfx, RegisterClass rc> {
  let mayStore = true in {
    def STR # sfx # ui : A64Op<(outs),
                               (ins rc:$t, GPR64sp:$base, a64_enc:$off)>;
    def STR # sfx # roW : A64Op<(outs),
                                (ins rc:$t, GPR64sp:$base, GPR32:$idx,
                                 a64_enc:$sext, a64_enc:$shift)>;
    def STR # sfx # roX : A64Op<(outs),
                                (ins rc:$t, GPR64sp:$base, GPR64:$idx,
                                 a64_enc:$sext, a64_enc:$shift)>;
    def STUR # sfx # i : A64Op<(outs),
                               (ins rc:$t, GPR64sp:$base, a64_enc:$off)>;
    let Constraints = "@earlyclobber $wb,$base = $wb" in
    foreach idx = ["pre", "post"] in
      def STR # sfx # idx : A64Op<(outs GPR64sp:$wb),
                                  (ins rc:$t, GPR64sp:$base, a64_enc:$off)>;
  }
}

// Integer: zero-extending and sign-extending widths.
defm "" : LoadForms<"BB", GPR32>;
defm "" : LoadForms<"HH", GPR32>;
defm "" : LoadForms<"W", GPR32>;
defm "" : LoadForms<"X", GPR64>;
defm "" : LoadForms<"SBW", GPR32>;
defm "" : LoadForms<"SBX", GPR64>;
defm "" : LoadForms<"SHW", GPR32>;
defm "" : LoadForms<"SHX", GPR64>;
defm "" : LoadForms<"SW", GPR64>;
defm "" : StoreForms<"BB", GPR32>;
defm "" : StoreForms<"HH", GPR32>;
defm "" : StoreForms<"W", GPR32>;
defm "" : StoreForms<"X", GPR64>;
// Floating-point / SIMD scalar registers of each size.
foreach fp = [Arr<"B", FPR8>, Arr<"H", FPR16>, Arr<"S", FPR32>, Arr<"D", FPR64>,
              Arr<"Q", FPR128>] in {
  defm "" : LoadForms<fp.s, fp.r>;
  defm "" : StoreForms<fp.s, fp.r>;
}

// Load one element and replicate it to all lanes.
let mayLoad = true in {
  foreach a = ["v8b", "v4h", "v2s", "v1d"] in
    def LD1R # a : A64Op<(outs FPR64:$t), (ins GPR64sp:$base)>;
  foreach a = ["v16b", "v8h", "v4s", "v2d"] in
    def LD1R # a : A64Op<(outs FPR128:$t), (ins GPR64sp:$base)>;
}

// Interleaving store of four Q registers with post-increment by register.
let mayStore = true, Constraints = "$base = $wb" in
def ST4Fourv4s_POST : A64Op<(outs GPR64sp:$wb),
                            (ins QQQQ:$t, GPR64sp:$base, GPR64:$inc)>;

// Whole-tuple loads and stores of 2, 3 or 4 consecutive D or Q registers,
// base register only: the spill and reload of the tuple classes.
foreach t = [Arr<"Twov2d", QQ>, Arr<"Threev2d", QQQ>, Arr<"Fourv2d", QQQQ>,
             Arr<"Twov1d", DD>, Arr<"Threev1d", DDD>, Arr<"Fourv1d", DDDD>] in {
  let mayStore = true in
  def ST1 # t.s : A64Op<(outs), (ins t.r:$t, GPR64sp:$base)>;
  let mayLoad = true in
  def LD1 # t.s : A64Op<(outs t.r:$t), (ins GPR64sp:$base)>;
}

// SVE: vector (Z) and predicate (P) registers and their tuples, stored at a
// vector-length-scaled offset from a base (the slot lives on the
// scalable-vector stack). The tuple forms are pseudos LLVM expands into one
// STR_ZXI/LDR_ZXI (STR_PXI/LDR_PXI) per register after allocation; in LLVM
// 19 the 2- and 4-register ones take only the tuples a multi-vector
// instruction can name (ZPR2StridedOrContiguous, ZPR4StridedOrContiguous).
class SveSpill<string n, RegisterClass rc, bit pseudo> {
  string name = n;
  RegisterClass cls = rc;
  bit isPseudo = pseudo;
}
foreach t = [SveSpill<"ZXI", ZPR, false>,
             SveSpill<"ZZXI", ZPR2StridedOrContiguous, true>,
             SveSpill<"ZZZXI", ZPR3, true>,
             SveSpill<"ZZZZXI", ZPR4StridedOrContiguous, true>,
             SveSpill<"PXI", PPRorPNR, false>, SveSpill<"PPXI", PPR2, true>] in
  let isPseudo = t.isPseudo, Size = !if(t.isPseudo, 0, 4) in {
    let mayStore = true in
    def STR_ # t.name : A64Op<(outs),
                              (ins t.cls:$t, GPR64sp:$base, a64_enc:$imm)>;
    let mayLoad = true in
    def LDR_ # t.name : A64Op<(outs t.cls:$t),
                              (ins GPR64sp:$base, a64_enc:$imm)>;
  }
// Copies: ORR of a register with itself (predicates under an all-true
// governing predicate: the source again).
def ORR_ZZZ : A64Op<(outs ZPR:$d), (ins ZPR:$n, ZPR:$m)>;
def ORR_PPzPP : A64Op<(outs PPRorPNR:$d),
                      (ins PPRorPNR:$g, PPRorPNR:$n, PPRorPNR:$m)>;

// Register pairs of consecutive general registers (the CASP operands),
// stored as their two halves.
foreach w = [Arr<"X", GPR64>, Arr<"W", GPR32>] in {
  let mayStore = true in
  def STP # w.s # i : A64Op<(outs),
                            (ins w.r:$t1, w.r:$t2, GPR64sp:$base,
                             a64_enc:$imm)>;
  let mayLoad = true in
  def LDP # w.s # i : A64Op<(outs w.r:$t1, w.r:$t2),
                            (ins GPR64sp:$base, a64_enc:$imm)>;
}

//===-- Control flow ----------------------------------------------------===//

let isBranch = true, isTerminator = true in {
  let isBarrier = true in {
    def B : A64Op<(outs), (ins a64_pcrel:$dest)>;
    let isIndirectBranch = true in
    def BR : A64Op<(outs), (ins GPR64:$target)>;
  }
  let Uses = [NZCV] in
  def Bcc : A64Op<(outs), (ins a64_enc:$cc, a64_pcrel:$dest)>;
  foreach op = ["CBZ", "CBNZ"] in {
    def op # W : A64Op<(outs), (ins GPR32:$t, a64_pcrel:$dest)>;
    def op # X : A64Op<(outs), (ins GPR64:$t, a64_pcrel:$dest)>;
  }
  foreach op = ["TBZ", "TBNZ"] in {
    def op # W : A64Op<(outs), (ins GPR32:$t, a64_enc:$bit, a64_pcrel:$dest)>;
    def op # X : A64Op<(outs), (ins GPR64:$t, a64_enc:$bit, a64_pcrel:$dest)>;
  }
}

let isReturn = true, isTerminator = true, isBarrier = true in {
  def RET_ReallyLR : A64Pseudo<(outs), (ins)>;
  let hasSideEffects = true in
  def RET : A64Op<(outs), (ins GPR64:$lr)>;
  // Tail calls.
  let isCall = true, Uses = [SP] in {
    def TCRETURNdi : A64Pseudo<(outs), (ins a64_imm:$dst, a64_imm:$fpdiff)>;
    def TCRETURNri : A64Pseudo<(outs), (ins tcGPR64:$dst, a64_imm:$fpdiff)>;
  }
}

// Calls: the callee-saved mask is on the MachineInstr; LR is the only
// implicit def in the description.
let isCall = true, Defs = [LR], Uses = [SP] in {
  def BL : A64Op<(outs), (ins a64_pcrel:$fn)>;
  def BLR : A64Op<(outs), (ins GPR64:$fn)>;
  def BLRNoIP : A64Pseudo<(outs), (ins GPR64noip:$fn)>;
}

let Defs = [SP], Uses = [SP], hasSideEffects = true in {
  def ADJCALLSTACKDOWN : A64Pseudo<(outs), (ins a64_imm:$amt1, a64_imm:$amt2)>;
  def ADJCALLSTACKUP : A64Pseudo<(outs), (ins a64_imm:$amt1, a64_imm:$amt2)>;
}

// Jump-table entry decoding (two scratch results, early-clobber).
let Constraints = "@earlyclobber $dst,@earlyclobber $scratch",
    hasSideEffects = true,
    isNotDuplicable = true, Size = 12 in
foreach w = [8, 16, 32] in
  def JumpTableDest # w : A64Pseudo<(outs GPR64:$dst, GPR64sp:$scratch),
                                    (ins GPR64:$table, GPR64:$entry,
                                     a64_imm:$jti)>;

let mayLoad = true, mayStore = true, hasSideEffects = true in
def HINT : A64Op<(outs), (ins a64_imm:$imm)>;

//===-- Scalar floating point -------------------------------------------===//

foreach p = [Arr<"S", FPR32>, Arr<"D", FPR64>] in {
  defvar rc = p.r;
  foreach op = ["FADD", "FSUB", "FMUL", "FDIV", "FNMUL", "FMAX", "FMIN",
                "FMAXNM", "FMINNM"] in
    def op # p.s # rr : A64FP<(outs rc:$d), (ins rc:$n, rc:$m)>;
  foreach op = ["FMADD", "FMSUB", "FNMADD", "FNMSUB"] in
    def op # p.s # rrr : A64FP<(outs rc:$d), (ins rc:$n, rc:$m, rc:$a)>;
  foreach op = ["FSQRT", "FRINTM", "FRINTP", "FRINTZ", "FRINTA", "FRINTN",
                "FRINTX", "FRINTI"] in
    def op # p.s # r : A64FP<(outs rc:$d), (ins rc:$n)>;
  foreach op = ["FABS", "FNEG"] in
    def op # p.s # r : A64Op<(outs rc:$d), (ins rc:$n)>;
  def FMOV # p.s # r : A64Op<(outs rc:$d), (ins rc:$n)>;
  // Compares set NZCV.
  let Defs = [NZCV] in
  foreach op = ["FCMP", "FCMPE"] in {
    def op # p.s # rr : A64FP<(outs), (ins rc:$n, rc:$m)>;
    def op # p.s # ri : A64FP<(outs), (ins rc:$n)>;
  }
  let Defs = [NZCV], Uses = [NZCV], mayRaiseFPException = true in
  foreach op = ["FCCMP", "FCCMPE"] in
    def op # p.s # rr : A64Op<(outs),
                              (ins rc:$n, rc:$m, a64_imm:$nzcv, a64_enc:$cc)>;
  let Uses = [NZCV] in
  def FCSEL # p.s # rrr : A64Op<(outs rc:$d), (ins rc:$n, rc:$m, a64_enc:$cc)>;
  let isReMaterializable = true, isAsCheapAsAMove = true in {
    def FMOV # p.s # i : A64Op<(outs rc:$d), (ins a64_enc:$imm)>;
    def FMOV # p.s # 0 : A64Pseudo<(outs rc:$d), (ins)>;
  }
}
def FCVTDSr : A64FP<(outs FPR64:$d), (ins FPR32:$n)>;
def FCVTSDr : A64FP<(outs FPR32:$d), (ins FPR64:$n)>;

// Conversions between FP and integer registers, all width combinations.
foreach f = [Arr<"S", FPR32>, Arr<"D", FPR64>] in
  foreach g = [Arr<"W", GPR32>, Arr<"X", GPR64>] in {
    foreach rnd = ["ZS", "ZU", "MS", "MU", "PS", "PU", "AS", "AU", "NS",
                   "NU"] in
      def FCVT # rnd # U # g.s # f.s # r : A64FP<(outs g.r:$d), (ins f.r:$n)>;
    foreach cv = ["SCVTF", "UCVTF"] in {
      def cv # U # g.s # f.s # ri : A64FP<(outs f.r:$d), (ins g.r:$n)>;
      def cv # S # g.s # f.s # ri : A64FP<(outs f.r:$d),
                                          (ins g.r:$n, a64_enc:$fbits)>;
    }
  }
// Bit moves between the register files.
// Half-precision register move (the copy of FPR16 with full FP16).
def FMOVHr : A64Op<(outs FPR16:$d), (ins FPR16:$n)>;
def FMOVWSr : A64Op<(outs FPR32:$d), (ins GPR32:$n)>;
def FMOVSWr : A64Op<(outs GPR32:$d), (ins FPR32:$n)>;
def FMOVXDr : A64Op<(outs FPR64:$d), (ins GPR64:$n)>;
def FMOVDXr : A64Op<(outs GPR64:$d), (ins FPR64:$n)>;

//===-- Advanced SIMD ---------------------------------------------------===//

// Vector arrangements: name suffix and register class.
defvar Vec64 = [Arr<"v8i8", FPR64>, Arr<"v4i16", FPR64>, Arr<"v2i32", FPR64>];
defvar Vec128 = [Arr<"v16i8", FPR128>, Arr<"v8i16", FPR128>,
                 Arr<"v4i32", FPR128>];
defvar VecBW = !listconcat(Vec64, Vec128);
defvar VecAll = !listconcat(VecBW, [Arr<"v2i64", FPR128>]);

class VBin<RegisterClass d, RegisterClass n, RegisterClass m>
    : A64Op<(outs d:$d), (ins n:$n, m:$m)>;
class VUn<RegisterClass d, RegisterClass n> : A64Op<(outs d:$d), (ins n:$n)>;

// Lane-wise operations on all arrangements.
foreach a = VecAll in {
  foreach op = ["ADD", "SUB", "CMGT", "CMHI", "CMHS", "CMGE", "CMEQ", "CMTST",
                "USHL", "SSHL", "UQSUB", "UQADD", "SQSUB", "SQADD", "UZP1",
                "UZP2",
                "ZIP1", "ZIP2", "TRN1", "TRN2", "ADDP"] in
    def op # a.s : VBin<a.r, a.r, a.r>;
  foreach op = ["NEG", "ABS"] in
    def op # a.s : VUn<a.r, a.r>;
  def CMEQ # a.s # rz : VUn<a.r, a.r>;
}
// Without 64-bit lanes.
foreach a = VecBW in {
  foreach op = ["MUL", "UMAX", "UMIN", "SMAX", "SMIN"] in
    def op # a.s : VBin<a.r, a.r, a.r>;
  let Constraints = "$d = $acc" in
  foreach op = ["MLA", "MLS"] in
    def op # a.s : A64Op<(outs a.r:$d), (ins a.r:$acc, a.r:$n, a.r:$m)>;
}
// Bitwise operations on whole registers.
foreach a = [Arr<"v8i8", FPR64>, Arr<"v16i8", FPR128>] in {
  foreach op = ["AND", "ORR", "EOR", "BIC", "ORN"] in
    def op # a.s : VBin<a.r, a.r, a.r>;
  def NOT # a.s : VUn<a.r, a.r>;
  def CNT # a.s : VUn<a.r, a.r>;
  let Constraints = "$d = $src" in
  foreach op = ["BSL", "BIT", "BIF"] in
    def op # a.s : A64Op<(outs a.r:$d), (ins a.r:$src, a.r:$n, a.r:$m)>;
  def EXT # a.s : A64Op<(outs a.r:$d), (ins a.r:$n, a.r:$m, a64_imm:$idx)>;
}
def REV64v4i32 : VUn<FPR128, FPR128>;
def TBLv16i8One : VBin<FPR128, FPR128, FPR128>;
def TBLv8i8One : VBin<FPR64, FPR128, FPR64>;
def SCVTFv1i64 : A64FP<(outs FPR64:$d), (ins FPR64:$n)>;

// Immediate bit clear / or on 16/32-bit lanes (tied).
let Constraints = "$d = $src" in
foreach op = ["BIC", "ORR"] in
  foreach a = [Arr<"v4i16", FPR64>, Arr<"v8i16", FPR128>, Arr<"v2i32", FPR64>,
               Arr<"v4i32", FPR128>] in
    def op # a.s : A64Op<(outs a.r:$d),
                         (ins a.r:$src, a64_imm:$imm, a64_enc:$shift)>;

// Move-immediate forms (rematerializable).
let isReMaterializable = true, isAsCheapAsAMove = true in {
  foreach a = [Arr<"v4i16", FPR64>, Arr<"v8i16", FPR128>, Arr<"v2i32", FPR64>,
               Arr<"v4i32", FPR128>,
               Arr<"v2s_msl", FPR64>, Arr<"v4s_msl", FPR128>] in {
    def MOVI # a.s : A64Op<(outs a.r:$d), (ins a64_imm:$imm, a64_enc:$shift)>;
    def MVNI # a.s : A64Op<(outs a.r:$d), (ins a64_imm:$imm, a64_enc:$shift)>;
  }
  def MOVIv8b_ns : A64Op<(outs FPR64:$d), (ins a64_imm:$imm)>;
  def MOVIv16b_ns : A64Op<(outs FPR128:$d), (ins a64_imm:$imm)>;
  def MOVIv2d_ns : A64Op<(outs FPR128:$d), (ins a64_enc:$imm)>;
  def MOVID : A64Op<(outs FPR64:$d), (ins a64_enc:$imm)>;
}

// Across-lanes reductions.
foreach r = [Arr<"ADDVv8i8v", FPR8, FPR64>, Arr<"ADDVv16i8v", FPR8, FPR128>,
             Arr<"ADDVv4i16v", FPR16, FPR64>, Arr<"ADDVv8i16v", FPR16, FPR128>,
             Arr<"ADDVv4i32v", FPR32, FPR128>,
             Arr<"UADDLVv8i8v", FPR16, FPR64>,
             Arr<"UADDLVv16i8v", FPR16, FPR128>,
             Arr<"UADDLVv4i16v", FPR32, FPR64>,
             Arr<"UADDLVv8i16v", FPR32, FPR128>,
             Arr<"UADDLVv4i32v", FPR64, FPR128>] in
  def r.s : VUn<r.r, r.r2>;
foreach op = ["UMAXV", "UMINV", "SMAXV", "SMINV"] in {
  def op # v8i8v : VUn<FPR8, FPR64>;
  def op # v16i8v : VUn<FPR8, FPR128>;
  def op # v4i16v : VUn<FPR16, FPR64>;
  def op # v8i16v : VUn<FPR16, FPR128>;
  def op # v4i32v : VUn<FPR32, FPR128>;
}
def ADDPv2i64p : VUn<FPR64, FPR128>;

// Narrowing (low half writes a D register; high half inserts, tied).
foreach op = ["XTN", "SQXTN", "UQXTN"] in {
  foreach a = ["v8i8", "v4i16", "v2i32"] in
    def op # a : VUn<FPR64, FPR128>;
  let Constraints = "$d = $lo" in
  foreach a = ["v16i8", "v8i16", "v4i32"] in
    def op # a : A64Op<(outs FPR128:$d), (ins FPR128:$lo, FPR128:$n)>;
}

// Widening: long multiply, wide add, shift-left-long.
foreach op = ["UMULL", "SMULL"] in {
  def op # v8i8_v8i16 : VBin<FPR128, FPR64, FPR64>;
  def op # v4i16_v4i32 : VBin<FPR128, FPR64, FPR64>;
  def op # v2i32_v2i64 : VBin<FPR128, FPR64, FPR64>;
  def op # v16i8_v8i16 : VBin<FPR128, FPR128, FPR128>;
  def op # v8i16_v4i32 : VBin<FPR128, FPR128, FPR128>;
  def op # v4i32_v2i64 : VBin<FPR128, FPR128, FPR128>;
}
foreach op = ["SADDW", "UADDW"] in {
  def op # v8i8_v8i16 : VBin<FPR128, FPR128, FPR64>;
  def op # v4i16_v4i32 : VBin<FPR128, FPR128, FPR64>;
  def op # v2i32_v2i64 : VBin<FPR128, FPR128, FPR64>;
  def op # v16i8_v8i16 : VBin<FPR128, FPR128, FPR128>;
  def op # v8i16_v4i32 : VBin<FPR128, FPR128, FPR128>;
  def op # v4i32_v2i64 : VBin<FPR128, FPR128, FPR128>;
}
foreach op = ["SSHLL", "USHLL"] in {
  foreach a = ["v8i8", "v4i16", "v2i32"] in
    def op # a # _shift : A64Op<(outs FPR128:$d), (ins FPR64:$n, a64_enc:$sh)>;
  foreach a = ["v16i8", "v8i16", "v4i32"] in
    def op # a # _shift : A64Op<(outs FPR128:$d), (ins FPR128:$n, a64_enc:$sh)>;
}
// Shifts by immediate; the accumulating form is tied.
foreach a = VecAll in {
  foreach op = ["SHL", "SSHR", "USHR"] in
    def op # a.s # _shift : A64Op<(outs a.r:$d), (ins a.r:$n, a64_enc:$sh)>;
  let Constraints = "$d = $acc" in
  foreach op = ["USRA", "SSRA"] in
    def op # a.s # _shift : A64Op<(outs a.r:$d),
                                  (ins a.r:$acc, a.r:$n, a64_enc:$sh)>;
}

// Between vector lanes and general registers.
foreach a = [Arr<"v8i8", FPR64, GPR32>, Arr<"v16i8", FPR128, GPR32>,
             Arr<"v4i16", FPR64, GPR32>,
             Arr<"v8i16", FPR128, GPR32>, Arr<"v2i32", FPR64, GPR32>,
             Arr<"v4i32", FPR128, GPR32>,
             Arr<"v2i64", FPR128, GPR64>] in
  def DUP # a.s # gpr : VUn<a.r, a.r2>;
let Constraints = "$d = $src" in {
  foreach e = [Arr<"8", GPR32>, Arr<"16", GPR32>, Arr<"32", GPR32>,
               Arr<"64", GPR64>] in {
    def INSvi # e.s # gpr : A64Op<(outs FPR128:$d),
                                  (ins FPR128:$src, a64_enc:$idx, e.r:$n)>;
    def INSvi # e.s # lane : A64Op<(outs FPR128:$d),
                                   (ins FPR128:$src, a64_enc:$idx, FPR128:$n,
                                    a64_enc:$nidx)>;
  }
}
foreach e = [Arr<"8", GPR32>, Arr<"16", GPR32>, Arr<"32", GPR32>,
             Arr<"64", GPR64>] in
  def UMOVvi # e.s : A64Op<(outs e.r:$d), (ins FPR128:$n, a64_enc:$idx)>;
foreach e = ["8", "16", "32", "64"] in
  def UMOVvi # e # _idx0 : A64Op<(outs !if(!eq(e, "64"), GPR64, GPR32):$d),
                                 (ins FPR128:$n, a64_enc:$idx)>;
foreach s = ["8to32", "8to64", "16to32", "16to64", "32to64"] in
  def SMOVvi # s : A64Op<(outs !if(!eq(!substr(s, !sub(!size(s), 2)), "64"),
                                   GPR64, GPR32):$d),
                         (ins FPR128:$n, a64_enc:$idx)>;
