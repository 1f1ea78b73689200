// Hexagon register file, following the model LLVM 19 builds into its Hexagon
// backend: 32 general registers and their even/odd pairs, the scalar
// predicates (aliased by the control register P3:0), control registers and
// pairs (USR with its sticky-overflow bit), the HVX vector registers, vector
// pairs in both orders, vector quads and vector predicates, whose sizes
// depend on the HVX length (64 or 128 bytes, selected by hardware mode), and
// the system and guest registers.

//===----------------------------------------------------------------------===//
// Hardware modes: HVX vector length
//===----------------------------------------------------------------------===//

def UseHVX64B : Predicate<"64-byte HVX vectors">;
def UseHVX128B : Predicate<"128-byte HVX vectors">;
def Hvx64 : HwMode<"+hvx-length64b", [UseHVX64B]>;
def Hvx128 : HwMode<"+hvx-length128b", [UseHVX128B]>;

// Per-mode information, with the default mode the same as 64-byte HVX.
class HvxVT<ValueType in64, ValueType in128>
    : ValueTypeByHwMode<[Hvx64, Hvx128, DefaultMode], [in64, in128, in64]>;
class HvxInfo<int size64, int spill64, int align64>
    : RegInfoByHwMode<[Hvx64, Hvx128, DefaultMode],
                      [RegInfo<size64, spill64, align64>,
                       RegInfo<!mul(size64, 2), !mul(spill64, 2),
                               !mul(align64, 2)>,
                       RegInfo<size64, spill64, align64>]>;

// Table rows for the control registers and control register pairs.
class Ctl<int e, string n, string a> {
  int enc = e;
  string name = n;
  string alt = a;
}
class CtlPair<string l, string h, string n, string asm, string a, int dw> {
  string lo = l;
  string hi = h;
  string name = n;
  string asmname = asm;
  list<string> alt = !if(!eq(a, ""), [], [a]);
  int dwarf = dw;
}

//===----------------------------------------------------------------------===//
// Sub-register indices and registers
//===----------------------------------------------------------------------===//

