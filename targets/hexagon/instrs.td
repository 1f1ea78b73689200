// Hexagon machine instructions as the register allocator sees them (LLVM 19,
// hexagon-unknown-linux-musl, no HVX): every opcode of the corpus MIR and the
// rest of each family -- all load/store widths in the offset, register-index,
// post-increment, modify-register, circular, bit-reversed, absolute-set and
// GP-relative forms with their predicated (.t/.f, .new) variants, the
// accumulating shift and multiply forms, the compares and compare-and-jump
// forms, the predicated ALU operations, hardware loops and calls.
//
// Written against LLVM 19's Target.td classes.  Facts follow the MCInstrDesc
// table compiled into LLVM 19 (targets/oracle/compare_instrs.py); the target
// sets AllowRegisterRenaming = 1 (targets/oracle/hexagon-instrs-top.td).
//
// Shapes below are written in the order of the machine operands: results
// first, then sources.  Every Hexagon instruction is one 4-byte word (duplex
// and constant-extended forms are chosen after allocation).  Hexagon has no
// early-clobber operands; ties come from accumulating forms (Rx += ...),
// post-increment addressing (the updated base is a result tied to the base),
// and insertions into an existing register.
//
// Spill/reload/copy per allocatable class (the templates are in targets/hexagon/hexagon.td):
//   IntRegs     S2_storeri_io / L2_loadri_io / A2_tfr
//   DoubleRegs  S2_storerd_io / L2_loadrd_io / A2_tfrp
//   PredRegs    STriw_pred / LDriw_pred (through an IntRegs temporary) / C2_or
//   ModRegs, CtrRegs  STriw_ctr / LDriw_ctr / A2_tfrrcr, A2_tfrcrr
//   HvxVR, HvxWR, HvxQR  PS_vstorer{v,w,q}_ai / PS_vloadr{v,w,q}_ai / V6_vassign,
//               V6_vcombine, V6_pred_and

//===-- Operand kinds ---------------------------------------------------===//

// Immediates, offsets, shift amounts, symbols: untyped (OPERAND_UNKNOWN).
def h_imm : Operand<i32>;
// Branch and call destinations.
def h_target : Operand<OtherVT>;

//===-- Base classes ----------------------------------------------------===//

class H<dag outs, dag ins> : Instruction {
  // Hexagon's TSFlags bit: the instruction executes under a predicate
  // (`if (p0) ...`), so a definition may leave its register unchanged.
  bit isPredicated = false;
  // Copies of a register in the target's own spelling, which LLVM's Hexagon
  // RDF optimiser (HexagonCP::interpretAsCopy) lists in C++: output 0 takes
  // the value of input 1 (isRegisterCopy), or does when the last operand is
  // the immediate 0 (isCopyWhenZero).  A2_combinew is in LLVM's list too,
  // but it maps the destination's halves, which no definition names alone,
  // so LLVM 19 never propagates through it.
  bit isRegisterCopy = false;
  bit isCopyWhenZero = false;
  let Namespace = "Hexagon";
  let OutOperandList = outs;
  let InOperandList = ins;
  let AsmString = "";
  let Size = 4;
  let hasSideEffects = false;
  let mayLoad = false;
  let mayStore = false;
}
class HPseudo<dag outs, dag ins> : H<outs, ins> { let isPseudo = true; }

// Common shapes.  R = IntRegs, D = DoubleRegs, P = PredRegs, I = immediate.
class Sh1<RegisterClass d, RegisterClass a> : H<(outs d:$d), (ins a:$a)>;
class Sh2<RegisterClass d, RegisterClass a, RegisterClass b> : H<(outs d:$d),
    (ins a:$a, b:$b)>;
class ShI<RegisterClass d, RegisterClass a> : H<(outs d:$d),
                                                (ins a:$a, h_imm:$i)>;
// Accumulating: d = d OP f(a, b); the accumulator is the first source.
class Acc2<RegisterClass d, RegisterClass a, RegisterClass b>
    : H<(outs d:$d),
        (ins d:$acc, a:$a, b:$b)> { let Constraints = "$d = $acc"; }
class AccI<RegisterClass d, RegisterClass a>
    : H<(outs d:$d),
        (ins d:$acc, a:$a, h_imm:$i)> { let Constraints = "$d = $acc"; }

defvar R = IntRegs;
defvar D = DoubleRegs;
defvar P = PredRegs;

// A name together with up to three properties used by the lists below.
class N<string name, bit commutable = false, bit predicable = false,
        bit pseudo = false> {
  string n = name;
  bit c = commutable;
  bit p = predicable;
  bit ps = pseudo;
}

// Saturating operations record overflow in USR.OVF; floating point reads the
// rounding mode from USR.
defvar Ovf = [USR_OVF];
defvar Fpu = [USR];

//===-- Arithmetic and logic (ALU32, XTYPE) -----------------------------===//

multiclass Fam<list<N> names, dag outs, dag ins, list<Register> defs = [],
               list<Register> uses = []> {
  foreach x = names in
    let isCommutable = x.c, isPredicable = x.p, isPseudo = x.ps,
        Defs = defs, Uses = uses in
    def x.n : H<outs, ins>;
}

// Rd = op(Rs, Rt)
defm "" : Fam<[N<"A2_add", 1, 1>, N<"A2_and", 1, 1>, N<"A2_or", 1, 1>,
               N<"A2_xor", 1, 1>,
               N<"A2_sub", 0, 1>, N<"A2_max">, N<"A2_maxu">, N<"A2_min">,
               N<"A2_minu">,
               N<"A2_combine_hh">, N<"A2_combine_hl">, N<"A2_combine_lh">,
               N<"A2_combine_ll">,
               N<"A2_addh_h16_hh">, N<"A2_addh_h16_hl">, N<"A2_addh_h16_lh">,
               N<"A2_addh_h16_ll">,
               N<"A2_addh_l16_hl">, N<"A2_addh_l16_ll">,
               N<"A2_subh_h16_hh">, N<"A2_subh_h16_hl">, N<"A2_subh_h16_lh">,
               N<"A2_subh_h16_ll">,
               N<"A2_subh_l16_hl">, N<"A2_subh_l16_ll">,
               N<"A2_svaddh", 1>, N<"A2_svavgh", 1>, N<"A2_svavghs", 1>,
               N<"A2_svnavgh">, N<"A2_svsubh">,
               N<"A4_andn">, N<"A4_orn">, N<"A4_rcmpeq", 1>, N<"A4_rcmpneq", 1>,
               N<"A4_cround_rr">, N<"A4_round_rr">, N<"A4_modwrapu">,
               N<"M2_mpyi">, N<"M2_mpyui", 0, 0, 1>, N<"M2_mpy_up">,
               N<"M2_mpyu_up">, N<"M2_mpysu_up">,
               N<"M2_mpy_up_s1">, N<"M2_dpmpyss_rnd_s0">,
               N<"S2_asl_r_r">, N<"S2_asr_r_r">, N<"S2_lsr_r_r">,
               N<"S2_lsl_r_r">,
               N<"S2_clrbit_r">, N<"S2_setbit_r">, N<"S2_togglebit_r">,
               N<"S4_parity">,
               N<"F2_sffixupd">, N<"F2_sffixupn">],
              (outs R:$d), (ins R:$s, R:$t)>;
defm "" : Fam<[N<"A2_addsat", 1>, N<"A2_subsat">,
               N<"A2_addh_h16_sat_hh">, N<"A2_addh_h16_sat_hl">,
               N<"A2_addh_h16_sat_lh">,
               N<"A2_addh_h16_sat_ll">, N<"A2_addh_l16_sat_hl">,
               N<"A2_addh_l16_sat_ll">,
               N<"A2_subh_h16_sat_hh">, N<"A2_subh_h16_sat_hl">,
               N<"A2_subh_h16_sat_lh">,
               N<"A2_subh_h16_sat_ll">, N<"A2_subh_l16_sat_hl">,
               N<"A2_subh_l16_sat_ll">,
               N<"A2_svaddhs", 1>, N<"A2_svadduhs", 1>, N<"A2_svsubhs">,
               N<"A2_svsubuhs">,
               N<"A4_round_rr_sat">, N<"M2_mpy_up_s1_sat">, N<"S2_asl_r_r_sat">,
               N<"S2_asr_r_r_sat">],
              (outs R:$d), (ins R:$s, R:$t), Ovf>;
defm "" : Fam<[N<"F2_sfadd", 1>, N<"F2_sfmpy", 1>, N<"F2_sfsub">, N<"F2_sfmax">,
               N<"F2_sfmin">],
              (outs R:$d), (ins R:$s, R:$t), [], Fpu>;

