// X86 register file (32- and 64-bit modes), following the model LLVM 19
// builds into its X86 backend: the integer registers with their 8/16/32-bit
// views (including the artificial high halves that let the allocator see
// partial-register writes), APX's R16-R31, segment/debug/control registers,
// flags, x87 and MMX, XMM/YMM/ZMM 0-31, AVX-512 mask registers and their
// pairs, and AMX tiles.
//
// DWARF numbers come in three flavours: x86-64, then 32-bit Darwin EH, then
// generic 32-bit (-2 = no number in that flavour).
//
// Note on names: LLVM only sorts RegisterTuples in among the ordinary
// registers when the first register record is an `X86Reg`, so the register
// class below keeps that name.

//===----------------------------------------------------------------------===//
// Sub-register indices
//===----------------------------------------------------------------------===//

let Namespace = "X86" in {
  def sub_8bit : SubRegIndex<8>;
  // AH..DH: bits 8-15.
  def sub_8bit_hi : SubRegIndex<8, 8>;
  // The artificial upper byte of SI/DI/BP/SP/R8W.. (not addressable).
  def sub_8bit_hi_phony : SubRegIndex<8, 8>;
  def sub_16bit : SubRegIndex<16>;
  // The artificial bits 16-31 of a 32-bit register.
  def sub_16bit_hi : SubRegIndex<16, 16>;
  def sub_32bit : SubRegIndex<32>;
  def sub_xmm : SubRegIndex<128>;
  def sub_ymm : SubRegIndex<256>;
  // Halves of a mask-register pair (no meaningful size/offset).
  def sub_mask_0 : SubRegIndex<-1>;
  def sub_mask_1 : SubRegIndex<-1, -1>;
}

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

class X86Reg<string asm, int enc, list<Register> parts = [],
             list<SubRegIndex> idx = []> : Register<asm> {
  let Namespace = "X86";
  let HWEncoding = enc;
  let SubRegs = parts;
  let SubRegIndices = idx;
}

// Invisible register halves: never allocated, never printed.
class X86Phantom : X86Reg<"", -1> {
  let isArtificial = true;
}

// A register fully made of two halves.
class X86Pair<string asm, int enc, Register lo, Register hi,
              SubRegIndex loidx, SubRegIndex hiidx>
    : X86Reg<asm, enc, [lo, hi], [loidx, hiidx]> {
  let CoveredBySubRegs = true;
}

// ---- The four legacy registers with addressable high bytes -----------------

