// AArch64 register file, following the model LLVM 19 builds into its AArch64
// backend: general registers (W/X views, SP/WSP, the zero registers, FP/LR),
// flags and FP control, the scalar/vector views of V0-V31 (B/H/S/D/Q) and
// their SVE extension Z0-Z31, SVE predicates (P0-P15 over the
// predicate-as-counter views PN0-PN15), the SME ZA array and its tiles, ZT0,
// and the consecutive-register tuples used by structured loads/stores,
// CASP, LD64B/ST64B and SME2 multi-vector operands.

//===----------------------------------------------------------------------===//
// Sub-register indices
//===----------------------------------------------------------------------===//

let Namespace = "AArch64" in {
  // Low word of an X register.
  def sub_32 : SubRegIndex<32>;

  // Nested scalar views of a vector register, narrowest first.
  def bsub : SubRegIndex<8>;
  def hsub : SubRegIndex<16>;
  def ssub : SubRegIndex<32>;
  def dsub : SubRegIndex<64>;
  // The 128-bit Neon part of an SVE register.
  def zsub : SubRegIndex<128>;

  // Even/odd halves of the CASP register pairs.
  def sube32 : SubRegIndex<32>;
  def subo32 : SubRegIndex<32>;
  def sube64 : SubRegIndex<64>;
  def subo64 : SubRegIndex<64>;

  // Members of D/Q/Z tuples.  The D and Q members sit at offset 0 as LLVM
  // declares them; the Z members have no fixed offset (scalable).
  foreach n = 0...3 in {
    def dsub # n : SubRegIndex<64>;
    def qsub # n : SubRegIndex<128>;
    def zsub # n : SubRegIndex<128, -1>;
  }

  // Predicate-as-counter view of a predicate register, and predicate pairs.
  def psub : SubRegIndex<16>;
  def psub0 : SubRegIndex<16, -1>;
  def psub1 : SubRegIndex<16, -1>;

  // The eight X registers of an LD64B/ST64B tuple, laid out contiguously.
  foreach n = 0...7 in
    def x8sub_ # n : SubRegIndex<64, !mul(64, n)>;

  // SME ZA: each tile of element size 2^k splits into two tiles of the next
  // element size (sizes are for a 16x16-byte ZA).
  def zasubb : SubRegIndex<2048>;
  foreach half = 0...1 in {
    def zasubh # half : SubRegIndex<1024>;
    def zasubs # half : SubRegIndex<512>;
    def zasubd # half : SubRegIndex<256>;
    def zasubq # half : SubRegIndex<128>;
  }

  // Alternative spellings of D/Q registers (v0 ... and the bare list form).
  def vreg : RegAltNameIndex;
  def vlist1 : RegAltNameIndex;
}

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

class A64Reg<int enc, string asm, list<Register> parts = [],
             list<SubRegIndex> idx = [], list<string> alt = []>
    : Register<asm, alt> {
  let Namespace = "AArch64";
  let HWEncoding = enc;
  let SubRegs = parts;
  let SubRegIndices = idx;
}

// ---- General-purpose registers ----------------------------------------------

foreach n = 0...30 in
  def W # n : A64Reg<n, "w" # n>, DwarfRegNum<[n]>;
def WSP : A64Reg<31, "wsp">, DwarfRegNum<[31]>;
let isConstant = true in
def WZR : A64Reg<31, "wzr">, DwarfRegAlias<WSP>;

// 64-bit views.  x29 and x30 are spelled FP and LR in the enumeration.
class A64XReg<int enc, string asm, Register lo>
    : A64Reg<enc, asm, [lo], [sub_32]>, DwarfRegAlias<lo>;

foreach n = 0...28 in
  def X # n : A64XReg<n, "x" # n, !cast<Register>("W" # n)>;
def FP : A64XReg<29, "x29", W29>;
def LR : A64XReg<30, "x30", W30>;
def SP : A64XReg<31, "sp", WSP>;
let isConstant = true in
def XZR : A64XReg<31, "xzr", WZR>;