// Rdd = op(Rss, Rtt)
defm "" : Fam<[N<"A2_andp", 1>, N<"A2_orp", 1>, N<"A2_xorp", 1>, N<"A2_subp">,
               N<"A2_maxp">, N<"A2_maxup">, N<"A2_minp">, N<"A2_minup">,
               N<"A4_andnp">, N<"A4_ornp">,
               N<"A2_addsph">, N<"A2_addspl">,
               N<"A2_vaddh">, N<"A2_vaddub">, N<"A2_vaddw">, N<"A2_vsubh">,
               N<"A2_vsubub">, N<"A2_vsubw">,
               N<"A2_vaddb_map", 0, 0, 1>, N<"A2_vsubb_map", 0, 0, 1>,
               N<"A2_vavgh">, N<"A2_vavghcr">, N<"A2_vavghr">, N<"A2_vavgub">,
               N<"A2_vavgubr">,
               N<"A2_vavguh">, N<"A2_vavguhr">, N<"A2_vavguw">, N<"A2_vavguwr">,
               N<"A2_vavgw">,
               N<"A2_vavgwcr">, N<"A2_vavgwr">, N<"A2_vnavgh">, N<"A2_vnavgw">,
               N<"A2_vmaxb">, N<"A2_vmaxh">, N<"A2_vmaxub">, N<"A2_vmaxuh">,
               N<"A2_vmaxuw">, N<"A2_vmaxw">,
               N<"A2_vminb">, N<"A2_vminh">, N<"A2_vminub">, N<"A2_vminuh">,
               N<"A2_vminuw">, N<"A2_vminw">,
               N<"A2_vraddub">, N<"A2_vrsadub">, N<"M2_vabsdiffh">,
               N<"M2_vabsdiffw">,
               N<"M6_vabsdiffb">, N<"M6_vabsdiffub">,
               N<"S2_shuffeb">, N<"S2_shuffeh">, N<"S2_shuffob">,
               N<"S2_shuffoh">, N<"S2_lfsp">,
               N<"S2_vtrunewh">, N<"S2_vtrunowh">, N<"S6_vtrunehb_ppp">,
               N<"S6_vtrunohb_ppp">,
               N<"S2_extractup_rp">, N<"S4_extractp_rp">,
               N<"M5_vrmpybsu">, N<"M5_vrmpybuu">, N<"M4_vrmpyeh_s0">,
               N<"M4_vrmpyeh_s1">,
               N<"M4_vrmpyoh_s0">, N<"M4_vrmpyoh_s1">,
               N<"M7_dcmpyiw">, N<"M7_dcmpyiwc">, N<"M7_dcmpyrw">,
               N<"M7_dcmpyrwc">,
               N<"M7_vdmpy", 0, 0, 1>, N<"PS_vmulw", 0, 0, 1>, N<"F2_dfmpyll">],
              (outs D:$d), (ins D:$s, D:$t)>;
let isAdd = true in
defm "" : Fam<[N<"A2_addp", 1>], (outs D:$d), (ins D:$s, D:$t)>;
defm "" : Fam<[N<"A2_addpsat", 1>, N<"A2_vaddhs">, N<"A2_vaddubs">,
               N<"A2_vadduhs">, N<"A2_vaddws">,
               N<"A2_vsubhs">, N<"A2_vsububs">, N<"A2_vsubuhs">, N<"A2_vsubws">,
               N<"A2_vnavghcr">, N<"A2_vnavghr">, N<"A2_vnavgwcr">,
               N<"A2_vnavgwr">,
               N<"S4_vxaddsubh">, N<"S4_vxaddsubhr">, N<"S4_vxaddsubw">,
               N<"S4_vxsubaddh">, N<"S4_vxsubaddhr">, N<"S4_vxsubaddw">,
               N<"M5_vdmpybsu">],
              (outs D:$d), (ins D:$s, D:$t), Ovf>;
defm "" : Fam<[N<"F2_dfadd">, N<"F2_dfsub">, N<"F2_dfmax">, N<"F2_dfmin">,
               N<"F2_dfmpyfix">],
              (outs D:$d), (ins D:$s, D:$t), [], Fpu>;

// Rd = op(Rs)
defm "" : Fam<[N<"A2_abs">, N<"A2_aslh", 0, 1>, N<"A2_asrh", 0, 1>,
               N<"A2_neg", 0, 0, 1>,
               N<"A2_not", 0, 0, 1>, N<"A2_swiz">, N<"A2_sxtb", 0, 1>,
               N<"A2_sxth", 0, 1>,
               N<"A2_zxtb", 0, 1, 1>, N<"A2_zxth", 0, 1>,
               N<"S2_brev">, N<"S2_cl0">, N<"S2_cl1">, N<"S2_clb">,
               N<"S2_clbnorm">,
               N<"S2_ct0">, N<"S2_ct1">, N<"F2_sffixupr">],
              (outs R:$d), (ins R:$s)>;
defm "" : Fam<[N<"A2_abssat">, N<"A2_negsat">, N<"A2_satb">, N<"A2_sath">,
               N<"A2_satub">,
               N<"A2_satuh">, N<"S2_svsathb">, N<"S2_svsathub">],
              (outs R:$d), (ins R:$s), Ovf>;
// Register transfer.
let isPredicable = true, isRegisterCopy = true in
def A2_tfr : Sh1<R, R>;
let isPredicable = true, isPseudo = true in
def A2_tfrp : Sh1<D, D>;

// Rdd = op(Rss)
defm "" : Fam<[N<"A2_absp">, N<"A2_negp">, N<"A2_notp">, N<"A2_vabsh">,
               N<"A2_vabsw">,
               N<"S2_brevp">, N<"S2_deinterleave">, N<"S2_interleave">],
              (outs D:$d), (ins D:$s)>;
defm "" : Fam<[N<"A2_vabshsat">, N<"A2_vabswsat">, N<"A2_vconj">,
               N<"S2_vsathb_nopack">,
               N<"S2_vsathub_nopack">, N<"S2_vsatwh_nopack">,
               N<"S2_vsatwuh_nopack">],
              (outs D:$d), (ins D:$s), Ovf>;

// Rd = op(Rss)
defm "" : Fam<[N<"S2_cl0p">, N<"S2_cl1p">, N<"S2_clbp">, N<"S2_ct0p">,
               N<"S2_ct1p">,
               N<"S5_popcountp">, N<"S2_vrndpackwh">, N<"S2_vtrunehb">,
               N<"S2_vtrunohb">,
               N<"S4_clbpnorm">],
              (outs R:$d), (ins D:$s)>;
defm "" : Fam<[N<"A2_roundsat">, N<"A2_sat">, N<"S2_vrndpackwhs">,
               N<"S2_vsathb">,
               N<"S2_vsathub">, N<"S2_vsatwh">, N<"S2_vsatwuh">],
              (outs R:$d), (ins D:$s), Ovf>;

// Rdd = op(Rs): widening; the splats and extensions rematerialize.
defm "" : Fam<[N<"A2_sxtw">, N<"S6_vsplatrbp">], (outs D:$d), (ins R:$s)>;
let isReMaterializable = true, isAsCheapAsAMove = true in {
  defm "" : Fam<[N<"S2_vsxtbh">, N<"S2_vsxthw">, N<"S2_vzxtbh">, N<"S2_vzxthw">,
                 N<"S2_vsplatrh">],
                (outs D:$d), (ins R:$s)>;
  def S2_vsplatrb : Sh1<R, R>;
}

// Rd = op(Rs, #u)
let isAdd = true, isPredicable = true, isCopyWhenZero = true in
def A2_addi : ShI<R, R>;
defm "" : Fam<[N<"A2_andir">, N<"A2_orir">, N<"A4_rcmpeqi">, N<"A4_rcmpneqi">,
               N<"A4_cround_ri">,
               N<"A4_round_ri">, N<"A7_clip">, N<"S2_asl_i_r">, N<"S2_asr_i_r">,
               N<"S2_lsr_i_r">,
               N<"S6_rol_i_r">, N<"S2_clrbit_i">, N<"S2_setbit_i">,
               N<"S2_togglebit_i">,
               N<"S2_asr_i_r_rnd">, N<"S2_asr_i_r_rnd_goodsyntax", 0, 0, 1>,
               N<"M2_mpysip">, N<"M2_mpysin">, N<"M2_mpysmi", 0, 0, 1>,
               N<"S4_clbaddi">],
              (outs R:$d), (ins R:$s, h_imm:$i)>;
defm "" : Fam<[N<"A4_round_ri_sat">, N<"S2_asl_i_r_sat">], (outs R:$d),
              (ins R:$s, h_imm:$i), Ovf>;

// Rdd = op(Rss, #u)
defm "" : Fam<[N<"S2_asl_i_p">, N<"S2_asr_i_p">, N<"S2_lsr_i_p">,
               N<"S6_rol_i_p">,
               N<"S2_asr_i_p_rnd">, N<"S2_asr_i_p_rnd_goodsyntax", 0, 0, 1>,
               N<"S2_asl_i_vh">, N<"S2_asl_i_vw">, N<"S2_asr_i_vh">,
               N<"S2_asr_i_vw">,
               N<"S2_lsr_i_vh">, N<"S2_lsr_i_vw">, N<"A7_vclip">,
               N<"A7_croundd_ri">,
               N<"S5_vasrhrnd">, N<"S5_vasrhrnd_goodsyntax", 0, 0, 1>],
              (outs D:$d), (ins D:$s, h_imm:$i)>;