// NAME is the letter: A, C, D or B.
multiclass ABCDRegs<int enc, int dwarf64, int dwarf32eh, int dwarf32> {
  defvar l = !tolower(NAME);
  def NAME # L : X86Reg<l # "l", enc>;
  def NAME # H : X86Reg<l # "h", !add(enc, 4)>;
  def H # NAME # X : X86Phantom;
  def NAME # X : X86Pair<l # "x", enc, !cast<Register>(NAME # "L"),
                         !cast<Register>(NAME # "H"), sub_8bit, sub_8bit_hi>;
  def E # NAME # X : X86Pair<"e" # l # "x", enc, !cast<Register>(NAME # "X"),
                             !cast<Register>("H" # NAME # "X"), sub_16bit,
                             sub_16bit_hi>,
                     DwarfRegNum<[-2, dwarf32eh, dwarf32]>;
  def R # NAME # X : X86Reg<"r" # l # "x", enc,
                            [!cast<Register>("E" # NAME # "X")], [sub_32bit]>,
                     DwarfRegNum<[dwarf64, -2, -2]>;
}

defm A : ABCDRegs<0, 0, 0, 0>;
defm C : ABCDRegs<1, 2, 1, 1>;
defm D : ABCDRegs<2, 1, 2, 2>;
defm B : ABCDRegs<3, 3, 3, 3>;

// ---- SI, DI, BP, SP: low byte needs REX, high byte is a phantom -------------

// NAME is the 16-bit name.
multiclass PtrRegs<int enc, int dwarf64, int dwarf32eh, int dwarf32> {
  defvar l = !tolower(NAME);
  def NAME # L : X86Reg<l # "l", enc>;
  def NAME # H : X86Phantom;
  def H # NAME : X86Phantom;
  def NAME : X86Pair<l, enc, !cast<Register>(NAME # "L"),
                     !cast<Register>(NAME # "H"),
                     sub_8bit, sub_8bit_hi_phony>;
  def E # NAME : X86Pair<"e" # l, enc, !cast<Register>(NAME),
                         !cast<Register>("H" # NAME),
                         sub_16bit, sub_16bit_hi>,
                 DwarfRegNum<[-2, dwarf32eh, dwarf32]>;
  def R # NAME : X86Reg<"r" # l, enc, [!cast<Register>("E" # NAME)],
                        [sub_32bit]>,
                 DwarfRegNum<[dwarf64, -2, -2]>;
}

defm SI : PtrRegs<6, 4, 6, 6>;
defm DI : PtrRegs<7, 5, 7, 7>;
defm BP : PtrRegs<5, 6, 4, 5>;
defm SP : PtrRegs<4, 7, 5, 4>;

// ---- Instruction pointer -------------------------------------------------------

def IP : X86Reg<"ip", 0>;
def HIP : X86Phantom;
def EIP : X86Pair<"eip", 0, IP, HIP, sub_16bit, sub_16bit_hi>,
          DwarfRegNum<[-2, 8, 8]>;
def RIP : X86Reg<"rip", 0, [EIP], [sub_32bit]>, DwarfRegNum<[16, -2, -2]>;

// ---- R8-R15 (REX) and R16-R31 (APX: REX2/EVEX, placed after everything else) ----

foreach n = 8...31 in {
  defvar r = "R" # n;
  let PositionOrder = !if(!ge(n, 16), 4, 0) in {
    def r # B : X86Reg<"r" # n # "b", n>;
    def r # BH : X86Phantom;
    def r # WH : X86Phantom;
    def r # W : X86Pair<"r" # n # "w", n, !cast<Register>(r # "B"),
                        !cast<Register>(r # "BH"),
                        sub_8bit, sub_8bit_hi_phony>;
    def r # D : X86Pair<"r" # n # "d", n, !cast<Register>(r # "W"),
                        !cast<Register>(r # "WH"),
                        sub_16bit, sub_16bit_hi>;
    def r : X86Reg<"r" # n, n, [!cast<Register>(r # "D")], [sub_32bit]>,
            DwarfRegNum<[!if(!ge(n, 16), !add(n, 114), n), -2, -2]>;
  }
}

// ---- MMX, x87 -------------------------------------------------------------------

foreach n = 0...7 in {
  // MMX registers (architecturally the x87 stack slots).
  def MM # n : X86Reg<"mm" # n, n>,
               DwarfRegNum<[!add(41, n), !add(29, n), !add(29, n)]>;
  // Pseudo x87 registers the allocator works with before stackification.
  def FP # n : X86Reg<"fp" # n, 0>;
  // The x87 stack itself.
  def ST # n : X86Reg<!if(!eq(n, 0), "st", "st(" # n # ")"), n>,
               DwarfRegNum<[!add(33, n), !add(12, n), !add(11, n)]>;
}

// ---- SSE / AVX / AVX-512 ----------------------------------------------------------

foreach n = 0...31 in {
  defvar xmm = "XMM" # n;
  // XMM16-31, YMM16-31, ZMM* and the mask registers come after the AVX group.
  defvar evex = !ge(n, 16);
  let PositionOrder = !if(evex, 2, 0) in
  def xmm : X86Reg<"xmm" # n, n>,
            DwarfRegNum<!cond(!lt(n, 8) : [!add(17, n), !add(21, n),
                                           !add(21, n)],
                              !lt(n, 16) : [!add(17, n), -2, -2],
                              true : [!add(51, n), -2, -2])>;
  let PositionOrder = !if(evex, 2, 1) in
  def YMM # n : X86Reg<"ymm" # n, n, [!cast<Register>(xmm)], [sub_xmm]>,
                DwarfRegAlias<!cast<Register>(xmm)>;
  let PositionOrder = 2 in
  def ZMM # n : X86Reg<"zmm" # n, n, [!cast<Register>("YMM" # n)], [sub_ymm]>,
                DwarfRegAlias<!cast<Register>(xmm)>;
}

let PositionOrder = 2 in {
  foreach n = 0...7 in
    def K # n : X86Reg<"k" # n, n>,
                DwarfRegNum<[!add(118, n), !add(93, n), !add(93, n)]>;
  // Even/odd mask-register pairs (VP2INTERSECT).
  def KPAIRS : RegisterTuples<[sub_mask_0, sub_mask_1],
                              [(decimate (sequence "K%u", 0, 7), 2),
                               (decimate (sequence "K%u", 1, 7), 2)]>;
}

// ---- AMX ---------------------------------------------------------------------------

let PositionOrder = 3 in {
  def TMMCFG : X86Reg<"tmmcfg", 0>;
  foreach n = 0...7 in
    def TMM # n : X86Reg<"tmm" # n, n>;
}

// ---- Status, control, system ----------------------------------------------------------

def FPSW : X86Reg<"fpsr", 0>;
def FPCW : X86Reg<"fpcr", 0>;
def MXCSR : X86Reg<"mxcsr", 0>;
// Arithmetic flags; the direction flag is kept apart so that its users do
// not depend on every flag-setting instruction.
def EFLAGS : X86Reg<"flags", 0>, DwarfRegNum<[49, 9, 9]>;
def _EFLAGS : X86Reg<"eflags", 0>, DwarfRegAlias<EFLAGS>;
def RFLAGS : X86Reg<"rflags", 0>, DwarfRegNum<[49, -2, -2]>;
def DF : X86Reg<"dirflag", 0>;

class SegReg<string asm, int enc, int dwarf64, int dwarf32>
    : X86Reg<asm, enc>, DwarfRegNum<[dwarf64, -2, dwarf32]>;
def ES : SegReg<"es", 0, 50, 40>;
def CS : SegReg<"cs", 1, 51, 41>;
def SS : SegReg<"ss", 2, 52, 42>;
def DS : SegReg<"ds", 3, 53, 43>;
def FS : SegReg<"fs", 4, 54, 44>;
def GS : SegReg<"gs", 5, 55, 45>;
def FS_BASE : X86Reg<"fs.base", 0>, DwarfRegNum<[58, -2, -2]>;
def GS_BASE : X86Reg<"gs.base", 0>, DwarfRegNum<[59, -2, -2]>;

foreach n = 0...15 in {
  def DR # n : X86Reg<"dr" # n, n>;
  def CR # n : X86Reg<"cr" # n, n>;
}

// "No index" placeholders for SIB encodings, and the CET shadow-stack pointer.
def EIZ : X86Reg<"eiz", 4>;
def RIZ : X86Reg<"riz", 4>;
def SSP : X86Reg<"ssp", 0>;

//===----------------------------------------------------------------------===//
// Register classes
//===----------------------------------------------------------------------===//

// Allocation orders list caller-saved registers before callee-saved ones,
// and R12/R13 (and their APX cousins with the same low encoding bits, which
// need an extra SIB byte) last among R8-R31.
class ExtendedGPRs<string fmt> {
  dag set = (add (sequence fmt, 8, 11), (sequence fmt, 16, 31),
                 (sequence fmt, 14, 15), (sequence fmt, 12, 13));
}

class X86Class<list<ValueType> types, int align, dag regs>
    : RegisterClass<"X86", types, align, regs>;

// ---- 8-bit -----------------------------------------------------------------------------

// In 64-bit mode AH-DH cannot be used with a REX prefix, so the second order
// leaves them out.  LLVM selects it with `is64Bit()`; this description
// models x86-64, so the selector always answers 1.
class GR8Class<dag regs> : X86Class<[i8], 8, regs> {
  let AltOrders = [(sub regs, AH, BH, CH, DH)];
  let AltOrderSelect = [{ return 1; }];
}

def GR8 : GR8Class<(add AL, CL, DL, AH, CH, DH, BL, BH, SIL, DIL, BPL, SPL,
                        ExtendedGPRs<"R%uB">.set)>;
def GR8_NOREX : GR8Class<(add AL, CL, DL, AH, CH, DH, BL, BH)>;
let GeneratePressureSet = false in
def GR8_NOREX2 : GR8Class<(sub GR8, (sequence "R%uB", 16, 31))>;
def GR8_ABCD_L : X86Class<[i8], 8, (add AL, CL, DL, BL)>;
def GR8_ABCD_H : X86Class<[i8], 8, (add AH, CH, DH, BH)>;
let isAllocatable = false in
def GRH8 : X86Class<[i8], 8,
                    (add SIH, DIH, BPH, SPH, (sequence "R%uBH", 8, 31))>;

// ---- 16-bit --------------------------------------------------------------------------

def GR16 : X86Class<[i16], 16, (add AX, CX, DX, SI, DI, BX, BP, SP,
                                    ExtendedGPRs<"R%uW">.set)>;
def GR16_NOREX : X86Class<[i16], 16, (add AX, CX, DX, SI, DI, BX, BP, SP)>;
let GeneratePressureSet = false in
def GR16_NOREX2 : X86Class<[i16], 16, (sub GR16, (sequence "R%uW", 16, 31))>;
def GR16_ABCD : X86Class<[i16], 16, (add AX, CX, DX, BX)>;
let isAllocatable = false in
def GRH16 : X86Class<[i16], 16,
                     (add HAX, HCX, HDX, HSI, HDI, HBX, HBP, HSP, HIP,
                                     (sequence "R%uWH", 8, 31))>;
def SEGMENT_REG : X86Class<[i16], 16, (add CS, DS, SS, ES, FS, GS)>;

// ---- 32-bit --------------------------------------------------------------------------

def GR32 : X86Class<[i32], 32, (add EAX, ECX, EDX, ESI, EDI, EBX, EBP, ESP,
                                    ExtendedGPRs<"R%uD">.set)>;
def GR32_NOSP : X86Class<[i32], 32, (sub GR32, ESP)>;
def GR32_NOREX : X86Class<[i32], 32,
                          (add EAX, ECX, EDX, ESI, EDI, EBX, EBP, ESP)>;
def GR32_NOREX_NOSP : X86Class<[i32], 32, (and GR32_NOREX, GR32_NOSP)>;
let GeneratePressureSet = false in {
  def GR32_NOREX2 : X86Class<[i32], 32, (sub GR32, (sequence "R%uD", 16, 31))>;
  def GR32_NOREX2_NOSP : X86Class<[i32], 32, (sub GR32_NOREX2, ESP)>;
  // Scratch registers of the 32-bit Linux convention.
  def GR32_ArgRef : X86Class<[i32], 32, (add ECX, EDX)>;
}
def GR32_ABCD : X86Class<[i32], 32, (add EAX, ECX, EDX, EBX)>;
def GR32_TC : X86Class<[i32], 32, (add EAX, ECX, EDX, ESP)>;
// Single-letter inline-asm constraints and the consecutive pairs used by
// 64-bit operands in 32-bit mode.
def GR32_AD : X86Class<[i32], 32, (add EAX, EDX)>;
def GR32_DC : X86Class<[i32], 32, (add EDX, ECX)>;
def GR32_CB : X86Class<[i32], 32, (add ECX, EBX)>;
def GR32_BSI : X86Class<[i32], 32, (add EBX, ESI)>;
def GR32_SIDI : X86Class<[i32], 32, (add ESI, EDI)>;
def GR32_DIBP : X86Class<[i32], 32, (add EDI, EBP)>;
def GR32_BPSP : X86Class<[i32], 32, (add EBP, ESP)>;
// 32-bit address operands under the x32 ABI may also name RIP (and RBP).
def LOW32_ADDR_ACCESS : X86Class<[i32], 32, (add GR32, RIP)>;
def LOW32_ADDR_ACCESS_RBP : X86Class<[i32], 32, (add LOW32_ADDR_ACCESS, RBP)>;
def DEBUG_REG : X86Class<[i32], 32, (sequence "DR%u", 0, 15)>;

// ---- 64-bit --------------------------------------------------------------------------

// Includes RIP, which only ever appears as an address base.
// RBX sits between the APX registers and R14 here.
def GR64 : X86Class<[i64], 64,
                    (add RAX, RCX, RDX, RSI, RDI, (sequence "R%u", 8, 11),
                                    (sequence "R%u", 16, 31), RBX,
                                    (sequence "R%u", 14, 15),
                                    (sequence "R%u", 12, 13),
                                    RBP, RSP, RIP)>;
def GR64_NOSP : X86Class<[i64], 64, (sub GR64, RSP, RIP)>;
def GR64_NOREX : X86Class<[i64], 64,
                          (add RAX, RCX, RDX, RSI, RDI, RBX, RBP, RSP, RIP)>;
def GR64_NOREX_NOSP : X86Class<[i64], 64, (and GR64_NOREX, GR64_NOSP)>;
let GeneratePressureSet = false in {
  def GR64_NOREX2 : X86Class<[i64], 64, (sub GR64, (sequence "R%u", 16, 31))>;
  def GR64_NOREX2_NOSP : X86Class<[i64], 64, (sub GR64_NOREX2, RSP, RIP)>;
  // Scratch registers of the 64-bit Linux convention.
  def GR64_ArgRef : X86Class<[i64], 64, (add R10, R11)>;
}
// Safe around PLT stubs / intrinsics with implicit register inputs.
def GR64PLTSafe : X86Class<[i64], 64, (add RAX, RCX, RDX, RSI, RDI, R8, R9,
                                           RBX, R14, R15, R12, R13, RBP)>;
def GR64_ABCD : X86Class<[i64], 64, (add RAX, RCX, RDX, RBX)>;
def GR64_AD : X86Class<[i64], 64, (add RAX, RDX)>;
// Registers usable by indirect tail calls (SysV / Win64).
def GR64_TC : X86Class<[i64], 64,
                       (add RAX, RCX, RDX, RSI, RDI, R8, R9, R11, RIP, RSP)>;
def GR64_TCW64 : X86Class<[i64], 64,
                          (add RAX, RCX, RDX, R8, R9, R10, R11, RIP, RSP)>;
def CONTROL_REG : X86Class<[i64], 64, (sequence "CR%u", 0, 15)>;

// ---- Flags (not copyable, not allocatable) --------------------------------------------

class FlagClass<ValueType vt, int align, Register r> : X86Class<[vt], align,
    (add r)> {
  let CopyCost = -1;
  let isAllocatable = false;
}
def CCR : FlagClass<i32, 32, EFLAGS>;
def FPCCR : FlagClass<i16, 16, FPSW>;
def DFCCR : FlagClass<i32, 32, DF>;

// ---- x87 / MMX -----------------------------------------------------------------------

// Spilled as the type's size with 4-byte alignment.
def RFP32 : X86Class<[f32], 32, (sequence "FP%u", 0, 6)>;
def RFP64 : X86Class<[f64], 32, (add RFP32)>;
def RFP80 : X86Class<[f80], 32, (add RFP32)>;
let isAllocatable = false in {
  def RFP80_7 : X86Class<[f80], 32, (add FP7)>;
  def RST : X86Class<[f80, f64, f32], 32, (sequence "ST%u", 0, 7)>;
}
def VR64 : X86Class<[x86mmx], 64, (sequence "MM%u", 0, 7)>;

// ---- SSE / AVX / AVX-512 ---------------------------------------------------------------

defvar v128_types = [v4f32, v2f64, v8f16, v8bf16, v16i8, v8i16, v4i32, v2i64,
                     f128];
defvar v256_types = [v8f32, v4f64, v16f16, v16bf16, v32i8, v16i16, v8i32,
                     v4i64];

def FR32 : X86Class<[f32], 32, (sequence "XMM%u", 0, 15)>;
def FR64 : X86Class<[f64], 64, (add FR32)>;
def FR16 : X86Class<[f16], 16, (add FR32)> { let Size = 32; }
def VR128 : X86Class<v128_types, 128, (add FR32)>;
def VR256 : X86Class<v256_types, 256, (sequence "YMM%u", 0, 15)>;

def FR32X : X86Class<[f32], 32, (sequence "XMM%u", 0, 31)>;
def FR64X : X86Class<[f64], 64, (add FR32X)>;
def FR16X : X86Class<[f16], 16, (add FR32X)> { let Size = 32; }
def VR128X : X86Class<v128_types, 128, (add FR32X)>;
def VR256X : X86Class<v256_types, 256, (sequence "YMM%u", 0, 31)>;
def VR512 : X86Class<[v16f32, v8f64, v32f16, v32bf16, v64i8, v32i16, v16i32,
                      v8i64],
                     512, (sequence "ZMM%u", 0, 31)>;
// ZMM registers whose XMM/YMM parts are VEX-encodable.
def VR512_0_15 : X86Class<[v16f32, v8f64, v64i8, v32i16, v16i32, v8i64],
                          512, (sequence "ZMM%u", 0, 15)>;

// ---- Mask registers --------------------------------------------------------------------

// VK<n> holds v<n>i1; VK<n>WM ("write mask") excludes k0, which means "no mask".
foreach lanes = [1, 2, 4, 8, 16, 32, 64] in {
  defvar width = !if(!lt(lanes, 16), 16, lanes);
  defvar vt = !cast<ValueType>("v" # lanes # "i1");
  def VK # lanes : X86Class<[vt], width,
                            (sequence "K%u", 0, 7)> { let Size = width; }
  def VK # lanes # WM : X86Class<[vt], width,
                                 (sequence "K%u", 1, 7)> { let Size = width; }
}
foreach lanes = [1, 2, 4, 8, 16] in
  def VK # lanes # PAIR : X86Class<[untyped], 16,
                                   (add KPAIRS)> { let Size = 32; }

// ---- AMX -----------------------------------------------------------------------------

def TILE : X86Class<[x86amx], 8192, (sequence "TMM%u", 0, 7)> {
  let Size = 8192;
  let CopyCost = -1;
}

//===----------------------------------------------------------------------===//
// Callee-saved register sets (names as in MIR register masks, lower-cased)
//===----------------------------------------------------------------------===//

def CSR_NoRegs : CalleeSavedRegs<(add)>;

// ---- 32-bit ------------------------------------------------------------------------

def CSR_32 : CalleeSavedRegs<(add ESI, EDI, EBX, EBP)>;
def CSR_32EHRet : CalleeSavedRegs<(add EAX, EDX, CSR_32)>;
def CSR_32_AllRegs : CalleeSavedRegs<(add EAX, EBX, ECX, EDX, EBP, ESI, EDI)>;
def CSR_32_AllRegs_SSE : CalleeSavedRegs<(add CSR_32_AllRegs,
                                          (sequence "XMM%u", 0, 7))>;
def CSR_32_AllRegs_AVX : CalleeSavedRegs<(add CSR_32_AllRegs,
                                          (sequence "YMM%u", 0, 7))>;
def CSR_32_AllRegs_AVX512 : CalleeSavedRegs<(add CSR_32_AllRegs,
                                             (sequence "ZMM%u", 0, 7),
                                                 (sequence "K%u", 0, 7))>;
def CSR_32_RegCall_NoSSE : CalleeSavedRegs<(add ESI, EDI, EBX, EBP)>;
def CSR_32_RegCall : CalleeSavedRegs<(add CSR_32_RegCall_NoSSE,
                                      (sequence "XMM%u", 4, 7))>;
// Control Flow Guard check: also preserves ECX (the target address).
def CSR_Win32_CFGuard_Check_NoSSE : CalleeSavedRegs<(add CSR_32_RegCall_NoSSE,
                                                     ECX)>;
def CSR_Win32_CFGuard_Check : CalleeSavedRegs<(add CSR_32_RegCall, ECX)>;

// ---- 64-bit SysV -----------------------------------------------------------------------

def CSR_64 : CalleeSavedRegs<(add RBX, R12, R13, R14, R15, RBP)>;
def CSR_64EHRet : CalleeSavedRegs<(add RAX, RDX, CSR_64)>;
def CSR_64_SwiftError : CalleeSavedRegs<(sub CSR_64, R12)>;
def CSR_64_SwiftTail : CalleeSavedRegs<(sub CSR_64, R13, R14)>;
def CSR_64_NoneRegs : CalleeSavedRegs<(add RBP)>;
def CSR_64_TLS_Darwin : CalleeSavedRegs<(add CSR_64, RCX, RDX, RSI, R8, R9, R10,
                                         R11)>;
def CSR_64_CXX_TLS_Darwin_PE : CalleeSavedRegs<(add RBP)>;
def CSR_64_CXX_TLS_Darwin_ViaCopy : CalleeSavedRegs<(sub CSR_64_TLS_Darwin,
                                                     RBP)>;
def CSR_64_MostRegs : CalleeSavedRegs<(add RBX, RCX, RDX, RSI, RDI, R8, R9, R10,
                                       R11,
                                           R12, R13, R14, R15, RBP,
                                           (sequence "XMM%u", 0, 15))>;
def CSR_64_AllRegs_NoSSE : CalleeSavedRegs<(add RAX, RBX, RCX, RDX, RSI, RDI,
                                            R8, R9,
                                                R10, R11, R12, R13, R14, R15,
                                                RBP)>;
def CSR_64_AllRegs : CalleeSavedRegs<(add CSR_64_MostRegs, RAX)>;
def CSR_64_AllRegs_AVX : CalleeSavedRegs<(sub (add CSR_64_MostRegs, RAX,
                                               (sequence "YMM%u", 0, 15)),
                                              (sequence "XMM%u", 0, 15))>;
def CSR_64_AllRegs_AVX512 : CalleeSavedRegs<(sub (add CSR_64_MostRegs, RAX,
                                                      (sequence "ZMM%u", 0, 31),
                                                      (sequence "K%u", 0, 7)),
                                                 (sequence "XMM%u", 0, 15))>;
// preserve_most / preserve_all.
def CSR_64_RT_MostRegs : CalleeSavedRegs<(add CSR_64, RAX, RCX, RDX, RSI, RDI,
                                          R8, R9, R10)>;
def CSR_64_RT_AllRegs : CalleeSavedRegs<(add CSR_64_RT_MostRegs,
                                         (sequence "XMM%u", 0, 15))>;
def CSR_64_RT_AllRegs_AVX : CalleeSavedRegs<(add CSR_64_RT_MostRegs,
                                             (sequence "YMM%u", 0, 15))>;
def CSR_64_Intel_OCL_BI : CalleeSavedRegs<(add CSR_64,
                                           (sequence "XMM%u", 8, 15))>;
def CSR_64_Intel_OCL_BI_AVX : CalleeSavedRegs<(add CSR_64,
                                               (sequence "YMM%u", 8, 15))>;
def CSR_64_Intel_OCL_BI_AVX512 : CalleeSavedRegs<(add RBX, RSI, R14, R15,
                                                      (sequence "ZMM%u", 16,
                                                       31),
                                                      (sequence "K%u", 4, 7))>;
def CSR_SysV64_RegCall_NoSSE : CalleeSavedRegs<(add RBX, RBP,
                                                (sequence "R%u", 12, 15))>;
def CSR_SysV64_RegCall : CalleeSavedRegs<(add CSR_SysV64_RegCall_NoSSE,
                                              (sequence "XMM%u", 8, 15))>;

// ---- Win64 -----------------------------------------------------------------------------

def CSR_Win64_NoSSE : CalleeSavedRegs<(add RBX, RBP, RDI, RSI, R12, R13, R14,
                                       R15)>;
def CSR_Win64 : CalleeSavedRegs<(add CSR_Win64_NoSSE,
                                 (sequence "XMM%u", 6, 15))>;
def CSR_Win64_SwiftError : CalleeSavedRegs<(sub CSR_Win64, R12)>;
def CSR_Win64_SwiftTail : CalleeSavedRegs<(sub CSR_Win64, R13, R14)>;
def CSR_Win64_RT_MostRegs : CalleeSavedRegs<(add CSR_64_RT_MostRegs,
                                             (sequence "XMM%u", 6, 15))>;
def CSR_Win64_Intel_OCL_BI_AVX : CalleeSavedRegs<(add RBX, RBP, RDI, RSI, R12,
                                                  R13, R14, R15,
                                                      (sequence "YMM%u", 6,
                                                       15))>;
def CSR_Win64_Intel_OCL_BI_AVX512 : CalleeSavedRegs<(add RBX, RBP, RDI, RSI,
                                                     R12, R13, R14, R15,
                                                         (sequence "ZMM%u", 6,
                                                          21),
                                                         (sequence "K%u", 4,
                                                          7))>;
def CSR_Win64_RegCall_NoSSE : CalleeSavedRegs<(add RBX, RBP,
                                               (sequence "R%u", 10, 15))>;
def CSR_Win64_RegCall : CalleeSavedRegs<(add CSR_Win64_RegCall_NoSSE,
                                         (sequence "XMM%u", 8, 15))>;
