//===- regalloc.td - base classes for tdgen register descriptions ---------===//
//
// This prelude is our own text, written for tdgen. It defines the classes a
// register description derives from, with the same class names, field names,
// field types, defaults and meanings as LLVM 19's llvm/Target/Target.td (and,
// for value types, llvm/CodeGen/ValueTypes.td), so that a register file
// written against LLVM evaluates to the same register facts under either
// prelude. Only the register and instruction concepts are covered; scheduling,
// assembler-matcher and selection-DAG machinery are left out.
//
// Use it with `include "regalloc.td"` and `-I tdgen/prelude` (tdgen also
// searches this directory by default), then `def MyTarget : Target;`:
//
//     include "regalloc.td"
//     include "registers.td"
//     def MyTarget : Target;
//
// Where we go beyond LLVM (marked "EXTENSION" below):
//   * AllocationOrderPolicy and RegisterClass.KeepCalleeSavedOrder: a
//     declarative way to keep cheap (for instance hardware-saved)
//     callee-saved registers in place in the allocation order, instead of
//     moving them to the end as LLVM's RegisterClassInfo always does.
//   * ReservedRegisters: the registers no function may allocate (stack
//     pointer, frame pointer, ...), which LLVM targets give in C++
//     (getReservedRegs) and a tdgen target gives here.
//   * SpillTemplates and CannotSpill: spill, reload and copy code per
//     register class (per subtarget and frame where it differs), or why a
//     class cannot be spilled; MemoryFold: memory-operand folds;
//     PointerRegClass: the class of a pointer-like operand.
//   * UnconditionalBranch and ConditionalBranch: the branch facts that
//     splitting a critical edge needs (LLVM's insertBranch and
//     reverseBranchCondition, in C++ there).
//   * ThreeAddressForm: what a two-address instruction becomes when its
//     tie would cost a copy (LLVM's convertToThreeAddress, in C++ there).
// Everything else means exactly what it means to llvm-tblgen 19.
//
// Code fragments ([{ ... }], e.g. AltOrderSelect) hold a small language of
// tdgen's, where LLVM expects C++ (see AltOrderSelect under RegisterClass).
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Value types
//
// A ValueType names a machine value type. `Value` is its number in LLVM 19's
// MVT enumeration and `Size` its width in bits (0 when it has no fixed width).
// A register class's first value type gives its register and spill size when
// neither RegInfos nor Size says otherwise. `LLVMName` is the name printed in
// generated tables (MVT::<LLVMName>).
//===----------------------------------------------------------------------===//

class ValueType<int size, int value> {
  string Namespace = "MVT";
  string LLVMName = NAME;
  int Size = size;
  int Value = value;
  int nElem = 1;                 // element count (1 for scalars)
  ValueType ElementType = ?;     // element type of a vector
  bit isOverloaded = false;      // a pattern wildcard such as iAny
  bit isInteger = false;
  bit isFP = false;
  bit isVector = false;
  bit isScalable = false;        // a vector whose length scales at run time
  bit isNormalValueType = true;  // false for the TableGen-only pseudo types
}

// Helpers for the families below.
class VTAny<int value> : ValueType<0, value> { let isOverloaded = true; }
class VTInt<int size, int value> : ValueType<size, value> { let isInteger = true; }
class VTFP<int size, int value> : ValueType<size, value> { let isFP = true; }
// A fixed vector: `nelem` elements of type `elt`; its size is the product.
class VTVec<int nelem, ValueType elt, int value>
    : ValueType<!mul(nelem, elt.Size), value> {
  let nElem = nelem;
  let ElementType = elt;
  let isVector = true;
  let isInteger = elt.isInteger;
  let isFP = elt.isFP;
}
// A scalable vector: `nelem` elements times a run-time factor (nxv...).
class VTScalableVec<int nelem, ValueType elt, int value>
    : VTVec<nelem, elt, value> {
  let isScalable = true;
}