// Rd = op(Rss, #u)
defm "" : Fam<[N<"S2_asr_i_svw_trun">, N<"S4_clbpaddi">,
               N<"S5_asrhub_rnd_sat_goodsyntax", 0, 0, 1>],
              (outs R:$d), (ins D:$s, h_imm:$i)>;
defm "" : Fam<[N<"S5_asrhub_rnd_sat">, N<"S5_asrhub_sat">], (outs R:$d),
              (ins D:$s, h_imm:$i), Ovf>;

// Rdd = op(Rss, Rt): shifts by register amount.
defm "" : Fam<[N<"S2_asl_r_p">, N<"S2_asr_r_p">, N<"S2_lsr_r_p">,
               N<"S2_lsl_r_p">,
               N<"S2_asl_r_vh">, N<"S2_asl_r_vw">, N<"S2_asr_r_vh">,
               N<"S2_asr_r_vw">,
               N<"S2_lsl_r_vh">, N<"S2_lsl_r_vw">, N<"S2_lsr_r_vh">,
               N<"S2_lsr_r_vw">,
               N<"A7_croundd_rr">],
              (outs D:$d), (ins D:$s, R:$t)>;
defm "" : Fam<[N<"S2_vcnegh">, N<"S2_vcrotate">], (outs D:$d), (ins D:$s, R:$t),
              Ovf>;
// Rd = op(Rss, Rt)
def S2_asr_r_svw_trun : Sh2<R, D, R>;
defm "" : Fam<[N<"M4_cmpyi_wh">, N<"M4_cmpyi_whc">, N<"M4_cmpyr_wh">,
               N<"M4_cmpyr_whc">],
              (outs R:$d), (ins D:$s, R:$t), Ovf>;
// Rd = op(Rss, Rtt)
def S2_parityp : Sh2<R, D, D>;
defm "" : Fam<[N<"A5_vaddhubs">, N<"M7_wcmpyiw">, N<"M7_wcmpyiw_rnd">,
               N<"M7_wcmpyiwc">,
               N<"M7_wcmpyiwc_rnd">, N<"M7_wcmpyrw">, N<"M7_wcmpyrw_rnd">,
               N<"M7_wcmpyrwc">,
               N<"M7_wcmpyrwc_rnd">],
              (outs R:$d), (ins D:$s, D:$t), Ovf>;

// Rdd = op(Rs, Rt): widening multiplies, pair building.
defm "" : Fam<[N<"M2_dpmpyss_s0">, N<"M2_dpmpyuu_s0">, N<"M4_pmpyw">,
               N<"M4_vpmpyh">,
               N<"M5_vmpybsu">, N<"M5_vmpybuu">, N<"A2_combinew", 0, 1>,
               N<"S2_packhl">,
               N<"A4_bitsplit">],
              (outs D:$d), (ins R:$s, R:$t)>;

//===-- Shifts with accumulation ------------------------------------------===//

// Rx OP= shift(Rs, #u) / shift(Rs, Rt), and the pair forms.  acc is +=,
// nac is -=, xacc (xor) exists for the immediate left/logical-right shifts
// and rotates, xor for the pair shifts by register.
foreach sh = ["asl", "asr", "lsr"] in {
  foreach op = !listconcat(["acc", "nac", "and", "or"],
                           !if(!eq(sh, "asr"), []<string>, ["xacc"])) in {
    def S2_ # sh # _i_r_ # op : AccI<R, R>;
    def S2_ # sh # _i_p_ # op : AccI<D, D>;
  }
}
foreach op = ["acc", "nac", "and", "or", "xacc"] in {
  def S6_rol_i_r_ # op : AccI<R, R>;
  def S6_rol_i_p_ # op : AccI<D, D>;
}
foreach sh = ["asl", "asr", "lsr", "lsl"] in {
  foreach op = ["acc", "nac", "and", "or"] in
    def S2_ # sh # _r_r_ # op : Acc2<R, R, R>;
  foreach op = ["acc", "nac", "and", "or", "xor"] in
    def S2_ # sh # _r_p_ # op : Acc2<D, D, R>;
}

//===-- Multiply and logical accumulation ----------------------------------===//

// Rx OP= f(Rs, Rt)
foreach n = ["M2_acci", "M2_maci", "M2_mnaci", "M2_nacci", "M2_subacc",
             "M2_xor_xacc",
             "M4_and_and", "M4_and_andn", "M4_and_or", "M4_and_xor",
             "M4_or_and",
             "M4_or_andn", "M4_or_or", "M4_or_xor", "M4_xor_and", "M4_xor_andn",
             "M4_xor_or"] in
  def n : Acc2<R, R, R>;
let Defs = Ovf in
foreach n = ["M4_mac_up_s1_sat", "M4_nac_up_s1_sat"] in
  def n : Acc2<R, R, R>;
// Rx OP= f(Rs, #u)
foreach n = ["M2_accii", "M2_naccii", "M2_macsip", "M2_macsin"] in
  def n : AccI<R, R>;
// Rxx OP= f(Rs, Rt)
foreach n = ["M2_dpmpyss_acc_s0", "M2_dpmpyss_nac_s0", "M2_dpmpyuu_acc_s0",
             "M2_dpmpyuu_nac_s0",
             "M4_pmpyw_acc", "M4_vpmpyh_acc", "M5_vmacbsu", "M5_vmacbuu"] in
  def n : Acc2<D, R, R>;
let Defs = Ovf in
foreach n = ["M2_cnacs_s0", "M2_cnacs_s1", "M2_cnacsc_s0", "M2_cnacsc_s1"] in
  def n : Acc2<D, R, R>;
// Rxx OP= f(Rss, Rtt)
foreach n = ["M4_xor_xacc", "A2_vraddub_acc", "A2_vrsadub_acc",
             "M4_vrmpyeh_acc_s0",
             "M4_vrmpyeh_acc_s1", "M4_vrmpyoh_acc_s0", "M4_vrmpyoh_acc_s1",
             "M5_vrmacbsu",
             "M5_vrmacbuu", "M7_dcmpyiw_acc", "M7_dcmpyiwc_acc",
             "M7_dcmpyrw_acc",
             "M7_dcmpyrwc_acc", "F2_dfmpylh"] in
  def n : Acc2<D, D, D>;
let isPseudo = true in
foreach n = ["M7_vdmpy_acc", "PS_vmulw_acc"] in
  def n : Acc2<D, D, D>;
let Uses = Fpu in
def F2_dfmpyhh : Acc2<D, D, D>;
let Defs = Ovf in
def M5_vdmacbsu : Acc2<D, D, D>;
// Rxx = f(Rxx, Rss, Rt): reductions into a pair.
foreach n = ["A4_vrmaxh", "A4_vrmaxuh", "A4_vrmaxuw", "A4_vrmaxw", "A4_vrminh",
             "A4_vrminuh",
             "A4_vrminuw", "A4_vrminw", "S2_vrcnegh"] in
  def n : Acc2<D, D, R>;
def S4_vrcrotate : H<(outs D:$d), (ins D:$s, R:$t, h_imm:$i)>;
let Constraints = "$d = $acc" in
def S4_vrcrotate_acc : H<(outs D:$d), (ins D:$acc, D:$s, R:$t, h_imm:$i)>;

// Floating-point fused multiply-add (Rx += Rs * Rt).
let Uses = Fpu in {
  foreach n = ["F2_sffma", "F2_sffma_lib", "F2_sffms", "F2_sffms_lib"] in
    def n : Acc2<R, R, R>;
  let Constraints = "$d = $acc" in
  def F2_sffma_sc : H<(outs R:$d), (ins R:$acc, R:$s, R:$t, P:$u)>;
}

// Halfword multiplies: halves of Rs and Rt (hh, hl, lh, ll), result shifted
// left by 0 or 1 (s0, s1); signed/unsigned, into a word or a pair, plain,
// rounded, saturated, accumulating (acc) or subtracting (nac).
foreach hv = ["hh", "hl", "lh", "ll"] in
  foreach k = ["s0", "s1"] in {
    defvar t = hv # "_" # k;
    foreach n = ["mpy_", "mpy_rnd_", "mpyu_"] in
      def M2_ # n # t : Sh2<R, R, R>;
    foreach n = ["mpyd_", "mpyd_rnd_", "mpyud_"] in
      def M2_ # n # t : Sh2<D, R, R>;
    foreach n = ["mpy_acc_", "mpy_nac_", "mpyu_acc_", "mpyu_nac_"] in
      def M2_ # n # t : Acc2<R, R, R>;
    foreach n = ["mpyd_acc_", "mpyd_nac_", "mpyud_acc_", "mpyud_nac_"] in
      def M2_ # n # t : Acc2<D, R, R>;
    let Defs = Ovf in {
      foreach n = ["mpy_sat_", "mpy_sat_rnd_"] in
        def M2_ # n # t : Sh2<R, R, R>;
      foreach n = ["mpy_acc_sat_", "mpy_nac_sat_"] in
        def M2_ # n # t : Acc2<R, R, R>;
    }
  }