let Namespace = "Hexagon" in {

  // Halves of a 64-bit pair.
  def isub_lo : SubRegIndex<32>;
  def isub_hi : SubRegIndex<32, 32>;
  // Halves of HVX pairs and quads; their size depends on the HVX mode, so it
  // is left unknown.
  def vsub_lo : SubRegIndex<-1, -1>;
  def vsub_hi : SubRegIndex<-1, -1>;
  // Distinguishes Vn+1:n from Vn:n+1 (see the fake registers below).
  def vsub_fake : SubRegIndex<-1, -1>;
  def wsub_lo : SubRegIndex<-1, -1>;
  def wsub_hi : SubRegIndex<-1, -1>;
  // USR bit 0: the sticky saturation/overflow flag.
  def subreg_overflow : SubRegIndex<1, 0>;

  class HexReg<int enc, string asm, list<string> alt = [],
               list<Register> aliased = []> : Register<asm, alt> {
    let HWEncoding = enc;
    let Aliases = aliased;
  }

  // A 64-bit register made of an even (low) and an odd (high) 32-bit one.
  class HexPair<int enc, string asm, Register lo, Register hi,
                list<string> alt = []> : Register<asm, alt> {
    let HWEncoding = enc;
    let SubRegs = [lo, hi];
    let SubRegIndices = [isub_lo, isub_hi];
    let CoveredBySubRegs = true;
  }

  // ---- General registers: r29 = sp, r30 = fp, r31 = lr ----------------------

  foreach n = 0...31 in
    def R # n : HexReg<n, "r" # n,
                       !cond(!eq(n, 29) : ["sp"], !eq(n, 30) : ["fp"],
                             !eq(n, 31) : ["lr"], true : []<string>)>,
                DwarfRegNum<[n]>;

  foreach k = 0...15 in {
    defvar lo = !mul(k, 2);
    defvar hi = !add(lo, 1);
    def D # k : HexPair<lo, "r" # hi # ":" # lo, !cast<Register>("R" # lo),
                        !cast<Register>("R" # hi),
                        !if(!eq(k, 15), ["lr:fp"], [])>,
                DwarfRegNum<[!add(32, lo)]>;
  }

  // ---- Scalar predicates -----------------------------------------------------

  foreach n = 0...3 in
    def P # n : HexReg<n, "p" # n>, DwarfRegNum<[!add(63, n)]>;

  // ---- Control registers c0-c31 ------------------------------------------------

  // The overflow bit of USR, modelled separately so that several saturating
  // instructions may set it in one packet.
  def USR_OVF : HexReg<0, "usr.ovf">;
  def USR : HexReg<8, "usr", ["c8"]>, DwarfRegNum<[75]> {
    let SubRegs = [USR_OVF];
    let SubRegIndices = [subreg_overflow];
  }

  defvar ctl_regs = [Ctl<0, "SA0", "c0">, Ctl<1, "LC0", "c1">,
                     Ctl<2, "SA1", "c2">,
                     Ctl<3, "LC1", "c3">, Ctl<5, "C5", "c5">,
                     Ctl<6, "M0", "c6">,
                     Ctl<7, "M1", "c7">, Ctl<9, "PC", "c9">,
                     Ctl<10, "UGP", "c10">,
                     Ctl<11, "GP", "c11">, Ctl<12, "CS0", "c12">,
                     Ctl<13, "CS1", "c13">,
                     Ctl<14, "UPCYCLELO", "c14">, Ctl<15, "UPCYCLEHI", "c15">,
                     Ctl<16, "FRAMELIMIT", "c16">, Ctl<17, "FRAMEKEY", "c17">,
                     Ctl<18, "PKTCOUNTLO", "c18">, Ctl<19, "PKTCOUNTHI", "c19">,
                     Ctl<30, "UTIMERLO", "c30">, Ctl<31, "UTIMERHI", "c31">];
  foreach c = ctl_regs in
    def "" # c.name : HexReg<c.enc, !tolower(c.name), [c.alt]>,
                      DwarfRegNum<[!add(67, c.enc)]>;
  // c4 is the four scalar predicates viewed together.
  def P3_0 : HexReg<4, "p3:0", ["c4"], [P0, P1, P2, P3]>, DwarfRegNum<[71]>;
  // c8 again, as a plain alias of USR (a sub-register of c9:8 must not carry
  // USR's own sub-register).
  def C8 : HexReg<8, "c8", [], [USR]>, DwarfRegNum<[75]>;

  // Control register pairs.
  defvar ctl_pairs = [CtlPair<"SA0", "LC0", "C1_0", "c1:0", "lc0:sa0", 67>,
                      CtlPair<"SA1", "LC1", "C3_2", "c3:2", "lc1:sa1", 69>,
                      CtlPair<"P3_0", "C5", "C5_4", "c5:4", "", 71>,
                      CtlPair<"M0", "M1", "C7_6", "c7:6", "m1:0", 72>,
                      CtlPair<"C8", "PC", "C9_8", "c9:8", "", 74>,
                      CtlPair<"UGP", "GP", "C11_10", "c11:10", "", 76>,
                      CtlPair<"CS0", "CS1", "CS", "c13:12", "cs1:0", 78>,
                      CtlPair<"UPCYCLELO", "UPCYCLEHI", "UPCYCLE", "c15:14",
                              "upcycle", 80>,
                      CtlPair<"FRAMELIMIT", "FRAMEKEY", "C17_16", "c17:16", "",
                              83>,
                      CtlPair<"PKTCOUNTLO", "PKTCOUNTHI", "PKTCOUNT", "c19:18",
                              "pktcount", 85>,
                      CtlPair<"UTIMERLO", "UTIMERHI", "UTIMER", "c31:30",
                              "utimer", 97>];
  foreach p = ctl_pairs in {
    defvar lo = !cast<HexReg>(p.lo);
    def "" # p.name : HexPair<lo.HWEncoding, p.asmname, lo,
                              !cast<Register>(p.hi), p.alt>,
                      DwarfRegNum<[p.dwarf]>;
  }

  // ---- HVX ------------------------------------------------------------------------

  // Artificial registers that give Vn+1:n and Vn:n+1 distinct register units
  // (their asm names are never printed).
  class HexFake<int dwarf> : Register<"__" # dwarf>, DwarfRegNum<[dwarf]> {
    let isArtificial = true;
  }

  foreach n = 0...31 in {
    def V # n : HexReg<n, "v" # n>, DwarfRegNum<[!add(99, n)]>;
    def VF # n : HexFake<!add(999999, n)>;
    def VFR # n : HexFake<!add(9999999, n)>;
  }
  // Temporary vector register (v65+).
  def VTMP : HexReg<0, "vtmp">, DwarfRegNum<[131]>;

  class HvxPair<int enc, string asm, list<Register> parts> : Register<asm> {
    let HWEncoding = enc;
    let SubRegs = parts;
    let SubRegIndices = [vsub_lo, vsub_hi, vsub_fake];
    let CoveredBySubRegs = true;
  }
  foreach k = 0...15 in {
    defvar lo = !mul(k, 2);
    defvar hi = !add(lo, 1);
    defvar vlo = !cast<Register>("V" # lo);
    defvar vhi = !cast<Register>("V" # hi);
    // Vhi:Vlo, the usual order.
    def W # k : HvxPair<lo, "v" # hi # ":" # lo,
                        [vlo, vhi, !cast<Register>("VF" # k)]>,
                DwarfRegNum<[!add(99, lo)]>;
    // Vlo:Vhi, the reversed order.
    def WR # k : HvxPair<hi, "v" # lo # ":" # hi,
                         [vlo, vhi, !cast<Register>("VFR" # k)]>,
                 DwarfRegNum<[!add(161, k)]>;
  }

  // Quads of vectors.
  foreach k = 0...7 in
    def VQ # k : Register<"v" # !add(!mul(k, 4), 3) # ":" # !mul(k, 4)>,
                 DwarfRegNum<[!add(252, k)]> {
      let HWEncoding = !mul(k, 4);
      let SubRegs = [!cast<Register>("W" # !mul(k, 2)),
                     !cast<Register>("W" # !add(!mul(k, 2), 1))];
      let SubRegIndices = [wsub_lo, wsub_hi];
      let CoveredBySubRegs = true;
    }

  // Vector predicates.
  foreach n = 0...3 in
    def Q # n : HexReg<n, "q" # n>, DwarfRegNum<[!add(131, n)]>;

  // ---- System registers s0-s80 ---------------------------------------------------

  // Names by number; the generic ones are plain "S<n>".
  defvar sys_names = ["SGP0", "SGP1", "STID", "ELR", "BADVA0", "BADVA1", "SSR",
                      "CCR",
                      "HTID", "BADVA", "IMASK", "S11", "S12", "S13", "S14",
                      "S15",
                      "EVB", "MODECTL", "SYSCFG", "S19", "S20", "VID", "S22",
                      "S23",
                      "S24", "S25", "S26", "CFGBASE", "DIAG", "REV", "PCYCLELO",
                      "PCYCLEHI",
                      "ISDBST", "ISDBCFG0", "ISDBCFG1", "S35", "BRKPTPC0",
                      "BRKPTCFG0",
                      "BRKPTPC1", "BRKPTCFG1", "ISDBMBXIN", "ISDBMBXOUT",
                      "ISDBEN", "ISDBGPR",
                      "S44", "S45", "S46", "S47", "PMUCNT0", "PMUCNT1",
                      "PMUCNT2", "PMUCNT3",
                      "PMUEVTCFG", "PMUCFG"];
  foreach n = 0...80 in {
    defvar name = !if(!lt(n, !size(sys_names)),
                      sys_names[!if(!lt(n, !size(sys_names)), n, 0)],
                      "S" # n);
    def "" # name : HexReg<n, !tolower(name),
                           !if(!eq(name, "S" # n), [], ["s" # n])>,
                    DwarfRegNum<[!add(144, n)]>;
  }

  // System register pairs s(2k+1):s(2k).  The last two are declared with
  // their halves the other way round, and their DWARF numbers are LLVM's.
  foreach k = 0...39 in {
    defvar lo = !mul(k, 2);
    defvar hi = !add(lo, 1);
    defvar swapped = !ge(k, 38);
    defvar a = !cast<Register>(!if(!lt(lo, !size(sys_names)),
                                   sys_names[!if(!lt(lo, !size(sys_names)), lo,
                                                 0)],
                                   "S" # lo));
    defvar b = !cast<Register>(!if(!lt(hi, !size(sys_names)),
                                   sys_names[!if(!lt(hi, !size(sys_names)), hi,
                                                 0)],
                                   "S" # hi));
    defvar alt = !cond(!eq(k, 0) : ["sgp1:0"], !eq(k, 2) : ["badva1:0"],
                       !eq(k, 3) : ["ccr:ssr"], !eq(k, 15) : ["pcycle"],
                       true : []<string>);
    def !if(!eq(k, 0), "SGP1_0", "S" # hi # "_" # lo)
        : HexPair<lo, "s" # hi # ":" # lo, !if(swapped, b, a),
                  !if(swapped, a, b), alt>,
          DwarfRegNum<[!cond(!eq(k, 38) : 219, !eq(k, 39) : 220,
                             true : !add(144, lo))]>;
  }

  // ---- Guest registers g0-g31 ----------------------------------------------------------

  defvar guest_names = ["GELR", "GSR", "GOSP", "G3", "G4", "G5", "G6", "G7",
                        "G8", "G9",
                        "G10", "G11", "G12", "G13", "G14", "G15",
                        "GPMUCNT4", "GPMUCNT5", "GPMUCNT6", "GPMUCNT7", "G20",
                        "G21", "G22", "G23",
                        "GPCYCLELO", "GPCYCLEHI", "GPMUCNT0", "GPMUCNT1",
                        "GPMUCNT2", "GPMUCNT3",
                        "G30", "G31"];
  foreach n = 0...31 in {
    defvar name = guest_names[n];
    def "" # name : HexReg<n, !if(!eq(n, 3), "gbadva", !tolower(name)),
                           !if(!eq(name, "G" # n), [], ["g" # n])>,
                    DwarfRegNum<[!add(220, n)]>;
  }
  foreach k = 0...15 in {
    defvar lo = !mul(k, 2);
    defvar hi = !add(lo, 1);
    def G # hi # _ # lo : HexPair<lo, "g" # hi # ":" # lo,
                                  !cast<Register>(guest_names[lo]),
                                  !cast<Register>(guest_names[hi])>,
                          DwarfRegNum<[!add(220, lo)]>;
  }
}

//===----------------------------------------------------------------------===//
// Register classes
//===----------------------------------------------------------------------===//

class HexClass<list<ValueType> types, int align, dag regs>
    : RegisterClass<"Hexagon", types, align, regs>;

// ---- Scalar core ---------------------------------------------------------------------

// r10/r11 (often used for the PLT / by the ABI as scratch) and sp/fp/lr last.
def IntRegs : HexClass<[i32, f32, v4i8, v2i16], 32,
                       (add (sequence "R%u", 0, 9), (sequence "R%u", 12, 28),
                            R10, R11, R29, R30, R31)>;
// Registers of the compact (duplex) encodings, highest first.
def GeneralSubRegs : HexClass<[i32], 32, (add (sequence "R%u", 23, 16),
                                              (sequence "R%u", 7, 0))>;
def IntRegsLow8 : HexClass<[i32], 32, (sequence "R%u", 7, 0)>;

def DoubleRegs : HexClass<[i64, f64, v8i8, v4i16, v2i32], 64,
                          (add (sequence "D%u", 0, 4), (sequence "D%u", 6, 13),
                               D5, D14, D15)>;
def GeneralDoubleLow8Regs : HexClass<[i64], 64, (add (sequence "D%u", 11, 8),
                                                     (sequence "D%u", 3, 0))>;

def PredRegs : HexClass<[i1, v2i1, v4i1, v8i1, v4i8, v2i16, i32], 32,
                        (sequence "P%u", 0, 3)> {
  let Size = 32;
}
def ModRegs : HexClass<[i32], 32, (add M0, M1)> { let Size = 32; }
// Reversed HVX pairs viewed as 64-bit scalars.
def VectRegRev : HexClass<[i64], 64,
                          (sequence "WR%u", 0, 15)> { let Size = 64; }

// ---- Not allocatable -----------------------------------------------------------------

let isAllocatable = false in {
  def UsrBits : HexClass<[i1], 0, (add USR_OVF)>;
  let Size = 32 in {
    def CtrRegs : HexClass<[i32], 32,
                           (add LC0, SA0, LC1, SA1, P3_0, C5, C8, PC, UGP, GP,
                            CS0, CS1,
                                UPCYCLELO, UPCYCLEHI, FRAMELIMIT, FRAMEKEY,
                                PKTCOUNTLO, PKTCOUNTHI, UTIMERLO, UTIMERHI, M0,
                                M1, USR)>;
    def GuestRegs : HexClass<[i32], 32,
                             (add GELR, GSR, GOSP, (sequence "G%u", 3, 15),
                                             (sequence "GPMUCNT%u", 4, 7),
                                             (sequence "G%u", 20, 23),
                                             GPCYCLELO, GPCYCLEHI,
                                             (sequence "GPMUCNT%u", 0, 3), G30,
                                             G31)>;
    // Note PCYCLEHI before PCYCLELO.
    def SysRegs : HexClass<[i32], 32,
                           (add SGP0, SGP1, STID, ELR, BADVA0, BADVA1, SSR, CCR,
                            HTID, BADVA,
                                IMASK, (sequence "S%u", 11, 15), S19, S23, S25,
                                EVB, MODECTL,
                                SYSCFG, S20, VID, S22, S24, S26, CFGBASE, DIAG,
                                REV,
                                PCYCLEHI, PCYCLELO, ISDBST, ISDBCFG0, ISDBCFG1,
                                S35,
                                BRKPTPC0, BRKPTCFG0, BRKPTPC1, BRKPTCFG1,
                                ISDBMBXIN,
                                ISDBMBXOUT, ISDBEN, ISDBGPR,
                                (sequence "S%u", 44, 47),
                                (sequence "PMUCNT%u", 0, 3), PMUEVTCFG, PMUCFG,
                                (sequence "S%u", 54, 80))>;
    // Registers added in v65.
    def V65Regs : HexClass<[i32], 32, (add VTMP)>;
  }
  let Size = 64 in {
    def CtrRegs64 : HexClass<[i64], 64,
                             (add C1_0, C3_2, C5_4, C7_6, C9_8, C11_10, CS,
                                             UPCYCLE, C17_16, PKTCOUNT,
                                             UTIMER)>;
    def GuestRegs64 : HexClass<[i64], 64,
                               (add G1_0, G3_2, G5_4, G7_6, G9_8, G11_10,
                                               G13_12, G15_14, G17_16, G19_18,
                                               G21_20,
                                               G23_22, G25_24, G27_26, G29_28,
                                               G31_30)>;
    def SysRegs64 : HexClass<[i64], 64,
                             (add SGP1_0, S3_2, S5_4, S7_6, S9_8, S11_10,
                              S13_12,
                                             S15_14, S17_16, S19_18, S21_20,
                                             S23_22, S25_24,
                                             S27_26, S29_28, S31_30, S33_32,
                                             S35_34, S37_36,
                                             S39_38, S41_40, S43_42, S45_44,
                                             S47_46, S49_48,
                                             S51_50, S53_52, S55_54, S57_56,
                                             S59_58, S61_60,
                                             S63_62, S65_64, S67_66, S69_68,
                                             S71_70, S73_72,
                                             S75_74, S77_76, S79_78)>;
  }
  // Registers added in v62 (mixing 32- and 64-bit ones).
  def V62Regs : HexClass<[i32], 32,
                         (add FRAMELIMIT, FRAMEKEY, C17_16, PKTCOUNTLO,
                                         PKTCOUNTHI, PKTCOUNT, UTIMERLO,
                                         UTIMERHI, UTIMER)>;
}

// ---- HVX (sizes by hardware mode) -------------------------------------------------

def HvxVR : HexClass<[HvxVT<v64i8, v128i8>, HvxVT<v32i16, v64i16>,
                      HvxVT<v16i32, v32i32>,
                      HvxVT<v32f16, v64f16>, HvxVT<v16f32, v32f32>],
                     512, (add (sequence "V%u", 0, 31), VTMP)> {
  let RegInfos = HvxInfo<512, 512, 512>;
}
def HvxWR : HexClass<[HvxVT<v128i8, v256i8>, HvxVT<v64i16, v128i16>,
                      HvxVT<v32i32, v64i32>,
                      HvxVT<v64f16, v128f16>, HvxVT<v32f32, v64f32>],
                     1024,
                     (add (sequence "W%u", 0, 15), (sequence "WR%u", 0, 15))> {
  let RegInfos = HvxInfo<1024, 1024, 512>;
}
def HvxQR : HexClass<[HvxVT<v64i1, v128i1>, HvxVT<v64i1, v128i1>,
                      HvxVT<v32i1, v64i1>,
                      HvxVT<v16i1, v32i1>],
                     128, (sequence "Q%u", 0, 3)> {
  let RegInfos = HvxInfo<64, 512, 512>;
}
def HvxVQR : HexClass<[untyped], 2048, (sequence "VQ%u", 0, 7)> {
  let RegInfos = HvxInfo<2048, 2048, 512>;
}

//===----------------------------------------------------------------------===//
// Callee-saved registers
//===----------------------------------------------------------------------===//

def HexagonCSR : CalleeSavedRegs<(sequence "R%u", 16, 27)>;