defset list<ValueType> ValueTypes = {

def OtherVT : ValueType<0, 1> { let LLVMName = "Other"; }

// Integers and floating point, numbered 2 to 16.
def i1   : VTInt<1, 2>;
def i2   : VTInt<2, 3>;
def i4   : VTInt<4, 4>;
def i8   : VTInt<8, 5>;
def i16  : VTInt<16, 6>;
def i32  : VTInt<32, 7>;
def i64  : VTInt<64, 8>;
def i128 : VTInt<128, 9>;
def bf16    : VTFP<16, 10>;
def f16     : VTFP<16, 11>;
def f32     : VTFP<32, 12>;
def f64     : VTFP<64, 13>;
def f80     : VTFP<80, 14>;
def f128    : VTFP<128, 15>;
def ppcf128 : VTFP<128, 16>;

// Vectors, one family per element type: the element counts of the family in
// enumeration order, numbered consecutively from the family's first number.
// For example the first line defines v1i1 = 17, v2i1 = 18, ..., v2048i1 = 29.
foreach k = !range(13) in { defvar n = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048][k];
  def v # n # i1 : VTVec<n, i1, !add(17, k)>; }
foreach k = !range(2) in { defvar n = [128, 256][k];
  def v # n # i2 : VTVec<n, i2, !add(30, k)>; }
foreach k = !range(2) in { defvar n = [64, 128][k];
  def v # n # i4 : VTVec<n, i4, !add(32, k)>; }
foreach k = !range(12) in { defvar n = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024][k];
  def v # n # i8 : VTVec<n, i8, !add(34, k)>; }
foreach k = !range(11) in { defvar n = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512][k];
  def v # n # i16 : VTVec<n, i16, !add(46, k)>; }
foreach k = !range(20) in { defvar n = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 32, 64, 128, 256, 512, 1024, 2048][k];
  def v # n # i32 : VTVec<n, i32, !add(57, k)>; }
foreach k = !range(10) in { defvar n = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256][k];
  def v # n # i64 : VTVec<n, i64, !add(77, k)>; }
foreach k = !range(1) in { defvar n = [1][k];
  def v # n # i128 : VTVec<n, i128, !add(87, k)>; }
foreach k = !range(11) in { defvar n = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512][k];
  def v # n # f16 : VTVec<n, f16, !add(88, k)>; }
foreach k = !range(8) in { defvar n = [2, 3, 4, 8, 16, 32, 64, 128][k];
  def v # n # bf16 : VTVec<n, bf16, !add(99, k)>; }
foreach k = !range(20) in { defvar n = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 32, 64, 128, 256, 512, 1024, 2048][k];
  def v # n # f32 : VTVec<n, f32, !add(107, k)>; }
foreach k = !range(10) in { defvar n = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256][k];
  def v # n # f64 : VTVec<n, f64, !add(127, k)>; }
foreach k = !range(7) in { defvar n = [1, 2, 4, 8, 16, 32, 64][k];
  def nxv # n # i1 : VTScalableVec<n, i1, !add(137, k)>; }
foreach k = !range(7) in { defvar n = [1, 2, 4, 8, 16, 32, 64][k];
  def nxv # n # i8 : VTScalableVec<n, i8, !add(144, k)>; }
foreach k = !range(6) in { defvar n = [1, 2, 4, 8, 16, 32][k];
  def nxv # n # i16 : VTScalableVec<n, i16, !add(151, k)>; }
foreach k = !range(6) in { defvar n = [1, 2, 4, 8, 16, 32][k];
  def nxv # n # i32 : VTScalableVec<n, i32, !add(157, k)>; }
foreach k = !range(6) in { defvar n = [1, 2, 4, 8, 16, 32][k];
  def nxv # n # i64 : VTScalableVec<n, i64, !add(163, k)>; }
foreach k = !range(6) in { defvar n = [1, 2, 4, 8, 16, 32][k];
  def nxv # n # f16 : VTScalableVec<n, f16, !add(169, k)>; }
foreach k = !range(6) in { defvar n = [1, 2, 4, 8, 16, 32][k];
  def nxv # n # bf16 : VTScalableVec<n, bf16, !add(175, k)>; }
foreach k = !range(5) in { defvar n = [1, 2, 4, 8, 16][k];
  def nxv # n # f32 : VTScalableVec<n, f32, !add(181, k)>; }
foreach k = !range(4) in { defvar n = [1, 2, 4, 8][k];
  def nxv # n # f64 : VTScalableVec<n, f64, !add(186, k)>; }

// Special and target-specific types.
def x86mmx         : ValueType<64, 190>;
def Glue           : ValueType<0, 191>;    // scheduling glue, no value
def isVoid         : ValueType<0, 192>;
def untyped        : ValueType<8, 193> { let LLVMName = "Untyped"; }
def funcref        : ValueType<0, 194>;
def externref      : ValueType<0, 195>;
def exnref         : ValueType<0, 196>;
def x86amx         : ValueType<8192, 197>;
def i64x8          : ValueType<512, 198>;  // eight consecutive 64-bit GPRs
def aarch64svcount : ValueType<16, 199>;
def spirvbuiltin   : ValueType<0, 200>;

// Pseudo types that exist only inside TableGen.
let isNormalValueType = false in {
  def token      : ValueType<0, 248>;
  def MetadataVT : ValueType<0, 249> { let LLVMName = "Metadata"; }
  def iPTRAny    : VTAny<250>;   // a pointer of any address space
  def vAny       : VTAny<251>;   // any vector
  def fAny       : VTAny<252>;   // any floating-point type
  def iAny       : VTAny<253>;   // any integer
  def iPTR       : ValueType<0, 254>;  // the target's pointer width
  def Any        : VTAny<255>;   // anything at all
}

} // defset ValueTypes

// A pointer type for patterns: the scalar it is as wide as, and its address
// space.
class PtrValueType<ValueType scalar, int addrspace>
    : ValueType<scalar.Size, scalar.Value> {
  int AddrSpace = addrspace;
}

//===----------------------------------------------------------------------===//
// Hardware modes
//
// A HwMode is a set of subtarget features under which some sizes and types
// differ (e.g. Hexagon's 64- and 128-byte vector modes). DefaultMode applies
// when no other mode does; a target with no modes has only DefaultMode.
// A function is in the first mode (in name order) whose feature string
// ("+a,-b") its features satisfy: every "+" feature on, every "-" one off.
// A *ByHwMode record pairs its Modes list with an Objects list of the same
// length: Objects[i] applies in Modes[i].
//===----------------------------------------------------------------------===//

class Predicate<string cond> {
  string CondString = cond;
  bit AssemblerMatcherPredicate = false;
  dag AssemblerCondDag;
  string PredicateName = "";
  bit RecomputePerFunction = false;
}

// A subtarget feature (`-mattr=+Name`, IR's "target-features"): Implies
// lists the features it turns on with it. tdgen reads Name and Implies,
// numbers the features (at most 64) and closes each over Implies; a
// function's features, from its IR "target-features" string (entries in
// order, later ones winning) and `regalloc alloc --mattr`, select its spill
// templates, its HW mode and, through func.has_feature("Name") in an
// AltOrderSelect, its allocation orders. FieldName and Value say, as in
// LLVM, which subtarget field the feature sets.
class SubtargetFeature<string n, string f, string v, string d,
                       list<SubtargetFeature> i = []> {
  string Name = n;
  string FieldName = f;
  string Value = v;
  string Desc = d;
  list<SubtargetFeature> Implies = i;
}

class HwMode<string FS, list<Predicate> Ps> {
  string Features = FS;          // e.g. "+feat1,-feat2"
  list<Predicate> Predicates = Ps;
}
def DefaultMode : HwMode<"", []>;

class HwModeSelect<list<HwMode> Ms> {
  list<HwMode> Modes = Ms;
}

// A value type that depends on the mode; usable wherever a ValueType is.
class ValueTypeByHwMode<list<HwMode> Ms, list<ValueType> Ts>
    : HwModeSelect<Ms>, ValueType<0, 0> {
  list<ValueType> Objects = Ts;
}

class PtrValueTypeByHwMode<ValueTypeByHwMode scalar, int addrspace>
    : HwModeSelect<scalar.Modes>, PtrValueType<ValueType<0, 0>, addrspace> {
  list<ValueType> Objects = scalar.Objects;
}

// Register size, spill-slot size and spill-slot alignment, all in bits.
class RegInfo<int RS, int SS, int SA> {
  int RegSize = RS;
  int SpillSize = SS;
  int SpillAlignment = SA;
}

class RegInfoByHwMode<list<HwMode> Ms = [], list<RegInfo> Ts = []>
    : HwModeSelect<Ms> {
  list<RegInfo> Objects = Ts;
}

//===----------------------------------------------------------------------===//
// Sub-register indices
//===----------------------------------------------------------------------===//

// The bits a sub-register index covers: Size bits starting at bit Offset.
class SubRegRange<int size, int offset = 0> {
  int Size = size;
  int Offset = offset;
}

class SubRegRangeByHwMode<list<HwMode> Ms = [], list<SubRegRange> Ts = []>
    : HwModeSelect<Ms> {
  list<SubRegRange> Objects = Ts;
}

// Names one way of addressing a part of a register (sub_32, dsub_0, ...).
//   Size, Offset   the bits covered; Offset -1 means "not at a fixed place"
//                  (an index used for elements of register tuples).
//   SubRegRanges   per-mode Size/Offset; when it has no DefaultMode entry,
//                  Size/Offset give the default mode's range.
//   ComposedOf     [A, B]: this index is A followed by B (see below).
//   CoveringSubRegIndices
//                  indices whose parts together make up this one; only needed
//                  to name a concatenation that would otherwise get a
//                  synthesized name such as dsub_1_dsub_2.
class SubRegIndex<int size, int offset = 0> {
  string Namespace = "";
  SubRegRangeByHwMode SubRegRanges;
  int Size = size;
  int Offset = offset;
  list<SubRegIndex> ComposedOf = [];
  list<SubRegIndex> CoveringSubRegIndices = [];
}

// The index reached by applying A, then B to the resulting sub-register.
// Its size is B's; its offset is A's plus B's, or -1 if either is -1.
class ComposedSubRegIndex<SubRegIndex A, SubRegIndex B>
    : SubRegIndex<B.Size, !if(!or(!eq(A.Offset, -1), !eq(B.Offset, -1)), -1,
                              !add(A.Offset, B.Offset))> {
  let ComposedOf = [A, B];
}

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

// An alternative set of assembly names, selected per register class.
class RegAltNameIndex {
  string Namespace = "";
  RegAltNameIndex FallbackRegAltNameIndex = ?;  // tried when a name is missing
}
def NoRegAltName : RegAltNameIndex;

// One physical register. `n` is its assembly name.
//   Aliases          registers that overlap this one without being sub- or
//                    super-registers; each pair shares one extra register
//                    unit.
//   SubRegs, SubRegIndices
//                    the immediate sub-registers (disjoint from each other)
//                    and the index naming each; deeper sub-registers are
//                    inherited from them.
//   DwarfNumbers     debug register numbers per flavour (-1 undefined,
//                    -2 invalid in that flavour).
//   CostPerUse       extra cost of an instruction using the register, one
//                    value per cost model (missing values count as 0).
//   CoveredBySubRegs the sub-registers together hold the whole value (AX is
//                    AH:AL; EAX is not just AX).
//   HWEncoding       the number the hardware encodes this register as.
//   isArtificial     exists only for modelling (e.g. a phony high half).
//   isConstant       always reads the same value (a zero register).
//   PositionOrder    registers are enumerated by PositionOrder first, so a
//                    higher value moves a register towards the end.
class Register<string n, list<string> altNames = []> {
  string Namespace = "";
  string AsmName = n;
  list<string> AltNames = altNames;
  list<Register> Aliases = [];
  list<Register> SubRegs = [];
  list<SubRegIndex> SubRegIndices = [];
  list<RegAltNameIndex> RegAltNameIndices = [];
  list<int> DwarfNumbers = [];
  list<int> CostPerUse = [0];
  bit CoveredBySubRegs = false;
  bits<16> HWEncoding = 0;
  bit isArtificial = false;
  bit isConstant = false;
  int PositionOrder = 0;
}

// A register with sub-registers; SubRegIndices is usually set with `let`.
class RegisterWithSubRegs<string n, list<Register> subregs> : Register<n> {
  let SubRegs = subregs;
}

// Mixins for debug numbering.
class DwarfRegNum<list<int> Numbers> {
  list<int> DwarfNumbers = Numbers;
}
// Use the debug numbers of `reg` (which must have its own).
class DwarfRegAlias<Register reg> {
  Register DwarfAlias = reg;
}

//===----------------------------------------------------------------------===//
// Register classes and set expressions
//===----------------------------------------------------------------------===//

// Anything that can type an instruction operand.
class DAGOperand {
  string OperandNamespace = "MCOI";
  string DecoderMethod = "";
}

// A set of registers that can hold the same value types.
//   Namespace, RegTypes  the target namespace and the value types held.
//   RegInfos             per-mode register size, spill size and alignment.
//   Size                 spill size in bits (0: from RegInfos, else from the
//                        first value type).
//   Alignment            spill-slot alignment in bits.
//   CopyCost             cost of a register-to-register copy (negative:
//                        very expensive or impossible).
//   MemberList           a set expression (see below); its order is the
//                        default allocation order.
//   altNameIndex         which alternative assembly names to print.
//   isAllocatable        0 for classes that only constrain operands.
//   AltOrders            further allocation orders, each a set expression
//                        whose members must all be in the class.
//   AltOrderSelect       code returning which order to use for a function:
//                        0 for MemberList, i for AltOrders[i-1]. Not C++
//                        as in LLVM: the body of a function of `func`, the
//                        function being allocated, in this language (the
//                        same for the regalloc! macro, which compiles it,
//                        and for run-time tables, which interpret it):
//                          integer literals (order indices), true, false;
//                          func.has_feature("c")    the function's subtarget
//                                                   has feature Name "c" (or
//                                                   one implying it);
//                          func.has_calls(), func.has_frame_pointer(),
//                          func.has_base_pointer();
//                          !, &&, ||, ==, !=, <, <=, >, >=, ( );
//                          if c { .. } else if d { .. } else { .. };
//                          return N;
//                        its value is its last expression or a return.
//                        Checked when the description is read: anything
//                        else is an error at its place; so are a feature
//                        no SubtargetFeature declares, an AltOrderSelect
//                        without AltOrders, and an index of an order the
//                        class does not have for some combination of the
//                        facts and features the code asks for. Example
//                        (RISC-V's compressed registers, docs/new-target.md):
//                          let AltOrders = [(sequence "X%u", 8, 15)];
//                          let AltOrderSelect =
//                            [{ if func.has_feature("c") { 1 } else { 0 } }];
//   AllocationPriority   0..31; greedy assigns higher priorities first.
//   GlobalPriority       always use greedy's global priority heuristic.
//   GeneratePressureSet  make a register-pressure set for the class.
//   Weight               pressure weight per register (default: computed
//                        from register units).
//   DiagnosticType, DiagnosticString
//                        assembler diagnostics for a mismatched operand.
//   TSFlags              target-specific flags.
//   BaseClassOrder       marks a base class of its members; a lower value
//                        wins when a register is in several.
class RegisterClass<string namespace, list<ValueType> regTypes, int alignment,
                    dag regList, RegAltNameIndex idx = NoRegAltName>
    : DAGOperand {
  string Namespace = namespace;
  RegInfoByHwMode RegInfos;
  list<ValueType> RegTypes = regTypes;
  int Size = 0;
  int Alignment = alignment;
  int CopyCost = 1;
  dag MemberList = regList;
  RegAltNameIndex altNameIndex = idx;
  bit isAllocatable = true;
  list<dag> AltOrders = [];
  code AltOrderSelect = [{}];
  int AllocationPriority = 0;
  bit GlobalPriority = false;
  bit GeneratePressureSet = true;
  int Weight = ?;
  string DiagnosticType = "";
  string DiagnosticString = "";
  bits<8> TSFlags = 0;
  int BaseClassOrder = ?;
  // EXTENSION (not in LLVM): per-class override of the allocation-order
  // policy; see AllocationOrderPolicy below.
  //   ? (unset)  follow the target's AllocationOrderPolicy;
  //   1          keep every callee-saved register of this class in its
  //              place in the order (treat all of them as cheap);
  //   0          LLVM's behaviour for this class: move every register that
  //              overlaps a callee-saved register to the end, cheap or not.
  // A class tdgen synthesizes takes the value of the super-class it inherits
  // its allocation orders from.
  bit KeepCalleeSavedOrder = ?;
}

// Set expressions. MemberList, AltOrders, CalleeSavedRegs lists and
// RegisterTuples operands are dags evaluated to ordered sets (duplicates
// dropped, first occurrence kept). An operand may be a register, a register
// class, a tuple set, a callee-saved set or a nested expression.
//   (add A, B, ...)            union, in order of first occurrence
//   (sub A, B, ...)            A without the members of B, ...
//   (and A, B)                 the members of A that are also in B
//   (shl A, n)                 A without its first n members
//   (trunc A, n)               the first n members of A
//   (rotl A, n), (rotr A, n)   A rotated n places left / right
//   (decimate A, n)            every n-th member of A, starting with the first
//   (interleave A, B, ...)     A[0], B[0], ..., A[1], B[1], ...
//   (sequence "R%u", a, b)     R<a> ... R<b>, counting down when a > b;
//   (sequence "R%u", a, b, s)  with step s
def add;
def sub;
def and;
def shl;
def trunc;
def rotl;
def rotr;
def decimate;
def interleave;
def sequence;

// Synthesizes super-registers by zipping lists of registers: the i-th tuple
// has Regs[0][i], Regs[1][i], ... as sub-registers with Indices[0],
// Indices[1], ...; it is named by joining their names with "_" (D1_D2). All
// lists must have the same length. The tuples take their other fields from
// their first sub-register and can only be reached through set expressions
// naming this record. RegNames, if given, are their assembly names.
class RegisterTuples<list<SubRegIndex> Indices, list<dag> Regs,
                     list<string> RegNames = []> {
  list<dag> SubRegs = Regs;
  list<SubRegIndex> SubRegIndices = Indices;
  list<string> RegAsmNames = RegNames;
  int PositionOrder = 0;
}

// A named group of register classes ("general purpose", "fixed", ...).
class RegisterCategory<list<RegisterClass> classes> {
  list<RegisterClass> Classes = classes;
}

//===----------------------------------------------------------------------===//
// Callee-saved registers
//===----------------------------------------------------------------------===//

// A calling convention's preserved registers. SaveList (a set expression) is
// what the prologue saves, in this order; OtherPreserved are preserved
// without being saved (e.g. by register windows) and appear only in the
// register mask. The mask also covers every sub-register, every
// super-register wholly covered by preserved sub-registers, and constant
// registers.
class CalleeSavedRegs<dag saves> {
  dag SaveList = saves;
  dag OtherPreserved;
}

//===----------------------------------------------------------------------===//
// EXTENSION (not in LLVM): allocation-order policy
//
// LLVM's RegisterClassInfo moves every register that shares a register unit
// with a callee-saved register of the function to the end of each allocation
// order, so that callee-saved registers are used only after the
// caller-saved ones. That is right when saving costs a store and a load, and
// wrong when the hardware saves some of them for nothing (register banks,
// windowed or shadow registers, a free multi-register push).
//
// A target declares at most one AllocationOrderPolicy def:
//   CheapCalleeSaved  a set expression of callee-saved registers that cost
//                     nothing extra to use. A register overlapping only
//                     cheap callee-saved registers keeps its place in the
//                     order; one that overlaps any other callee-saved
//                     register still moves to the end, as in LLVM.
// Without such a def, or with an empty set, allocation orders are exactly
// LLVM's. RegisterClass.KeepCalleeSavedOrder overrides the policy per class.
// Reserved registers are dropped and hints go first as in LLVM either way.
//
// Example: R16..R23 are callee-saved, but R16..R19 are banked by the
// hardware on entry, so using them is free; the FPR class keeps LLVM's
// behaviour; the scratch-heavy ACC class keeps its written order entirely.
//
//     def MyCSR : CalleeSavedRegs<(sequence "R%u", 16, 23)>;
//     def MyPolicy : AllocationOrderPolicy {
//       let CheapCalleeSaved = (sequence "R%u", 16, 19);
//     }
//     def GPR : RegisterClass<"My", [i32], 32, (sequence "R%u", 0, 31)>;
//         // order: R0..R15, R16..R19 (in place), R24..R31, then R20..R23
//     def FPR : RegisterClass<"My", [f64], 64, (sequence "F%u", 0, 31)> {
//       let KeepCalleeSavedOrder = 0;
//     }
//     def ACC : RegisterClass<"My", [i32], 32, (add R20, R21, R2, R3)> {
//       let KeepCalleeSavedOrder = 1;   // R20, R21, R2, R3 as written
//     }
//===----------------------------------------------------------------------===//

class AllocationOrderPolicy {
  dag CheapCalleeSaved = (add);
}

//===----------------------------------------------------------------------===//
// EXTENSION: reserved registers
//
// A target declares at most one ReservedRegisters def:
//   Always                 a set expression of registers no function may
//                          allocate (stack pointer, thread pointer, ...);
//   FramePointer           registers reserved only in a function that keeps
//                          a frame pointer;
//   FramePointerInNonLeaf  every function that makes calls keeps a frame
//                          pointer (AAPCS64 frame records, clang's
//                          -mframe-pointer=non-leaf); otherwise only a function
//                          whose frame needs one keeps one: variable-sized
//                          stack objects, a taken frame address, an opaque
//                          stack-pointer adjustment (hasOpaqueSPAdjustment,
//                          e.g. inline assembly that moves the stack
//                          pointer), or a realigned stack (below).
//   StackAlignment         the stack alignment the calling convention
//                          guarantees, in bytes (a power of two). A function
//                          whose frame asks for more (frameInfo's
//                          maxAlignment) realigns its stack on entry, and a
//                          realigned function keeps a frame pointer, since
//                          the stack pointer's distance to the incoming
//                          arguments is no longer a constant. 0: the target
//                          never realigns (the rule is off).
//   BasePointer            registers reserved only in a function that needs a
//                          base pointer: one with variable-sized stack
//                          objects or an opaque stack-pointer adjustment (the
//                          stack pointer cannot address locals) whose locals
//                          the frame pointer cannot reach either, because the
//                          stack is realigned (their distance from the frame
//                          pointer is unknown) or the local frame is at least
//                          BasePointerFrameSize bytes (frameInfo's
//                          localFrameSize; too far for the target's short
//                          negative offsets). Naming BasePointer registers
//                          while StackAlignment and BasePointerFrameSize are
//                          both 0 is an error: no function could need them.
//   BasePointerFrameSize   see BasePointer; 0: only a realigned stack makes a
//                          function need the base pointer. Needs a
//                          BasePointer register.
//   SpillRealignNeedsFramePointer
//                          a spill slot may ask for more alignment than
//                          StackAlignment only in a function that already
//                          keeps a frame pointer when allocation starts (and
//                          a base pointer too if its stack pointer moves at
//                          run time): realigning needs them, and they can no
//                          longer be reserved then (X86RegisterInfo's
//                          canRealignStack). Elsewhere the slot gets the
//                          stack's alignment and the class's UnalignedSpill
//                          and UnalignedReload templates are used. false:
//                          a spill slot always gets its class's alignment.
//   Untracked              registers LLVM's getReservedRegs reports reserved
//                          that allocation need not know of (no class
//                          allocates them, or LLVM's own allocator never
//                          picks them): data-flow analyses after allocation
//                          (RDF, its liveness) leave them untracked. Each
//                          named register and the registers containing it
//                          are untracked, not those merely overlapping it
//                          (LLVM's markSuperRegs): naming a control register
//                          that aliases four predicates leaves the
//                          predicates tracked. Allocation is unchanged.
// Reserving a register reserves every register that shares a register unit
// with it: naming RSP reserves ESP, SP and SPL too, and naming R29 on a target
// with register pairs reserves the pair holding it. Reserved registers are
// never allocated, are left out of allocation orders and live-in lists, and
// the allocation checker does not track their values.
//
// Example: SP always, FP (and its 32-bit half) in functions with a frame;
// the stack is 16-byte aligned, and X19 is the base pointer of a function
// with variable-sized objects and a realigned stack or 256 bytes of locals.
//
//     def MyReserved : ReservedRegisters {
//       let Always = (add SP);
//       let FramePointer = (add FP);
//       let FramePointerInNonLeaf = true;
//       let StackAlignment = 16;
//       let BasePointer = (add X19);
//       let BasePointerFrameSize = 256;
//     }
//===----------------------------------------------------------------------===//

// EXTENSION: registers reserved in a function whose subtarget lacks any of
// Features (x86 reserves XMM16-XMM31, with the YMM and ZMM registers holding
// them, without AVX-512: X86RegisterInfo::getReservedRegs). Reserving a
// register reserves every register overlapping it, as above.
//     def : ReservedWithoutFeatures<[FeatureAVX512], (sequence "XMM%u", 16, 31)>;
class ReservedWithoutFeatures<list<SubtargetFeature> fs, dag regs> {
  list<SubtargetFeature> Features = fs;
  dag Registers = regs;
}

class ReservedRegisters {
  dag Always = (add);
  dag FramePointer = (add);
  bit FramePointerInNonLeaf = false;
  int StackAlignment = 0;
  dag BasePointer = (add);
  int BasePointerFrameSize = 0;
  bit SpillRealignNeedsFramePointer = false;
  dag Untracked = (add);
}

//===----------------------------------------------------------------------===//
// EXTENSION: the pre-allocation passes' target choices
//
// LLVM's targets make these in C++ (TargetSubtargetInfo hooks); a target
// states them in at most one PreAllocationPolicy def, and without one each
// takes LLVM's default:
//   JoinGlobalCopies  the register coalescer, walking blocks deepest loop
//                     first, holds back a copy whose registers both live in
//                     its block and joins it only when the walk leaves that
//                     loop depth, after the copies that cross blocks (LLVM's
//                     enableJoinGlobalCopies, true where the subtarget runs
//                     the machine scheduler). false: every copy in block
//                     order.
//   TracksSubRegLiveness  liveness is followed lane by lane (sub-register
//                     by sub-register): detect-dead-lanes runs, and the
//                     allocators' interference and rewriting follow
//                     lanes (LLVM's enableSubRegLiveness, a subtarget
//                     hook). false: whole registers.
//
//     def MyPreAllocation : PreAllocationPolicy {
//       let JoinGlobalCopies = true;
//       let TracksSubRegLiveness = true;
//     }
//===----------------------------------------------------------------------===//

class PreAllocationPolicy {
  bit JoinGlobalCopies = false;
  bit TracksSubRegLiveness = false;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

// Markers for operand lists: (outs GPR:$dst), (ins GPR:$a, GPR:$b); `ops` is
// the neutral spelling used inside operands.
def ops;
def outs;
def ins;
def variable_ops;   // the instruction takes a variable number of operands

// An operand whose register class the target picks at run time (a pointer
// register class of kind Kind).
class PointerLikeRegClass<int Kind> {
  int RegClassKind = Kind;
}
def ptr_rc : PointerLikeRegClass<0>;

//===----------------------------------------------------------------------===//
// EXTENSION (not in LLVM): the register class a pointer-like operand stands for
//
// LLVM's TargetRegisterInfo::getPointerRegClass says in C++ which register
// class an operand of type PointerLikeRegClass<Kind> takes (x86: kind 2, the
// base of an instruction that also names AH/BH/CH/DH, takes GR64_NOREX).
// Here a target states it with one def per kind:
//   def : PointerRegClass<2, GR64_NOREX>;
// An operand of a kind without such a def takes any register of its value's
// class. tdgen checks that each kind is given once.
//===----------------------------------------------------------------------===//

class PointerRegClass<int kind, RegisterClass rc> {
  int Kind = kind;
  RegisterClass Class = rc;
}

// A class of assembly operands for the assembly matcher.
class AsmOperandClass {
  string Name = ?;
  list<AsmOperandClass> SuperClasses = [];
  string PredicateMethod = ?;
  string RenderMethod = ?;
  string ParserMethod = ?;
  string DiagnosticType = "";
  string DiagnosticString = "";
  bit IsOptional = false;
  string DefaultMethod = ?;
}
def ImmAsmOperand : AsmOperandClass { let Name = "Imm"; }

// A non-register operand (an immediate, an address, ...) of value type ty;
// MIOperandInfo lists its sub-operands when it has several.
class Operand<ValueType ty> : DAGOperand {
  ValueType Type = ty;
  string PrintMethod = "printOperand";
  string EncoderMethod = "";
  bit hasCompleteDecoder = true;
  string OperandType = "OPERAND_UNKNOWN";
  dag MIOperandInfo = (ops);
  code MCOperandPredicate;
  AsmOperandClass ParserMatchClass = ImmAsmOperand;
}

// A register operand restricted to a class, with its own printing method.
class RegisterOperand<RegisterClass regclass, string pm = "printOperand">
    : DAGOperand {
  RegisterClass RegClass = regclass;
  string PrintMethod = pm;
  string EncoderMethod = "";
  AsmOperandClass ParserMatchClass;
  string OperandType = "OPERAND_REGISTER";
  Register GIZeroRegister = ?;
}

let OperandType = "OPERAND_IMMEDIATE" in {
  def i1imm  : Operand<i1>;
  def i8imm  : Operand<i8>;
  def i16imm : Operand<i16>;
  def i32imm : Operand<i32>;
  def i64imm : Operand<i64>;
  def f32imm : Operand<f32>;
  def f64imm : Operand<f64>;
}

// One instruction (or pseudo-instruction).
//   OutOperandList, InOperandList  (outs ...) and (ins ...) operand lists.
//   Constraints   comma-separated, no space after the comma:
//                 "$src = $dst" ties two operands to one register;
//                 "@earlyclobber $dst" keeps a def apart from all uses.
//   Defs, Uses    registers written / read implicitly.
//   mayLoad, mayStore, hasSideEffects are unset by default, as in LLVM
//   (which infers them from patterns when it can).
class Instruction {
  string Namespace = "";
  dag OutOperandList;
  dag InOperandList;
  string AsmString = "";
  list<dag> Pattern;
  list<Register> Uses = [];
  list<Register> Defs = [];
  list<Predicate> Predicates = [];
  int Size = 0;                  // encoded size in bytes, 0 if unknown
  int CodeSize = 0;
  int AddedComplexity = 0;
  string DecoderNamespace = "";
  bit isPreISelOpcode = false;
  bit isReturn = false;
  bit isBranch = false;
  bit isEHScopeReturn = false;
  bit isIndirectBranch = false;
  bit isCompare = false;
  bit isMoveImm = false;         // moves an immediate into a register
  bit isMoveReg = false;         // copies one register to another
  bit isBitcast = false;
  bit isSelect = false;
  bit isBarrier = false;         // control never falls through
  bit isCall = false;
  bit isAdd = false;
  bit isTrap = false;
  bit canFoldAsLoad = false;
  bit mayLoad = ?;
  bit mayStore = ?;
  bit mayRaiseFPException = false;
  bit isConvertibleToThreeAddress = false;
  bit isCommutable = false;      // the first two inputs may be swapped
  bit isTerminator = false;
  bit isReMaterializable = false; // may be re-executed instead of reloaded
  bit isPredicable = false;
  bit isUnpredicable = false;
  bit hasDelaySlot = false;
  bit usesCustomInserter = false;
  bit hasPostISelHook = false;
  bit hasCtrlDep = false;
  bit isNotDuplicable = false;
  bit isConvergent = false;
  bit isAuthenticated = false;
  bit isAsCheapAsAMove = false;  // no more expensive than a copy
  bit hasExtraSrcRegAllocReq = false;
  bit hasExtraDefRegAllocReq = false;
  bit isRegSequence = false;
  bit isPseudo = false;
  bit isMeta = false;
  bit isExtractSubreg = false;
  bit isInsertSubreg = false;
  bit variadicOpsAreDefs = false;
  bit hasSideEffects = ?;
  bit isCodeGenOnly = false;
  bit isAsmParserOnly = false;
  bit hasNoSchedulingInfo = false;
  string Constraints = "";
  string DisableEncoding = "";
  bits<64> TSFlags = 0;
}

//===----------------------------------------------------------------------===//
// EXTENSION (not in LLVM): spill, reload and copy templates per register class
//
// LLVM's TargetInstrInfo chooses spill code in C++ (storeRegToStackSlot,
// loadRegFromStackSlot, copyPhysReg). Here a target states it per register
// class with SpillTemplates defs:
//   Class    the register class;
//   Spill    the store of a register of the class to a stack slot;
//   Reload   the load of a register of the class from a stack slot;
//   Copy     the register-to-register copy.
// Each is a dag whose operator is the instruction and whose arguments are its
// machine operands in order (sub-operands of a memory operand counted one by
// one, as in MIR), each one of:
//   TplReg     the register stored (Spill), loaded (Reload) or written (Copy);
//   TplSrc     the register copied from (Copy only);
//   (TplReg idx), (TplSrc idx)
//              the sub-register `idx` (a SubRegIndex) of that register: a
//              template may name the register piecewise (AArch64 stores a
//              register pair with one STPXi of its two halves), the pieces
//              together covering it exactly; a reload defines each piece
//              (as `undef`, since none of it is live before);
//   TplSlot    the stack slot, a frame index (Spill and Reload only);
//   TplNoReg   no register ($noreg), for an unused address register;
//   an integer (an immediate such as a zero offset or a scale of 1);
//   a register def (a fixed register).
// `(ops)` (the default) means the def gives no such template. The
// instruction's implicit registers (Defs, Uses) are added as LLVM's MIR
// parser wants them. tdgen checks that the operator is an instruction, that
// the operand count matches its machine operands, that TplReg/TplSrc (or
// their pieces) land on register operands, and that every register of the
// class has the pieces named.
//
// The choice may depend on the function's subtarget and on its frame:
//   Features   the templates apply to a function whose subtarget has all of
//              these features (SubtargetFeature defs; a feature brings those
//              it implies). A class may have several SpillTemplates defs
//              with different Features; a function gets, for each kind, the
//              def with the most features among those that give the kind
//              and whose features it has. The defs of one class must be
//              ordered by inclusion (each one's features, with what they
//              imply, contain or are contained in every other's), so the
//              choice is never ambiguous; a def with no Features applies
//              to every function. (x86: VR128X is spilled with MOVAPSmr,
//              with VMOVAPSmr under AVX, VMOVAPSZ128mr under AVX512VL.)
//   UnalignedSpill, UnalignedReload
//              the store and load for a slot that only has the stack's
//              alignment, when the class's spill alignment exceeds it and
//              the function may not realign its stack (see
//              ReservedRegisters.SpillRealignNeedsFramePointer); the slot
//              then gets the stack's alignment instead of the class's, as
//              LLVM's VirtRegMap::createSpillSlot clamps it. (x86: a VR256
//              spill is VMOVAPSYmr to a 32-byte aligned slot, VMOVUPSYmr
//              to a 16-byte aligned one.) Default `(ops)`: Spill and Reload
//              serve both. tdgen rejects them where the class's alignment
//              never exceeds the stack's.
//   StackID    the stack the slot lives in, as MIR spells stack ids
//              ("default", "scalable-vector", "sgpr-spill", "wasm-local",
//              "noalloc"): AArch64 spills SVE registers to the
//              scalable-vector stack, whose objects are scaled by the
//              vector length at run time. Every spill and reload of one
//              class must agree on it.
// A class without a def giving some kind (this includes the classes tdgen
// infers) takes that kind's defs from its nearest super-class that has
// one (the super-class with the fewest registers).
//
// Where no instruction can spill a class (or LLVM 19 cannot, so its
// output would not be LLVM's), a CannotSpill def says why; the allocator
// fails with that reason when a value of the class must be spilled. A
// sub-class inherits the reason only if none of its super-classes has spill
// templates (its registers may all be in a class that can be spilled). A
// class may not have both a CannotSpill def and a def giving Spill or
// Reload.
//
// Example (BPF):
//     def : SpillTemplates<GPR> {
//       let Spill  = (STD TplReg, TplSlot, 0);
//       let Reload = (LDD TplReg, TplSlot, 0);
//       let Copy   = (MOV_rr TplReg, TplSrc);
//     }
// Example (x86 with AVX512VL, beside a def without Features for the rest):
//     def : SpillTemplates<VR256X> {
//       let Features = [FeatureVLX];
//       let Spill  = (VMOVAPSZ256mr TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
//       let UnalignedSpill = (VMOVUPSZ256mr TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
//       ...
//     }
//===----------------------------------------------------------------------===//

def TplReg;
def TplSrc;
def TplSlot;
def TplNoReg;

class SpillTemplates<RegisterClass rc> {
  RegisterClass Class = rc;
  dag Spill = (ops);
  dag Reload = (ops);
  dag Copy = (ops);
  list<SubtargetFeature> Features = [];
  dag UnalignedSpill = (ops);
  dag UnalignedReload = (ops);
  string StackID = "default";
}

class CannotSpill<RegisterClass rc, string why> {
  RegisterClass Class = rc;
  string Reason = why;
}

//===----------------------------------------------------------------------===//
// EXTENSION (not in LLVM): memory-operand folding
//
// LLVM's inline spiller asks the target (TargetInstrInfo::foldMemoryOperand,
// driven on x86 by generated fold tables) whether an instruction that reads
// a spilled register could read the stack slot instead, which saves the
// reload. Here a target states each such pair declaratively:
//   RegForm   the instruction as it reads a register;
//   Operand   the index of that register among RegForm's machine operands
//             (sub-operands counted one by one, as in MIR);
//   MemForm   the same operation with a memory operand in its place;
//   Address   the machine operands that take the register's place in
//             MemForm: TplSlot once (the stack slot), and integers, TplNoReg
//             or fixed registers for the rest of the address.
// MemForm's machine operands are then RegForm's with operand `Operand`
// replaced by `Address`; tdgen checks that they line up (same kinds, same
// definitions, the same ties shifted by the address length), that MemForm
// may load, and that RegForm's operand is a register use with a class.
// Implicit uses (Uses) must be the same; MemForm's implicit definitions
// (Defs) must be among RegForm's, and one MemForm lacks is dropped: the
// allocator folds only an instruction whose operand for it is `dead` (x86's
// `MOV32r0`, a zeroing xor that clobbers EFLAGS, folds into `MOV32mi`).
// The folded operand may also be a definition: MemForm then writes the slot
// (a folded store), and if the definition is tied to a use (dst = dst OP x)
// that use goes too and MemForm reads and writes the slot (a
// read-modify-write); MemForm's operands are RegForm's with both replaced
// by the one Address.
//   AlsoOperand   (default -1, none) a second register use of RegForm, after
//                 Operand and of the same class, that must name the same
//                 register; it is replaced too (Address then stands for
//                 both: x86 folds `TEST32rr %a, %a` into
//                 `CMP32mi %stack.0, 1, $noreg, 0, $noreg, 0`).
//   LittleEndian  (default false) the slot's lowest bytes hold the
//                 register's lowest bits, so a use of a sub-register at
//                 bit offset 0 whose size is the operand's register size
//                 (x86's `%v.sub_32bit` of a 64-bit register) folds too,
//                 reading just those bytes.
// Otherwise the allocator folds a whole-register operand of a virtual
// register of the operand's class or one of its sub-classes, whose spill
// slot therefore holds as many bytes as MemForm accesses.
//
// Example (x86: `%a = ADD32rr %a, %b` with %b spilled becomes
// `%a = ADD32rm %a, %stack.0, 1, $noreg, 0, $noreg`):
//     def : MemoryFold<ADD32rr, 2, ADD32rm,
//                      (ops TplSlot, 1, TplNoReg, 0, TplNoReg)>;
//===----------------------------------------------------------------------===//

class MemoryFold<Instruction reg, int operand, Instruction mem, dag address> {
  Instruction RegForm = reg;
  int Operand = operand;
  Instruction MemForm = mem;
  dag Address = address;
  int AlsoOperand = -1;
  bit LittleEndian = false;
}

//===----------------------------------------------------------------------===//
// EXTENSION (not in LLVM): branch facts for splitting critical edges
//
// LLVM's targets read and rewrite a block's branches in C++ (analyzeBranch,
// insertBranch, reverseBranchCondition); the allocator's PHI elimination
// needs them to split a critical edge as LLVM does. The reading is generic
// (a block ends in at most one conditional and one unconditional direct
// branch, told apart by isBranch, isBarrier and isIndirectBranch, each
// naming its target block); a target states the rest:
//   UnconditionalBranch<B>   the direct branch to a block (isBranch,
//                            isBarrier, not isIndirectBranch) a new block
//                            jumps with; at most one per target.
//   ConditionalBranch<B>     a conditional branch (isBranch, neither
//                            isBarrier nor isIndirectBranch) the target's
//                            branch analysis understands, with
//     Inverse                the branch taken exactly when B is not (unset:
//                            B cannot be reversed, as Hexagon's loop ends);
//     ConditionOperand       when Inverse changes a condition-code operand
//                            (required when Inverse is B itself): its name,
//     ConditionXor           and the value XORed into it.
// A conditional branch without a ConditionalBranch def is one the analysis
// gives up on (as BPF's does on all of them): a block ending in it is never
// split. Example (x86):
//     def : UnconditionalBranch<JMP_1>;
//     def : ConditionalBranch<JCC_1> {
//       let Inverse = JCC_1; let ConditionOperand = "cc"; let ConditionXor = 1;
//     }
//===----------------------------------------------------------------------===//

class UnconditionalBranch<Instruction branch> {
  Instruction Branch = branch;
}

class ConditionalBranch<Instruction branch> {
  Instruction Branch = branch;
  Instruction Inverse = ?;
  string ConditionOperand = "";
  int ConditionXor = 0;
}

// A JumpTableBranch<B> def names an indirect branch through a jump table
// whose edges the target splits by rewriting the table (LLVM's
// getJumpTableIndex recognizes it: x86's JMP64r and JMP64m): the table's
// entries for the successor then name the new block. An indirect branch
// not named so is one the analysis gives up on, and its edges are never
// split (AArch64's and Hexagon's jump-table dispatch).
class JumpTableBranch<Instruction branch> {
  Instruction Branch = branch;
}

//===----------------------------------------------------------------------===//
// Commuting facts (our extension): what LLVM's targets decide in code when a
// two-address instruction's operands are swapped (TargetInstrInfo's
// findCommutedOpIndices and commuteInstructionImpl). An isCommutable
// instruction without a CommuteRule swaps its first two uses and nothing
// else. A CommuteRule<I> def says instead:
//     Commutes               false: I does not commute by swapping alone (it
//                            becomes another instruction, or only for some
//                            immediates), so it is not commuted;
//     ConditionOperand       a condition-code operand reversed by the swap:
//                            its name,
//     ConditionXor           and the value XORed into it.
// Example (x86): def : CommuteRule<CMOV32rr> {
//                  let ConditionOperand = "cc"; let ConditionXor = 1; }
//===----------------------------------------------------------------------===//

class CommuteRule<Instruction instr> {
  Instruction Instr = instr;
  bit Commutes = true;
  string ConditionOperand = "";
  int ConditionXor = 0;
}

//===----------------------------------------------------------------------===//
// EXTENSION (not in LLVM): three-address conversion
//
// LLVM's two-address pass asks the target (TargetInstrInfo::
// convertToThreeAddress, in C++) for an instruction that computes what an
// isConvertibleToThreeAddress instruction computes without tying its result
// to a source, when the tie would cost a copy (x86 turns ADD, INC, SHL ...
// into LEA). A ThreeAddressForm<I, Form> def states one such rewriting:
//   TwoAddress    I, the instruction as selected (isConvertibleToThreeAddress);
//   ThreeAddress  Form, a dag whose operator is the instruction emitted in
//                 its place and whose arguments are that instruction's
//                 machine operands in order (sub-operands counted one by one,
//                 as in MIR), each one of:
//     TplDef                  I's definition (its operand 0), flags and all;
//     (TplOperand k)          I's operand k as it is: a register (killed
//                             when I kills it), an immediate, a symbol;
//     (TplOperand k, RC)      I's register operand k, its virtual register
//                             narrowed to class RC (no conversion when the
//                             two classes have nothing in common);
//     (TplNegated k, bits)    I's immediate operand k negated; no conversion
//                             when that does not fit in `bits` signed bits;
//     (TplWiden k, RC, idx)   I's register operand k read through a new
//                             register of class RC whose sub-register idx is
//                             a copy of it (`undef %new.idx = COPY %k` placed
//                             before), killed here;
//     (TplInsert k, RC, idx)  the same with the new register defined first
//                             (`%new = IMPLICIT_DEF; %new.idx = COPY %k`);
//     (TplResult RC, idx)     in place of TplDef: the result goes to a new
//                             register of class RC, and I's definition is
//                             its sub-register idx, copied after
//                             (`%def = COPY killed %new.idx`);
//     an integer, TplNoReg or a register.
//   ImmediateOperand, ImmediateValue
//                 (default -1: always) the form applies only when I's
//                 operand ImmediateOperand is the immediate ImmediateValue
//                 (x86's shift left by 1, 2 or 3 is an LEA scaling by 2, 4
//                 or 8: one def per amount).
//   NewRegisterOrder
//                 the positions (in Form) of the operands that make new
//                 registers, in the order the target's hook makes them and
//                 places their copies (default: Form's order, TplResult
//                 last); it decides the new registers' numbers.
// Operands that read the same register through TplWiden or TplInsert share
// one new register. Whatever the defs say, an instruction is not converted
// when a register it reads is `undef`, when it defines an implicit register
// Form does not that is not `dead` (x86's EFLAGS), or when a register
// TplWiden or TplInsert reads is physical. tdgen checks that I is
// isConvertibleToThreeAddress, that Form has as many operands as its
// instruction, that TplDef or TplResult is its definition and the rest are
// uses, and that each placeholder names an operand of I of the right kind.
// Example (x86): def : ThreeAddressForm<ADD64ri32,
//                  (LEA64r TplDef, (TplOperand 1), 1, TplNoReg, (TplOperand 2), TplNoReg)>;
//===----------------------------------------------------------------------===//

def TplDef;
def TplOperand;
def TplNegated;
def TplWiden;
def TplInsert;
def TplResult;

class ThreeAddressForm<Instruction two, dag three> {
  Instruction TwoAddress = two;
  dag ThreeAddress = three;
  int ImmediateOperand = -1;
  int ImmediateValue = 0;
  list<int> NewRegisterOrder = [];
}

// Target-wide instruction settings; one instance per target.
class InstrInfo {
  bit isLittleEndianEncoding = false;
  bit guessInstructionProperties = true;
}

//===----------------------------------------------------------------------===//
// The target
//===----------------------------------------------------------------------===//

// Exactly one `def <Name> : Target;` names the target; <Name> is also the
// namespace of its generated tables.
class Target {
  InstrInfo InstructionSet;
  int AllowRegisterRenaming = 0;
}

//===----------------------------------------------------------------------===//
// Compatibility
//===----------------------------------------------------------------------===//

// Not used by tdgen. llvm-tblgen's register-info backend looks up all
// instances of this class (macro-fusion rules) and fails if it is not
// declared; declaring it lets `llvm-tblgen -gen-register-info` run on a
// description that includes this prelude, which is how the prelude is held
// against LLVM's own.
class Fusion;