// Complex, vector and matrix multiplies.
foreach n = ["M2_vrcmpyi_s0", "M2_vrcmpyi_s0c", "M2_vrcmpyr_s0",
             "M2_vrcmpyr_s0c", "M2_vrmpy_s0"] in
  def n : Sh2<D, D, D>;
foreach n = ["M2_cmpyi_s0", "M2_cmpyr_s0"] in
  def n : Sh2<D, R, R>;
foreach n = ["M2_vraddh", "M2_vradduh"] in
  def n : Sh2<R, D, D>;
foreach n = ["M2_vmac2es", "M2_vrcmaci_s0", "M2_vrcmaci_s0c", "M2_vrcmacr_s0",
             "M2_vrcmacr_s0c",
             "M2_vrmac_s0"] in
  def n : Acc2<D, D, D>;
foreach n = ["M2_cmaci_s0", "M2_cmacr_s0", "M2_vmac2"] in
  def n : Acc2<D, R, R>;
let Defs = Ovf in {
  foreach v = ["h", "l", "uh", "ul"] in
    foreach k = ["rs0", "rs1", "s0", "s1"] in {
      def M2_mmpy # v # _ # k : Sh2<D, D, D>;
      def M2_mmac # v # s_ # k : Acc2<D, D, D>;
    }
  foreach n = ["M2_vcmpy_s0_sat_i", "M2_vcmpy_s0_sat_r", "M2_vcmpy_s1_sat_i",
               "M2_vcmpy_s1_sat_r",
               "M2_vdmpys_s0", "M2_vdmpys_s1", "M2_vmpy2es_s0", "M2_vmpy2es_s1",
               "M2_vrcmpys_s1_h", "M2_vrcmpys_s1_l"] in
    def n : Sh2<D, D, D>;
  foreach n = ["M2_vcmac_s0_sat_i", "M2_vcmac_s0_sat_r", "M2_vdmacs_s0",
               "M2_vdmacs_s1",
               "M2_vmac2es_s0", "M2_vmac2es_s1", "M2_vrcmpys_acc_s1_h",
               "M2_vrcmpys_acc_s1_l"] in
    def n : Acc2<D, D, D>;
  foreach n = ["M2_cmacs_s0", "M2_cmacs_s1", "M2_cmacsc_s0", "M2_cmacsc_s1",
               "M2_vmac2s_s0",
               "M2_vmac2s_s1", "M2_vmac2su_s0", "M2_vmac2su_s1"] in
    def n : Acc2<D, R, R>;
  foreach n = ["M2_cmpys_s0", "M2_cmpys_s1", "M2_cmpysc_s0", "M2_cmpysc_s1",
               "M2_vmpy2s_s0",
               "M2_vmpy2s_s1", "M2_vmpy2su_s0", "M2_vmpy2su_s1"] in
    def n : Sh2<D, R, R>;
  foreach n = ["M2_vdmpyrs_s0", "M2_vdmpyrs_s1", "M2_vrcmpys_s1rp_h",
               "M2_vrcmpys_s1rp_l"] in
    def n : Sh2<R, D, D>;
  foreach n = ["M2_cmpyrs_s0", "M2_cmpyrs_s1", "M2_cmpyrsc_s0", "M2_cmpyrsc_s1",
               "M2_hmmpyh_rs1",
               "M2_hmmpyh_s1", "M2_hmmpyl_rs1", "M2_hmmpyl_s1",
               "M2_vmpy2s_s0pack",
               "M2_vmpy2s_s1pack"] in
    def n : Sh2<R, R, R>;
}
// Assembler forms choosing the h or l variant by the operand (expanded early).
let isPseudo = true in {
  def M2_vrcmpys_s1 : Sh2<D, D, R>;
  def M2_vrcmpys_acc_s1 : Acc2<D, D, R>;
  def M2_vrcmpys_s1rp : Sh2<R, D, R>;
}

//===-- Composite address arithmetic --------------------------------------===//

def A2_subri : H<(outs R:$d), (ins h_imm:$i, R:$s)>;             // Rd = #s - Rs
def S4_lsli : H<(outs R:$d), (ins h_imm:$i, R:$s)>;              // Rd = #s << Rs
let isPseudo = true in
def A2_addsp : H<(outs D:$d), (ins R:$s, D:$t)>;                 // Rdd = sxt(Rs) + Rtt
def S2_addasl_rrri : H<(outs R:$d), (ins R:$t, R:$s, h_imm:$u)>; // Rt + (Rs << #u)
def S4_addaddi : H<(outs R:$d), (ins R:$s, R:$t, h_imm:$i)>;     // Rs + Rt + #s
def S4_subaddi : H<(outs R:$d), (ins R:$s, h_imm:$i, R:$t)>;     // Rs + #s - Rt
// Rx = #u OP (Rx shift #v)
foreach op = ["addi", "subi", "andi", "ori"] in
  foreach sh = ["asl", "lsr"] in
    let Constraints = "$d = $x" in
    def S4_ # op # _ # sh # _ri : H<(outs R:$d),
                                    (ins h_imm:$u, R:$x, h_imm:$v)>;
let Constraints = "$d = $x" in {
  def S4_or_andix : H<(outs R:$d), (ins R:$u, R:$x, h_imm:$i)>;  // Rx = Ru | (Rx & #s)
  def S4_or_andi : H<(outs R:$d), (ins R:$x, R:$s, h_imm:$i)>;   // Rx |= Rs & #s
  def S4_or_ori : H<(outs R:$d), (ins R:$x, R:$s, h_imm:$i)>;
  def M4_mpyrr_addr : H<(outs R:$d), (ins R:$u, R:$x, R:$s)>;    // Ry = Ru + Rs * Ry
}
def M4_mpyri_addi : H<(outs R:$d), (ins h_imm:$u, R:$s, h_imm:$v)>;
def M4_mpyri_addr : H<(outs R:$d), (ins R:$u, R:$s, h_imm:$v)>;
def M4_mpyri_addr_u2 : H<(outs R:$d), (ins R:$u, h_imm:$v, R:$s)>;
def M4_mpyrr_addi : H<(outs R:$d), (ins h_imm:$u, R:$s, R:$t)>;

//===-- Bit fields ---------------------------------------------------------===//

foreach n = ["S2_extractu", "S4_extract"] in
  def n : H<(outs R:$d), (ins R:$s, h_imm:$w, h_imm:$o)>;
foreach n = ["S2_extractup", "S4_extractp"] in
  def n : H<(outs D:$d), (ins D:$s, h_imm:$w, h_imm:$o)>;
foreach n = ["S2_extractu_rp", "S4_extract_rp"] in
  def n : Sh2<R, R, D>;
let Constraints = "$d = $x" in {
  def S2_insert : H<(outs R:$d), (ins R:$x, R:$s, h_imm:$w, h_imm:$o)>;
  def S2_insert_rp : H<(outs R:$d), (ins R:$x, R:$s, D:$t)>;
  def S2_insertp : H<(outs D:$d), (ins D:$x, D:$s, h_imm:$w, h_imm:$o)>;
  def S2_insertp_rp : H<(outs D:$d), (ins D:$x, D:$s, D:$t)>;
  foreach w = ["b", "h", "w", "d"] in {
    def S2_tableidx # w : H<(outs R:$d), (ins R:$x, R:$s, h_imm:$w, h_imm:$o)>;
    let isPseudo = true in
    def S2_tableidx # w # _goodsyntax : H<(outs R:$d),
                                          (ins R:$x, R:$s, h_imm:$w, h_imm:$o)>;
  }
  // Set the high or low half of Rx.
  def A2_tfrih : H<(outs R:$d), (ins R:$x, h_imm:$i)>;
  def A2_tfril : H<(outs R:$d), (ins R:$x, h_imm:$i)>;
}
def A4_bitspliti : H<(outs D:$d), (ins R:$s, h_imm:$u)>;
def S2_mask : H<(outs R:$d), (ins h_imm:$w, h_imm:$o)>;
def S2_valignib : H<(outs D:$d), (ins D:$s, D:$t, h_imm:$u)>;
def S2_vspliceib : H<(outs D:$d), (ins D:$s, D:$t, h_imm:$u)>;
def S2_valignrb : H<(outs D:$d), (ins D:$s, D:$t, P:$u)>;
def S2_vsplicerb : H<(outs D:$d), (ins D:$s, D:$t, P:$u)>;

//===-- Constants -----------------------------------------------------------===//