// ---- Status, control and special registers ----------------------------------

def NZCV : A64Reg<0, "nzcv">;
def FPCR : A64Reg<0, "fpcr">;
def FPSR : A64Reg<0, "fpsr">;
// SVE first-fault register and the (virtual) vector-granule register.
def FFR : A64Reg<0, "ffr">, DwarfRegNum<[47]>;
def VG : A64Reg<0, "vg">, DwarfRegNum<[46]>;

// ---- Vector registers: B < H < S < D < Q < Z -------------------------------

foreach n = 0...31 in {
  defvar b = !cast<Register>("B" # n);
  def B # n : A64Reg<n, "b" # n>, DwarfRegNum<[!add(64, n)]>;
  def H # n : A64Reg<n, "h" # n, [b], [bsub]>, DwarfRegAlias<b>;
  def S # n : A64Reg<n, "s" # n, [!cast<Register>("H" # n)], [hsub]>,
              DwarfRegAlias<b>;
  let RegAltNameIndices = [vreg, vlist1] in {
    def D # n : A64Reg<n, "d" # n, [!cast<Register>("S" # n)], [ssub],
                       ["v" # n, ""]>, DwarfRegAlias<b>;
    def Q # n : A64Reg<n, "q" # n, [!cast<Register>("D" # n)], [dsub],
                       ["v" # n, ""]>, DwarfRegAlias<b>;
  }
  def Z # n : A64Reg<n, "z" # n, [!cast<Register>("Q" # n)], [zsub]>,
              DwarfRegNum<[!add(96, n)]>;
}

// ---- SVE predicates ----------------------------------------------------------

foreach n = 0...15 in {
  def PN # n : A64Reg<n, "pn" # n>, DwarfRegNum<[!add(48, n)]>;
  def P # n : A64Reg<n, "p" # n, [!cast<Register>("PN" # n)], [psub]>,
              DwarfRegNum<[!add(48, n)]>;
}

// ---- SME: the ZA array and its tiles ------------------------------------------

// Tiles of one element size: tile i of this size is made of tiles i and
// i+count of the next smaller size (count = number of tiles of this size).
multiclass ZATileLevel<string tsfx, int count, string narrower,
                       SubRegIndex first, SubRegIndex second> {
  foreach i = !range(count) in
    def NAME # i : A64Reg<i, "za" # i # "." # tsfx,
                          [!cast<Register>(narrower # i),
                           !cast<Register>(narrower # !add(i, count))],
                          [first, second]>;
}

foreach i = 0...15 in
  def ZAQ # i : A64Reg<i, "za" # i # ".q">;
defm ZAD : ZATileLevel<"d", 8, "ZAQ", zasubq0, zasubq1>;
defm ZAS : ZATileLevel<"s", 4, "ZAD", zasubd0, zasubd1>;
defm ZAH : ZATileLevel<"h", 2, "ZAS", zasubs0, zasubs1>;
defm ZAB : ZATileLevel<"b", 1, "ZAH", zasubh0, zasubh1>;
def ZA : A64Reg<0, "za", [ZAB0], [zasubb]>;

// SME2 lookup-table register.
def ZT0 : A64Reg<0, "zt0">;

//===----------------------------------------------------------------------===//
// Register classes
//===----------------------------------------------------------------------===//

// Integer classes rotate their alternative order by eight so that x8 and up
// are tried before the argument registers.
class A64Class<list<ValueType> types, int align, dag regs>
    : RegisterClass<"AArch64", types, align, regs>;

class A64RotClass<list<ValueType> types, int align, dag regs>
    : A64Class<types, align, regs> {
  let AltOrders = [(rotl regs, 8)];
  let AltOrderSelect = [{ return 1; }];
}

// ---- 32-bit GPRs ---------------------------------------------------------------

def GPR32common : A64RotClass<[i32], 32, (sequence "W%u", 0, 30)>;
def GPR32 : A64RotClass<[i32], 32, (add GPR32common, WZR)>;
def GPR32sp : A64RotClass<[i32], 32, (add GPR32common, WSP)>;
def GPR32all : A64Class<[i32], 32, (add GPR32common, WZR, WSP)>;
def GPR32sponly : A64Class<[i32], 32, (add WSP)>;
def GPR32arg : A64Class<[i32], 32, (sequence "W%u", 0, 7)>;
// SME slice-index registers.
def MatrixIndexGPR32_8_11 : A64Class<[i32], 32, (sequence "W%u", 8, 11)>;
def MatrixIndexGPR32_12_15 : A64Class<[i32], 32, (sequence "W%u", 12, 15)>;

// ---- 64-bit GPRs ---------------------------------------------------------------

def GPR64common : A64RotClass<[i64], 64, (add (sequence "X%u", 0, 28), FP, LR)>;
def GPR64 : A64RotClass<[i64], 64, (add GPR64common, XZR)>;
def GPR64sp : A64RotClass<[i64], 64, (add GPR64common, SP)>;
def GPR64all : A64Class<[i64], 64, (add GPR64common, XZR, SP)>;
def GPR64sponly : A64Class<[i64], 64, (add SP)>;
def GPR64arg : A64Class<[i64], 64, (sequence "X%u", 0, 7)>;
// Without the intra-procedure-call scratch registers and LR.
def GPR64noip : A64RotClass<[i64], 64, (sub GPR64, X16, X17, LR)>;
// Indirect tail-call targets: caller-saved registers only.
def tcGPR64 : A64Class<[i64], 64,
                       (sub GPR64common, (sequence "X%u", 19, 28), FP, LR)>;
def tcGPRnotx16 : A64Class<[i64], 64, (sub tcGPR64, X16)>;
def tcGPRx16x17 : A64Class<[i64], 64, (add X16, X17)>;
def tcGPRx17 : A64Class<[i64], 64, (add X17)>;
// Registers that are always live or reserved.
def FIXED_REGS : A64Class<[i64], 64, (add FP, SP, VG, FFR)>;

// Flags: neither copied nor allocated.
def CCR : A64Class<[i32], 32, (add NZCV)> {
  let CopyCost = -1;
  let isAllocatable = false;
}

// ---- Scalar FP / Neon ------------------------------------------------------------

defvar vec64_types = [v8i8, v4i16, v2i32, v1i64, v4f16, v4bf16, v2f32, v1f64];
defvar vec128_types = [v16i8, v8i16, v4i32, v2i64, v4f32, v2f64, v8f16, v8bf16];

def FPR8 : A64Class<[i8], 8, (sequence "B%u", 0, 31)> { let Size = 8; }
def FPR16 : A64Class<[f16, bf16, i16], 16,
                     (sequence "H%u", 0, 31)> { let Size = 16; }
def FPR16_lo : A64Class<[f16], 16, (trunc FPR16, 16)> { let Size = 16; }
def FPR32 : A64Class<[f32, i32], 32, (sequence "S%u", 0, 31)>;
def FPR64 : A64Class<[f64, i64, v2f32, v1f64, v8i8, v4i16, v2i32, v1i64, v4f16,
                      v4bf16],
                     64, (sequence "D%u", 0, 31)>;
def FPR64_lo : A64Class<vec64_types, 64, (trunc FPR64, 16)>;
def FPR128 : A64Class<[v16i8, v8i16, v4i32, v2i64, v4f32, v2f64, f128, v8f16,
                       v8bf16],
                      128, (sequence "Q%u", 0, 31)>;
def FPR128_lo : A64Class<vec128_types, 128, (trunc FPR128, 16)>;
def FPR128_0to7 : A64Class<vec128_types, 128, (trunc FPR128, 8)>;

// ---- SVE ---------------------------------------------------------------------------

defvar pred_types = [nxv16i1, nxv8i1, nxv4i1, nxv2i1, nxv1i1];

class PredClass<list<ValueType> types, dag regs> : A64Class<types, 16, regs> {
  let Size = 16;
}
def PPR : PredClass<pred_types, (sequence "P%u", 0, 15)>;
def PPR_3b : PredClass<pred_types, (sequence "P%u", 0, 7)>;
def PPR_p8to15 : PredClass<pred_types, (sequence "P%u", 8, 15)>;
def PNR : PredClass<[aarch64svcount], (sequence "PN%u", 0, 15)>;
def PNR_3b : PredClass<[aarch64svcount], (sequence "PN%u", 0, 7)>;
def PNR_p8to15 : PredClass<[aarch64svcount], (sequence "PN%u", 8, 15)>;
def PPRorPNR : PredClass<!listconcat(pred_types, [aarch64svcount]),
                         (add PPR, PNR)>;

class DataVecClass<int last> : A64Class<[nxv16i8, nxv8i16, nxv4i32, nxv2i64,
                                         nxv2f16, nxv4f16, nxv8f16,
                                         nxv2bf16, nxv4bf16, nxv8bf16,
                                         nxv2f32, nxv4f32, nxv2f64],
                                        128, (sequence "Z%u", 0, last)> {
  let Size = 128;
}
def ZPR : DataVecClass<31>;
def ZPR_4b : DataVecClass<15>;
def ZPR_3b : DataVecClass<7>;

//===----------------------------------------------------------------------===//
// Tuples of consecutive registers and their classes
//===----------------------------------------------------------------------===//

// Tuple sets are expanded in the order of their def names, so these keep
// LLVM's names (DSeq..., QSeq..., ZStrided...).

// A class over untyped tuples with an explicit spill size.
class TupleClass<int align, int width, dag regs> : A64Class<[untyped], align,
                                                            regs> {
  let Size = width;
}

def DSeqPairs : RegisterTuples<[dsub0, dsub1],
                               [(rotl FPR64, 0), (rotl FPR64, 1)]>;
def DSeqTriples : RegisterTuples<[dsub0, dsub1, dsub2],
                                 !foreach(k, [0, 1, 2], (rotl FPR64, k))>;
def DSeqQuads : RegisterTuples<[dsub0, dsub1, dsub2, dsub3],
                               !foreach(k, [0, 1, 2, 3], (rotl FPR64, k))>;
def QSeqPairs : RegisterTuples<[qsub0, qsub1],
                               !foreach(k, [0, 1], (rotl FPR128, k))>;
def QSeqTriples : RegisterTuples<[qsub0, qsub1, qsub2],
                                 !foreach(k, [0, 1, 2], (rotl FPR128, k))>;
def QSeqQuads : RegisterTuples<[qsub0, qsub1, qsub2, qsub3],
                               !foreach(k, [0, 1, 2, 3], (rotl FPR128, k))>;

def DD : TupleClass<64, 128, (add DSeqPairs)>;
def DDD : TupleClass<64, 192, (add DSeqTriples)>;
def DDDD : TupleClass<64, 256, (add DSeqQuads)>;
def QQ : TupleClass<128, 256, (add QSeqPairs)>;
def QQQ : TupleClass<128, 384, (add QSeqTriples)>;
def QQQQ : TupleClass<128, 512, (add QSeqQuads)>;

// CASP pairs: an even register and the next one.
def WSeqPairs : RegisterTuples<[sube32, subo32],
                               [(decimate (rotl GPR32, 0), 2),
                                (decimate (rotl GPR32, 1), 2)]>;
def XSeqPairs : RegisterTuples<[sube64, subo64],
                               [(decimate (rotl GPR64, 0), 2),
                                (decimate (rotl GPR64, 1), 2)]>;
def WSeqPairsClass : TupleClass<32, 64, (add WSeqPairs)>;
def XSeqPairsClass : TupleClass<64, 128, (add XSeqPairs)>;

// LD64B/ST64B: eight consecutive X registers starting at an even one (x0-x22).
def Tuples8X : RegisterTuples<
    !foreach(k, !range(8), !cast<SubRegIndex>("x8sub_" # k)),
    !foreach(k, !range(8), (trunc (decimate (rotl GPR64, k), 2), 12))>;
def GPR64x8Class : A64Class<[i64x8], 512,
                            (trunc Tuples8X, 12)> { let Size = 512; }

// Predicate pairs.
def PSeqPairs : RegisterTuples<[psub0, psub1], [(rotl PPR, 0), (rotl PPR, 1)]>;
def PPR2 : TupleClass<16, 32, (add PSeqPairs)>;
def PPR2Mul2 : TupleClass<16, 32, (decimate PSeqPairs, 2)>;

// SVE vector groups.
def ZSeqPairs : RegisterTuples<[zsub0, zsub1],
                               !foreach(k, [0, 1], (rotl ZPR, k))>;
def ZSeqTriples : RegisterTuples<[zsub0, zsub1, zsub2],
                                 !foreach(k, [0, 1, 2], (rotl ZPR, k))>;
def ZSeqQuads : RegisterTuples<[zsub0, zsub1, zsub2, zsub3],
                               !foreach(k, [0, 1, 2, 3], (rotl ZPR, k))>;

def ZPR2 : TupleClass<128, 256, (add ZSeqPairs)>;
def ZPR3 : TupleClass<128, 384, (add ZSeqTriples)>;
def ZPR4 : TupleClass<128, 512, (add ZSeqQuads)>;
def ZPR2Mul2 : TupleClass<128, 256, (decimate ZSeqPairs, 2)>;
def ZPR4Mul4 : TupleClass<128, 512, (decimate ZSeqQuads, 4)>;

// SME2 strided groups: {Zn, Zn+8} and {Zn, Zn+4, Zn+8, Zn+12} for n in 0-7 /
// 0-3 and the same again from z16.
def ZStridedPairsLo : RegisterTuples<[zsub0, zsub1],
    !foreach(k, [0, 8], (trunc (rotl ZPR, k), 8))>;
def ZStridedPairsHi : RegisterTuples<[zsub0, zsub1],
    !foreach(k, [16, 24], (trunc (rotl ZPR, k), 8))>;
def ZStridedQuadsLo : RegisterTuples<[zsub0, zsub1, zsub2, zsub3],
    !foreach(k, [0, 4, 8, 12], (trunc (rotl ZPR, k), 4))>;
def ZStridedQuadsHi : RegisterTuples<[zsub0, zsub1, zsub2, zsub3],
    !foreach(k, [16, 20, 24, 28], (trunc (rotl ZPR, k), 4))>;

def ZPR2Strided : TupleClass<128, 256, (add ZStridedPairsLo, ZStridedPairsHi)>;
def ZPR4Strided : TupleClass<128, 512, (add ZStridedQuadsLo, ZStridedQuadsHi)>;
def ZPR2StridedOrContiguous
    : TupleClass<128, 256,
                 (add ZStridedPairsLo, ZStridedPairsHi,
                  (decimate ZSeqPairs, 2))>;
def ZPR4StridedOrContiguous
    : TupleClass<128, 512,
                 (add ZStridedQuadsLo, ZStridedQuadsHi,
                  (decimate ZSeqQuads, 4))>;

// ---- SME ---------------------------------------------------------------------------

// ZA and its tiles are never register-allocated.
let isAllocatable = false in {
  def MPR : TupleClass<2048, 2048, (add ZA)>;
  def MPR8 : TupleClass<2048, 2048, (add ZAB0)>;
  def MPR16 : TupleClass<1024, 1024, (sequence "ZAH%u", 0, 1)>;
  def MPR32 : TupleClass<512, 512, (sequence "ZAS%u", 0, 3)>;
  def MPR64 : TupleClass<256, 256, (sequence "ZAD%u", 0, 7)>;
  def MPR128 : TupleClass<128, 128, (sequence "ZAQ%u", 0, 15)>;
}
def ZTR : TupleClass<512, 512, (add ZT0)>;

//===----------------------------------------------------------------------===//
// Callee-saved register sets (names as in MIR register masks, lower-cased)
//===----------------------------------------------------------------------===//

defvar x19_x28 = (sequence "X%u", 19, 28);
defvar d8_d15 = (sequence "D%u", 8, 15);

// AAPCS64: x19-x28, the frame record, and the low halves of v8-v15.
def CSR_AArch64_AAPCS : CalleeSavedRegs<(add x19_x28, LR, FP, d8_d15)>;
def CSR_AArch64_AAPCS_X18 : CalleeSavedRegs<(add X18, CSR_AArch64_AAPCS)>;
def CSR_AArch64_AAPCS_ThisReturn : CalleeSavedRegs<(add CSR_AArch64_AAPCS, X0)>;
def CSR_AArch64_AAPCS_SwiftError : CalleeSavedRegs<(sub CSR_AArch64_AAPCS,
                                                    X21)>;
def CSR_AArch64_AAPCS_SwiftTail : CalleeSavedRegs<(sub CSR_AArch64_AAPCS, X20,
                                                   X22)>;
// Vector PCS: whole q8-q23.
def CSR_AArch64_AAVPCS : CalleeSavedRegs<(add x19_x28, LR, FP,
                                          (sequence "Q%u", 8, 23))>;
// SVE PCS: whole z8-z23 and p4-p15.
def CSR_AArch64_SVE_AAPCS
    : CalleeSavedRegs<(add (sequence "Z%u", 8, 23), (sequence "P%u", 4, 15),
                           x19_x28, LR, FP)>;
def CSR_AArch64_NoRegs : CalleeSavedRegs<(add)>;
def CSR_AArch64_NoneRegs : CalleeSavedRegs<(add LR, FP)>;
def CSR_AArch64_AllRegs
    : CalleeSavedRegs<(add (sequence "W%u", 0, 30), WSP,
                           (sequence "X%u", 0, 28), FP, LR, SP,
                           (sequence "B%u", 0, 31), (sequence "H%u", 0, 31),
                           (sequence "S%u", 0, 31), (sequence "D%u", 0, 31),
                           (sequence "Q%u", 0, 31))>;
def CSR_AArch64_RT_MostRegs : CalleeSavedRegs<(add CSR_AArch64_AAPCS,
                                               (sequence "X%u", 9, 15))>;
def CSR_AArch64_RT_AllRegs
    : CalleeSavedRegs<(add CSR_AArch64_RT_MostRegs, (sequence "Q%u", 8, 31))>;
// TLS descriptor stub: everything but x0 and LR.
def CSR_AArch64_TLS_ELF
    : CalleeSavedRegs<(add (sequence "X%u", 1, 28), FP,
                       (sequence "Q%u", 0, 31))>;
def CSR_AArch64_StackProbe_Windows
    : CalleeSavedRegs<(add (sequence "X%u", 0, 15), (sequence "X%u", 18, 28),
                       FP, SP,
                           (sequence "Q%u", 0, 31))>;
// SME support routines and streaming-mode changes.
class SMESupportCSR<int firstx, int lastx>
    : CalleeSavedRegs<(add (sequence "Z%u", 0, 31), (sequence "P%u", 0, 15),
                           (sequence "X%u", firstx, lastx), x19_x28, LR, FP)>;
def CSR_AArch64_SME_ABI_Support_Routines_PreserveMost_From_X0 : SMESupportCSR<0,
    13>;
def CSR_AArch64_SME_ABI_Support_Routines_PreserveMost_From_X1 : SMESupportCSR<1,
    15>;
def CSR_AArch64_SME_ABI_Support_Routines_PreserveMost_From_X2 : SMESupportCSR<2,
    15>;
def CSR_AArch64_SMStartStop : CalleeSavedRegs<(add (sequence "X%u", 0, 28), LR,
                                               FP)>;

// Shadow-call-stack variants additionally preserve x18.
foreach base = ["NoRegs", "AllRegs", "AAPCS_SwiftError", "RT_MostRegs",
                "RT_AllRegs",
                "AAVPCS", "SVE_AAPCS", "AAPCS", "NoneRegs"] in
  def CSR_AArch64_ # base # _SCS
      : CalleeSavedRegs<(add !cast<CalleeSavedRegs>("CSR_AArch64_" # base),
                         X18)>;

// Windows: the frame record is saved as (FP, LR).
def CSR_Win_AArch64_AAPCS : CalleeSavedRegs<(add x19_x28, FP, LR, d8_d15)>;
def CSR_Win_AArch64_AAPCS_SwiftError : CalleeSavedRegs<(sub CSR_Win_AArch64_AAPCS,
                                                        X21)>;
def CSR_Win_AArch64_AAPCS_SwiftTail : CalleeSavedRegs<(sub CSR_Win_AArch64_AAPCS,
                                                       X20, X22)>;
def CSR_Win_AArch64_CFGuard_Check
    : CalleeSavedRegs<(add CSR_Win_AArch64_AAPCS, (sequence "X%u", 0, 8),
                           (sequence "Q%u", 0, 7))>;
def CSR_Win_AArch64_Arm64EC_Thunk
    : CalleeSavedRegs<(add (sequence "Q%u", 6, 15), x19_x28, FP, LR)>;

// Darwin: the frame record comes first.
def CSR_Darwin_AArch64_AAPCS : CalleeSavedRegs<(add LR, FP, x19_x28, d8_d15)>;
def CSR_Darwin_AArch64_AAVPCS
    : CalleeSavedRegs<(add LR, FP, x19_x28, (sequence "Q%u", 8, 23))>;
def CSR_Darwin_AArch64_AAPCS_Win64 : CalleeSavedRegs<(add CSR_Darwin_AArch64_AAPCS,
                                                      X18)>;
def CSR_Darwin_AArch64_AAPCS_ThisReturn : CalleeSavedRegs<(add CSR_Darwin_AArch64_AAPCS,
                                                           X0)>;
def CSR_Darwin_AArch64_AAPCS_SwiftError
    : CalleeSavedRegs<(sub CSR_Darwin_AArch64_AAPCS, X21)>;
def CSR_Darwin_AArch64_AAPCS_SwiftTail
    : CalleeSavedRegs<(sub CSR_Darwin_AArch64_AAPCS, X20, X22)>;
def CSR_Darwin_AArch64_TLS
    : CalleeSavedRegs<(add (sub (sequence "X%u", 1, 28), X16, X17), FP,
                           (sequence "Q%u", 0, 31))>;
def CSR_Darwin_AArch64_CXX_TLS
    : CalleeSavedRegs<(add CSR_Darwin_AArch64_AAPCS,
                           (sub (sequence "X%u", 1, 28), X9, X15, X16, X17, X18,
                            X19),
                           (sequence "D%u", 0, 31))>;
def CSR_Darwin_AArch64_CXX_TLS_PE : CalleeSavedRegs<(add LR, FP)>;
def CSR_Darwin_AArch64_CXX_TLS_ViaCopy
    : CalleeSavedRegs<(sub CSR_Darwin_AArch64_CXX_TLS, LR, FP)>;
def CSR_Darwin_AArch64_RT_MostRegs
    : CalleeSavedRegs<(add CSR_Darwin_AArch64_AAPCS, (sequence "X%u", 9, 15))>;
def CSR_Darwin_AArch64_RT_AllRegs
    : CalleeSavedRegs<(add CSR_Darwin_AArch64_RT_MostRegs,
                       (sequence "Q%u", 8, 31))>;