let isReMaterializable = true, isAsCheapAsAMove = true, isMoveImm = true in {
  let isPredicable = true in
  def A2_tfrsi : H<(outs R:$d), (ins h_imm:$i)>;
  let isPseudo = true in
  def A2_tfrpi : H<(outs D:$d), (ins h_imm:$i)>;
  def A2_combineii : H<(outs D:$d), (ins h_imm:$hi, h_imm:$lo)>;
  // Frame-index address (expanded once the frame is laid out).
  let isPseudo = true in {
    def PS_fi : H<(outs R:$d), (ins R:$fi, h_imm:$off)>;
    def PS_fia : H<(outs R:$d), (ins R:$fi, R:$base, h_imm:$off)>;
  }
}
// Constant-pool backed constants (typed immediates).
let isReMaterializable = true, isMoveImm = true in {
  def CONST32 : H<(outs R:$d), (ins i32imm:$i)>;
  def CONST64 : H<(outs D:$d), (ins i64imm:$i)>;
}
def A4_combineii : H<(outs D:$d), (ins h_imm:$hi, h_imm:$lo)>;
def A4_combineir : H<(outs D:$d), (ins h_imm:$hi, R:$lo)>;
def A4_combineri : H<(outs D:$d), (ins R:$hi, h_imm:$lo)>;
def TFRI64_V4 : H<(outs D:$d), (ins h_imm:$i)>;
def TFRI64_V2_ext : H<(outs D:$d), (ins h_imm:$hi, h_imm:$lo)>;
let isPseudo = true in
def A2_iconst : H<(outs R:$d), (ins h_imm:$i)>;
foreach s = ["n", "p"] in {
  def F2_sfimm_ # s : H<(outs R:$d), (ins h_imm:$i)>;
  def F2_dfimm_ # s : H<(outs D:$d), (ins h_imm:$i)>;
}
def C4_addipc : H<(outs R:$d), (ins h_imm:$i)>;                  // Rd = PC + #u

//===-- Floating-point conversions and compares ---------------------------===//

// A conversion: name, result class, source class.
class Cv<string name, RegisterClass dst, RegisterClass src> {
  string n = name;
  RegisterClass d = dst;
  RegisterClass s = src;
}
let Uses = Fpu in {
  // Source and result: s = single (IntRegs), d/df/ud = double word (DoubleRegs),
  // w/uw/sf = word (IntRegs).
  foreach cv = [Cv<"d2df", D, D>, Cv<"d2sf", R, D>, Cv<"df2d", D, D>,
                Cv<"df2d_chop", D, D>,
                Cv<"df2sf", R, D>, Cv<"df2ud", D, D>, Cv<"df2ud_chop", D, D>,
                Cv<"df2uw", R, D>,
                Cv<"df2uw_chop", R, D>, Cv<"df2w", R, D>, Cv<"df2w_chop", R, D>,
                Cv<"sf2d", D, R>,
                Cv<"sf2d_chop", D, R>, Cv<"sf2df", D, R>, Cv<"sf2ud", D, R>,
                Cv<"sf2ud_chop", D, R>,
                Cv<"sf2uw", R, R>, Cv<"sf2uw_chop", R, R>, Cv<"sf2w", R, R>,
                Cv<"sf2w_chop", R, R>,
                Cv<"ud2df", D, D>, Cv<"ud2sf", R, D>, Cv<"uw2df", D, R>,
                Cv<"uw2sf", R, R>,
                Cv<"w2df", D, R>, Cv<"w2sf", R, R>] in
    def F2_conv_ # cv.n : Sh1<cv.d, cv.s>;
  let isCompare = true in
  foreach c = ["eq", "ge", "gt", "uo"] in {
    def F2_dfcmp # c : Sh2<P, D, D>;
    def F2_sfcmp # c : Sh2<P, R, R>;
  }
  def F2_dfclass : ShI<P, D>;
  def F2_sfclass : ShI<P, R>;
}
// Reciprocal and inverse-square-root seeds: a value and a predicate.
def F2_sfrecipa : H<(outs R:$d, P:$e), (ins R:$s, R:$t)>;
def F2_sfinvsqrta : H<(outs R:$d, P:$e), (ins R:$s)>;

//===-- Compares and predicate logic --------------------------------------===//

let isCompare = true in {
  // Pd = cmp(Rs, Rt)
  defm "" : Fam<[N<"C2_cmpeq", 1>, N<"C2_cmpgt">, N<"C2_cmpgtu">,
                 N<"C4_cmpneq", 1>,
                 N<"C4_cmplte">, N<"C4_cmplteu">, N<"A4_cmpbeq", 1>,
                 N<"A4_cmpbgt">,
                 N<"A4_cmpbgtu">, N<"A4_cmpheq", 1>, N<"A4_cmphgt">,
                 N<"A4_cmphgtu">,
                 N<"C2_cmplt", 0, 0, 1>, N<"C2_cmpltu", 0, 0, 1>],
                (outs P:$d), (ins R:$s, R:$t)>;
  // Pd = cmp(Rs, #s)
  defm "" : Fam<[N<"C2_cmpeqi">, N<"C2_cmpgti">, N<"C2_cmpgtui">,
                 N<"C4_cmpneqi">,
                 N<"C4_cmpltei">, N<"C4_cmplteui">, N<"A4_cmpbeqi", 1>,
                 N<"A4_cmpbgti">,
                 N<"A4_cmpbgtui">, N<"A4_cmpheqi", 1>, N<"A4_cmphgti">,
                 N<"A4_cmphgtui">,
                 N<"C2_cmpgei", 0, 0, 1>, N<"C2_cmpgeui", 0, 0, 1>],
                (outs P:$d), (ins R:$s, h_imm:$i)>;
  // Pd = cmp(Rss, Rtt)
  defm "" : Fam<[N<"C2_cmpeqp", 1>, N<"C2_cmpgtp">, N<"C2_cmpgtup">],
                (outs P:$d), (ins D:$s, D:$t)>;
}
// Bit tests.
defm "" : Fam<[N<"C2_bitsclr">, N<"C2_bitsset">, N<"C4_nbitsclr">,
               N<"C4_nbitsset">,
               N<"S2_tstbit_r">, N<"S4_ntstbit_r">],
              (outs P:$d), (ins R:$s, R:$t)>;
defm "" : Fam<[N<"C2_bitsclri">, N<"C4_nbitsclri">, N<"S2_tstbit_i">,
               N<"S4_ntstbit_i">],
              (outs P:$d), (ins R:$s, h_imm:$i)>;
// Vector compares into a predicate (one bit per byte).
defm "" : Fam<[N<"A2_vcmpbeq">, N<"A2_vcmpbgtu">, N<"A2_vcmpheq">,
               N<"A2_vcmphgt">,
               N<"A2_vcmphgtu">, N<"A2_vcmpweq">, N<"A2_vcmpwgt">,
               N<"A2_vcmpwgtu">,
               N<"A4_vcmpbeq_any">, N<"A4_vcmpbgt">, N<"A6_vcmpbeq_notany">,
               N<"A4_boundscheck_hi">, N<"A4_boundscheck_lo">],
              (outs P:$d), (ins D:$s, D:$t)>;
foreach e = ["b", "h", "w"] in
  foreach c = ["eqi", "gti", "gtui"] in
    def A4_vcmp # e # c : ShI<P, D>;
let isPseudo = true in
def A4_boundscheck : Sh2<P, R, D>;
def A4_tlbmatch : Sh2<P, D, R>;

// Predicate logic.
foreach n = ["C2_and", "C2_andn", "C2_or", "C2_orn", "C2_xor", "C4_fastcorner9",
             "C4_fastcorner9_not"] in
  def n : Sh2<P, P, P>;
foreach n = ["C2_not", "C2_all8", "C2_any8"] in
  def n : Sh1<P, P>;
let isPseudo = true in
def C2_pxfer_map : Sh1<P, P>;
foreach a = ["and", "or"] in
  foreach b = ["and", "andn", "or", "orn"] in
    def C4_ # a # _ # b : H<(outs P:$d), (ins P:$s, P:$t, P:$u)>;
// Moves between predicates and general registers.
def C2_tfrpr : Sh1<R, P>;
def C2_tfrrp : Sh1<P, R>;
def C2_mask : Sh1<D, P>;
def C2_vitpack : Sh2<R, P, P>;
let isReMaterializable = true, isPseudo = true in {
  def PS_true : H<(outs P:$d), (ins)>;
  def PS_false : H<(outs P:$d), (ins)>;
}

// Carry chains: Rdd = Rss +/- Rtt + Px, Px updated.
let Constraints = "$c = $ci" in
foreach n = ["A4_addp_c", "A4_subp_c"] in
  def n : H<(outs D:$d, P:$c), (ins D:$s, D:$t, P:$ci)>;
let Constraints = "$d = $x", Defs = Ovf in
def A5_ACS : H<(outs D:$d, P:$e), (ins D:$x, D:$s, D:$t)>;
def A6_vminub_RdP : H<(outs D:$d, P:$e), (ins D:$s, D:$t)>;

//===-- Selects and predicated ALU ----------------------------------------===//

def C2_mux : H<(outs R:$d), (ins P:$u, R:$s, R:$t)>;
def C2_muxii : H<(outs R:$d), (ins P:$u, h_imm:$s, h_imm:$t)>;
def C2_muxir : H<(outs R:$d), (ins P:$u, R:$s, h_imm:$t)>;
def C2_muxri : H<(outs R:$d), (ins P:$u, h_imm:$s, R:$t)>;
def C2_vmux : H<(outs D:$d), (ins P:$u, D:$s, D:$t)>;
let isPseudo = true in
def PS_pselect : H<(outs D:$d), (ins P:$u, D:$s, D:$t)>;

// if ([!]Pu[.new]) Rd = ...  The four predicate senses.
defvar Senses = ["t", "f", "tnew", "fnew"];
let isPredicated = true in
foreach s = Senses in {
  foreach op = ["add", "sub", "and", "or", "xor"] in
    def A2_p # op # s : H<(outs R:$d), (ins P:$u, R:$s, R:$t)>;
  def A2_paddi # s : H<(outs R:$d), (ins P:$u, R:$s, h_imm:$i)>;
  foreach op = ["aslh", "asrh", "sxtb", "sxth", "zxtb", "zxth"] in
    def A4_p # op # s : H<(outs R:$d), (ins P:$u, R:$s)>;
  let isPseudo = true in {
    def A2_tfr # s : H<(outs R:$d), (ins P:$u, R:$s)>;
    def A2_tfrp # s : H<(outs D:$d), (ins P:$u, D:$s)>;
  }
}
let isPredicated = true in
foreach s = ["wt", "wf", "wnewt", "wnewf"] in
  def C2_ccombine # s : H<(outs D:$d), (ins P:$u, R:$s, R:$t)>;
let isMoveImm = true in
let isPredicated = true in
foreach s = ["it", "if", "newit", "newif"] in
  def C2_cmove # s : H<(outs R:$d), (ins P:$u, h_imm:$i)>;

//===-- Control registers ---------------------------------------------------===//

def A2_tfrcrr : Sh1<R, CtrRegs>;
def A2_tfrrcr : Sh1<CtrRegs, R>;
def A4_tfrcpp : Sh1<D, CtrRegs64>;
def A4_tfrpcp : Sh1<CtrRegs64, D>;

//===-- Loads ----------------------------------------------------------------===//

// A memory width: name fragment and register class of the value.
class W<string n, RegisterClass rc> {
  string s = n;
  RegisterClass r = rc;
}
defvar LoadW = [W<"rb", R>, W<"rub", R>, W<"rh", R>, W<"ruh", R>, W<"ri", R>,
                W<"rd", D>];
// Loads of bytes widened into halfwords (two or four of them).
defvar LoadBW = [W<"bzw2", R>, W<"bsw2", R>, W<"bzw4", D>, W<"bsw4", D>];

// Addressing forms shared by all loads.
//   io   base + #offset            rr   base + (index << #u)
//   pi   base, then base += #inc    pr   base, then base += Mu
//   pbr  bit-reversed, base += Mu   pci/pcr  circular (CS), base += #inc / Mu
//   ap   absolute-set: the address is also written to a register
//   ur   (index << #u) + #absolute
multiclass LoadForms<string w, RegisterClass rc, bit predicable> {
  let isPredicable = predicable in {
    def L2_load # w # _io : H<(outs rc:$d), (ins R:$b, h_imm:$o)>;
    let Constraints = "$b = $wb" in
    def L2_load # w # _pi : H<(outs rc:$d, R:$wb), (ins R:$b, h_imm:$o)>;
  }
  let Constraints = "$b = $wb" in {
    def L2_load # w # _pr : H<(outs rc:$d, R:$wb), (ins R:$b, ModRegs:$m)>;
    def L2_load # w # _pbr : H<(outs rc:$d, R:$wb), (ins R:$b, ModRegs:$m)>;
    let Uses = [CS] in {
      def L2_load # w # _pci : H<(outs rc:$d, R:$wb),
                                 (ins R:$b, h_imm:$o, ModRegs:$m)>;
      def L2_load # w # _pcr : H<(outs rc:$d, R:$wb), (ins R:$b, ModRegs:$m)>;
    }
  }
  def L4_load # w # _ap : H<(outs rc:$d, R:$e), (ins h_imm:$a)>;
  def L4_load # w # _ur : H<(outs rc:$d), (ins R:$x, h_imm:$u, h_imm:$a)>;
}

let mayLoad = true in {
  foreach w = LoadW in {
    defm "" : LoadForms<w.s, w.r, true>;
    let isPredicable = true in {
      def L4_load # w.s # _rr : H<(outs w.r:$d), (ins R:$b, R:$x, h_imm:$u)>;
      let Uses = [GP] in
      def L2_load # w.s # gp : H<(outs w.r:$d), (ins h_imm:$a)>;
      def PS_load # w.s # abs : H<(outs w.r:$d), (ins h_imm:$a)>;
    }
    let isPredicated = true in
    foreach s = Senses in {
      def L2_pload # w.s # s # _io : H<(outs w.r:$d),
                                       (ins P:$u, R:$b, h_imm:$o)>;
      let Constraints = "$b = $wb" in
      def L2_pload # w.s # s # _pi : H<(outs w.r:$d, R:$wb),
                                       (ins P:$u, R:$b, h_imm:$o)>;
      def L4_pload # w.s # s # _rr : H<(outs w.r:$d),
                                       (ins P:$u, R:$b, R:$x, h_imm:$sh)>;
      def L4_pload # w.s # s # _abs : H<(outs w.r:$d), (ins P:$u, h_imm:$a)>;
    }
    // Circular pseudos carrying the start address explicitly.
    let isPseudo = true, Defs = [CS], Uses = [CS], Constraints = "$b = $wb" in {
      def PS_load # w.s # _pci : H<(outs w.r:$d, R:$wb),
                                   (ins R:$b, h_imm:$o, ModRegs:$m, R:$start)>;
      def PS_load # w.s # _pcr : H<(outs w.r:$d, R:$wb),
                                   (ins R:$b, ModRegs:$m, R:$start)>;
    }
  }
  foreach w = LoadBW in
    defm "" : LoadForms<w.s, w.r, false>;

  // Byte/halfword loads shifted into the top of an existing pair (tied).
  foreach a = ["b", "h"] in {
    defvar n = "L2_loadalign" # a;
    let Constraints = "$d = $x" in {
      def n # _io : H<(outs D:$d), (ins D:$x, R:$b, h_imm:$o)>;
      def L4_loadalign # a # _ur : H<(outs D:$d),
                                     (ins D:$x, R:$b, h_imm:$u, h_imm:$a)>;
    }
    let Constraints = "$d = $x,$b = $wb" in {
      def n # _pi : H<(outs D:$d, R:$wb), (ins D:$x, R:$b, h_imm:$o)>;
      def n # _pr : H<(outs D:$d, R:$wb), (ins D:$x, R:$b, ModRegs:$m)>;
      def n # _pbr : H<(outs D:$d, R:$wb), (ins D:$x, R:$b, ModRegs:$m)>;
      let Uses = [CS] in {
        def n # _pci : H<(outs D:$d, R:$wb),
                         (ins D:$x, R:$b, h_imm:$o, ModRegs:$m)>;
        def n # _pcr : H<(outs D:$d, R:$wb), (ins D:$x, R:$b, ModRegs:$m)>;
      }
    }
    let Constraints = "$d = $x" in
    def L4_loadalign # a # _ap : H<(outs D:$d, R:$e), (ins D:$x, h_imm:$a)>;
  }

  // Acquire loads; load-locked also claims the reservation (a store).
  def L2_loadw_aq : Sh1<R, R>;
  def L4_loadd_aq : Sh1<D, R>;
  let mayStore = true in {
    def L2_loadw_locked : Sh1<R, R>;
    def L4_loadd_locked : Sh1<D, R>;
  }
  def L4_loadw_phys : Sh2<R, R, R>;

  // Predicate and control registers from a stack slot (expanded through a
  // general register).
  let isPseudo = true in {
    def LDriw_pred : H<(outs P:$d), (ins R:$b, h_imm:$o)>;
    def LDriw_ctr : H<(outs CtrRegs:$d), (ins R:$b, h_imm:$o)>;
  }
}

//===-- Stores ----------------------------------------------------------------===//

// Value widths; "new" stores take the value produced in the same packet.
defvar StoreW = [W<"rb", R>, W<"rh", R>, W<"rf", R>, W<"ri", R>, W<"rd", D>,
                 W<"rbnew", R>, W<"rhnew", R>, W<"rinew", R>];

let mayStore = true in {
  foreach w = StoreW in {
    let isPredicable = true in {
      def S2_store # w.s # _io : H<(outs), (ins R:$b, h_imm:$o, w.r:$v)>;
      def S4_store # w.s # _rr : H<(outs), (ins R:$b, R:$x, h_imm:$u, w.r:$v)>;
      let Constraints = "$b = $wb" in
      def S2_store # w.s # _pi : H<(outs R:$wb), (ins R:$b, h_imm:$o, w.r:$v)>;
      let Uses = [GP] in
      def S2_store # w.s # gp : H<(outs), (ins h_imm:$a, w.r:$v)>;
      def PS_store # w.s # abs : H<(outs), (ins h_imm:$a, w.r:$v)>;
    }
    let Constraints = "$b = $wb" in {
      def S2_store # w.s # _pr : H<(outs R:$wb),
                                   (ins R:$b, ModRegs:$m, w.r:$v)>;
      def S2_store # w.s # _pbr : H<(outs R:$wb),
                                    (ins R:$b, ModRegs:$m, w.r:$v)>;
      let Uses = [CS] in {
        def S2_store # w.s # _pci : H<(outs R:$wb),
                                      (ins R:$b, h_imm:$o, ModRegs:$m, w.r:$v)>;
        def S2_store # w.s # _pcr : H<(outs R:$wb),
                                      (ins R:$b, ModRegs:$m, w.r:$v)>;
      }
    }
    def S4_store # w.s # _ap : H<(outs R:$e), (ins h_imm:$a, w.r:$v)>;
    def S4_store # w.s # _ur : H<(outs),
                                 (ins R:$x, h_imm:$u, h_imm:$a, w.r:$v)>;

    let isPredicated = true in
    foreach s = Senses in {
      defvar io = !if(!or(!eq(s, "t"), !eq(s, "f")), "S2_pstore", "S4_pstore");
      def io # w.s # s # _io : H<(outs), (ins P:$u, R:$b, h_imm:$o, w.r:$v)>;
      let Constraints = "$b = $wb" in
      def S2_pstore # w.s # s # _pi : H<(outs R:$wb),
                                        (ins P:$u, R:$b, h_imm:$o, w.r:$v)>;
      def S4_pstore # w.s # s # _rr : H<(outs),
                                        (ins P:$u, R:$b, R:$x, h_imm:$sh,
                                         w.r:$v)>;
      def S4_pstore # w.s # s # _abs : H<(outs), (ins P:$u, h_imm:$a, w.r:$v)>;
    }
  }
  // Circular pseudos with the start address (no new-value forms).
  foreach w = [W<"rb", R>, W<"rh", R>, W<"rf", R>, W<"ri", R>, W<"rd", D>] in
    let isPseudo = true, Defs = [CS], Uses = [CS], Constraints = "$b = $wb" in {
      def PS_store # w.s # _pci : H<(outs R:$wb),
                                    (ins R:$b, h_imm:$o, ModRegs:$m, w.r:$v,
                                     R:$start)>;
      def PS_store # w.s # _pcr : H<(outs R:$wb),
                                    (ins R:$b, ModRegs:$m, w.r:$v, R:$start)>;
    }

  // Store an immediate.
  foreach w = ["b", "h", "i"] in {
    let isPredicable = true in
    def S4_storeir # w # _io : H<(outs), (ins R:$b, h_imm:$o, h_imm:$v)>;
    let isPredicated = true in
    foreach s = Senses in
      def S4_storeir # w # s # _io : H<(outs),
                                       (ins P:$u, R:$b, h_imm:$o, h_imm:$v)>;
  }

  // Release stores.
  foreach k = ["at", "st"] in {
    def S2_storew_rl_ # k # _vi : H<(outs), (ins R:$b, R:$v)>;
    def S4_stored_rl_ # k # _vi : H<(outs), (ins R:$b, D:$v)>;
  }
  // Store-conditional: the predicate says whether the reservation held.
  let mayLoad = true in {
    def S2_storew_locked : H<(outs P:$d), (ins R:$b, R:$v)>;
    def S4_stored_locked : H<(outs P:$d), (ins R:$b, D:$v)>;
  }

  let isPseudo = true in {
    def STriw_pred : H<(outs), (ins R:$b, h_imm:$o, P:$v)>;
    def STriw_ctr : H<(outs), (ins R:$b, h_imm:$o, CtrRegs:$v)>;
  }
}

//===-- Memory operations (read-modify-write) ---------------------------------===//

let mayLoad = true, mayStore = true in
foreach w = ["b", "h", "w"] in {
  foreach op = ["add", "sub", "and", "or"] in
    def L4_ # op # _memop # w # _io : H<(outs), (ins R:$b, h_imm:$o, R:$v)>;
  foreach op = ["iadd", "isub", "iand", "ior"] in
    def L4_ # op # _memop # w # _io : H<(outs), (ins R:$b, h_imm:$o, h_imm:$v)>;
}

//===-- Frames ---------------------------------------------------------------===//

// allocframe: push LR:FP at SP - 8, FP = SP - 8, SP -= #size.
let mayStore = true, Defs = [R30], Uses = [FRAMEKEY, FRAMELIMIT, R30, R31],
    Constraints = "$sp = $spin" in
def S2_allocframe : H<(outs R:$sp), (ins R:$spin, h_imm:$size)>;
// deallocframe: LR:FP = load(FP), SP = FP + 8.
let mayLoad = true, Defs = [R29], Uses = [FRAMEKEY] in
def L2_deallocframe : H<(outs D:$d), (ins R:$fp)>;

// Call-frame setup around calls (SP, FP; LR read on the way down).
let isPseudo = true in {
  let Defs = [R29, R30], Uses = [R31, R30, R29] in
  def ADJCALLSTACKDOWN : H<(outs), (ins i32imm:$amt, i32imm:$amt2)>;
  let Defs = [R29, R30, R31], Uses = [R29] in
  def ADJCALLSTACKUP : H<(outs), (ins i32imm:$amt, i32imm:$amt2)>;
}
let isPseudo = true in {
  let hasSideEffects = true, Defs = [R29] in
  def PS_alloca : H<(outs R:$d), (ins R:$size, h_imm:$align)>;
  let Uses = [R30] in
  def PS_aligna : H<(outs R:$d), (ins h_imm:$align)>;
}

//===-- Branches ---------------------------------------------------------------===//

let isBranch = true, isTerminator = true, Defs = [PC] in {
  let isBarrier = true, isPredicable = true in
  def J2_jump : H<(outs), (ins h_target:$dst)>;
  let isPredicated = true in
  foreach s = ["t", "f", "tpt", "fpt", "tnew", "fnew", "tnewpt", "fnewpt"] in
    def J2_jump # s : H<(outs), (ins P:$u, h_target:$dst)>;
  let isIndirectBranch = true in {
    let isBarrier = true, isPredicable = true in
    def J2_jumpr : H<(outs), (ins R:$s)>;
    def J2_jumprh : H<(outs), (ins R:$s)>;
    let isPredicated = true in
    foreach s = ["t", "f", "tpt", "fpt", "tnew", "fnew", "tnewpt", "fnewpt"] in
      def J2_jumpr # s : H<(outs), (ins P:$u, R:$s)>;
  }
  // Jump on register compared with zero.
  foreach c = ["z", "nz", "gtez", "ltez"] in
    foreach h = ["", "pt"] in
      def J2_jumpr # c # h : H<(outs), (ins R:$s, h_target:$dst)>;

  // Compare and jump.  The "jumpnv" forms compare a new value; the others set
  // P0 or P1 as well and use the compact-encodable registers.
  foreach t = ["t", "f"] in
    foreach h = ["t", "nt"] in {
      foreach c = ["eq", "gt", "gtu", "lt", "ltu"] in
        def J4_cmp # c # _ # t # _jumpnv_ # h : H<(outs),
                                                  (ins R:$s, R:$t,
                                                   h_target:$dst)>;
      foreach c = ["eqi", "gti", "gtui", "eqn1", "gtn1"] in
        def J4_cmp # c # _ # t # _jumpnv_ # h : H<(outs),
                                                  (ins R:$s, h_imm:$i,
                                                   h_target:$dst)>;
      def J4_tstbit0_ # t # _jumpnv_ # h : H<(outs), (ins R:$s, h_target:$dst)>;
      foreach p = [0, 1] in {
        defvar pr = !cast<Register>("P" # p);
        let Defs = [pr, PC], Uses = [pr] in {
          foreach c = ["eq", "gt", "gtu"] in
            def J4_cmp # c # _ # t # "p" # p # _jump_ # h
                : H<(outs),
                    (ins GeneralSubRegs:$s, GeneralSubRegs:$t, h_target:$dst)>;
          foreach c = ["eqi", "gti", "gtui", "eqn1", "gtn1"] in
            def J4_cmp # c # _ # t # "p" # p # _jump_ # h
                : H<(outs), (ins GeneralSubRegs:$s, h_imm:$i, h_target:$dst)>;
          def J4_tstbit0_ # t # "p" # p # _jump_ # h : H<(outs),
                                                         (ins GeneralSubRegs:$s,
                                                          h_target:$dst)>;
        }
      }
    }
  // Rd = value; jump.
  def J4_jumpseti : H<(outs GeneralSubRegs:$d), (ins h_imm:$i, h_target:$dst)>;
  def J4_jumpsetr : H<(outs GeneralSubRegs:$d),
                      (ins GeneralSubRegs:$s, h_target:$dst)>;
}
let isBranch = true, isTerminator = true, isIndirectBranch = true in
def J4_hintjumpr : H<(outs), (ins R:$s)>;

//===-- Hardware loops -----------------------------------------------------------===//

// loopN(start, count): sets LCn/SAn; loop0 also clears USR's loop flags.
class Loop<list<Register> defs, dag count> : H<(outs),
                                               !con((ins h_target:$start),
                                                    count)> {
  let Defs = defs;
}
def J2_loop0i : Loop<[LC0, SA0, USR], (ins h_imm:$n)>;
def J2_loop0r : Loop<[LC0, SA0, USR], (ins R:$n)>;
def J2_loop1i : Loop<[LC1, SA1], (ins h_imm:$n)>;
def J2_loop1r : Loop<[LC1, SA1], (ins R:$n)>;
// Constant-extended variants (LLVM 19 lists their registers in this order).
def J2_loop0iext : Loop<[SA0, LC0, USR], (ins h_imm:$n)>;
def J2_loop1iext : Loop<[SA0, LC0, USR], (ins h_imm:$n)>;
def J2_loop0rext : Loop<[SA1, LC1], (ins R:$n)>;
def J2_loop1rext : Loop<[SA1, LC1], (ins R:$n)>;
// Software-pipelined loops also set P3.
foreach k = [1, 2, 3] in {
  def J2_ploop # k # si : Loop<[LC0, P3, SA0, USR], (ins h_imm:$n)>;
  def J2_ploop # k # sr : Loop<[LC0, P3, SA0, USR], (ins R:$n)>;
}
// Loop ends: branch back to SAn while LCn says so.
let isBranch = true, isTerminator = true, isPseudo = true in {
  let Defs = [PC, LC0], Uses = [SA0, LC0] in
  def ENDLOOP0 : H<(outs), (ins h_target:$start)>;
  let Defs = [PC, LC1], Uses = [SA1, LC1] in
  def ENDLOOP1 : H<(outs), (ins h_target:$start)>;
  let Defs = [PC, LC0, LC1], Uses = [SA0, SA1, LC0, LC1] in
  def ENDLOOP01 : H<(outs), (ins h_target:$start)>;
  let Defs = [LC0, P3, PC, USR], Uses = [LC0, SA0] in
  def J2_endloop0 : H<(outs), (ins)>;
  let Defs = [LC1, PC], Uses = [LC1, SA1] in
  def J2_endloop1 : H<(outs), (ins)>;
}
let isPseudo = true, Defs = [LC0, LC1, P3, PC, USR],
    Uses = [LC0, LC1, SA0, SA1] in
def J2_endloop01 : H<(outs), (ins)>;

//===-- Calls and returns -----------------------------------------------------------===//

// Calls write the return address to LR (R31) and read SP; the callee-saved
// mask on the MachineInstr carries the rest.
let isCall = true, hasSideEffects = true, Defs = [PC, R31], Uses = [R29] in {
  let isPredicable = true in
  def J2_call : H<(outs), (ins h_target:$fn)>;
  def J2_callr : H<(outs), (ins R:$fn)>;
  let isPredicated = true in
  foreach s = ["t", "f"] in {
    def J2_call # s : H<(outs), (ins P:$u, h_target:$fn)>;
    def J2_callr # s : H<(outs), (ins P:$u, R:$fn)>;
  }
}
let isCall = true, Defs = [PC, R31] in
def J2_callrh : H<(outs), (ins R:$fn)>;
// Calls to functions that do not return.
let isCall = true, hasSideEffects = true in {
  let isPseudo = true in
  def PS_call_nr : H<(outs), (ins h_target:$fn)>;
  def PS_callr_nr : H<(outs), (ins R:$fn)>;
  let Defs = [PC, R31, R6, R7, P0] in
  def PS_call_stk : H<(outs), (ins h_target:$fn)>;
}
// Tail calls.
let isCall = true, isTerminator = true, isReturn = true, isBarrier = true,
    isPseudo = true in {
  def PS_tailcall_i : H<(outs), (ins h_target:$fn)>;
  let isBranch = true, isIndirectBranch = true, Defs = [PC] in
  def PS_tailcall_r : H<(outs), (ins R:$fn)>;
}
// Returns: jumpr LR.
let isReturn = true, isBarrier = true, isBranch = true, isTerminator = true,
    isIndirectBranch = true, Defs = [PC] in {
  let isPredicable = true in
  def PS_jmpret : H<(outs), (ins R:$lr)>;
  let isPredicated = true in
  foreach s = ["t", "f", "tnew", "fnew", "tnewpt", "fnewpt"] in
    def PS_jmpret # s : H<(outs), (ins P:$u, R:$lr)>;
}
// Return with frame teardown (deallocframe; jumpr LR).
let isReturn = true, isTerminator = true, isIndirectBranch = true,
    mayLoad = true,
    Defs = [PC, R29], Uses = [FRAMEKEY] in {
  let isBarrier = true, isPredicable = true in
  def L4_return : H<(outs D:$d), (ins R:$fp)>;
  let isPredicated = true in
  foreach s = ["t", "f", "tnew_pnt", "fnew_pnt", "tnew_pt", "fnew_pt"] in
    def L4_return_ # s : H<(outs D:$d), (ins P:$u, R:$fp)>;
}

// Out-of-line register save/restore routines.
let isCall = true, hasSideEffects = true in {
  foreach v = ["", "_EXT"] in {
    let Uses = [R29, R31] in {
      def SAVE_REGISTERS_CALL_V4 # v : H<(outs), (ins h_target:$fn)>;
      let Defs = [P0] in
      def SAVE_REGISTERS_CALL_V4STK # v : H<(outs), (ins h_target:$fn)>;
      let Defs = [R14, R15, R28] in
      def SAVE_REGISTERS_CALL_V4 # v # _PIC : H<(outs), (ins h_target:$fn)>;
      let Defs = [R14, R15, R28, P0] in
      def SAVE_REGISTERS_CALL_V4STK # v # _PIC : H<(outs), (ins h_target:$fn)>;
    }
    let Defs = [R29, R30, R31, PC] in
    def RESTORE_DEALLOC_BEFORE_TAILCALL_V4 # v : H<(outs), (ins h_target:$fn)>;
    let Defs = [R14, R15, R28, R29, R30, R31, PC] in
    def RESTORE_DEALLOC_BEFORE_TAILCALL_V4 # v # _PIC : H<(outs),
                                                          (ins h_target:$fn)>;
  }
}
let isCall = true, isReturn = true, isBarrier = true, isBranch = true,
    isTerminator = true in
foreach v = ["", "_EXT"] in {
  let Defs = [R29, R30, R31, PC] in
  def RESTORE_DEALLOC_RET_JMP_V4 # v : H<(outs), (ins h_target:$fn)>;
  let Defs = [R14, R15, R28, R29, R30, R31, PC] in
  def RESTORE_DEALLOC_RET_JMP_V4 # v # _PIC : H<(outs), (ins h_target:$fn)>;
}

//===-- Miscellaneous ----------------------------------------------------------===//

def A2_nop : H<(outs), (ins)>;
let hasSideEffects = true in {
  def J2_trap0 : H<(outs), (ins h_imm:$i)>;
  let isPseudo = true in
  def PS_crash : H<(outs), (ins)>;
  def Y2_barrier : H<(outs), (ins)>;
  let mayLoad = true, mayStore = true in
  foreach n = ["Y2_dccleana", "Y2_dccleaninva", "Y2_dcinva", "Y2_dczeroa"] in
    def n : H<(outs), (ins R:$a)>;
  def Y2_dcfetchbo : H<(outs), (ins R:$a, h_imm:$o)>;
}

//===-- HVX spill code --------------------------------------------------===//
//
// The pseudo stores and loads of HVX vectors, vector pairs and vector
// predicates LLVM 19's HexagonInstrInfo spills with: base register and
// offset, the value after them for stores. They are expanded after
// allocation into aligned or unaligned vector memory instructions (as the
// slot's alignment allows; a predicate goes through a vector register).
class HvxSpill<string n, RegisterClass rc> {
  string s = n;
  RegisterClass cls = rc;
}
foreach v = [HvxSpill<"rv", HvxVR>, HvxSpill<"rw", HvxWR>,
             HvxSpill<"rq", HvxQR>] in {
  let isPseudo = true in {
    let mayStore = true in
    def PS_vstore # v.s # _ai : H<(outs), (ins R:$b, h_imm:$o, v.cls:$v)>;
    let mayLoad = true in
    def PS_vload # v.s # _ai : H<(outs v.cls:$d), (ins R:$b, h_imm:$o)>;
  }
}
// Copies: a vector assigned, a pair built from the source's halves, a
// predicate and-ed with itself.
def V6_vassign : H<(outs HvxVR:$d), (ins HvxVR:$s)>;
let isRegSequence = true in
def V6_vcombine : H<(outs HvxWR:$d), (ins HvxVR:$hi, HvxVR:$lo)>;
def V6_pred_and : H<(outs HvxQR:$d), (ins HvxQR:$a, HvxQR:$b)>;
