// BPF machine instructions as the register allocator sees them (LLVM 19,
// -mcpu=v3): every opcode of the corpus MIR and the rest of each family
// (64-bit and 32-bit ALU forms, register and immediate sources, all jump
// conditions, all load/store widths, the atomics).
//
// Written against the classes of LLVM 19's Target.td (Instruction, Operand,
// ins/outs).  Facts follow the MCInstrDesc table compiled into LLVM 19; see
// targets/oracle/compare_instrs.py.  Whole-target facts that are not per
// instruction: LLVM's BPF target keeps `AllowRegisterRenaming = 0`, so every
// BPF opcode carries hasExtraSrcRegAllocReq/hasExtraDefRegAllocReq; the
// oracle's top file (targets/oracle/bpf-instrs-top.td) says so on the Target.
//
// Spill/reload/copy (the templates are in targets/bpf/bpf.td):
//   GPR   spill STD, reload LDD, copy MOV_rr
//   GPR32 spill STW32, reload LDW32, copy MOV_rr_32

//===-- Operand kinds ---------------------------------------------------===//

// A plain immediate (MCOI::OPERAND_IMMEDIATE).
def bpf_imm : Operand<i64> { let OperandType = "OPERAND_IMMEDIATE"; }
// Operands LLVM leaves untyped (OPERAND_UNKNOWN): branch destinations, call
// targets, the 64-bit constant of LD_imm64, CO-RE relocation fields.
def bpf_target : Operand<OtherVT>;
def bpf_callee : Operand<i64>;
def bpf_u64imm : Operand<i64>;
def bpf_field : Operand<i64>;
// Memory reference: base register plus signed 16-bit displacement.  Two
// machine operands; both carry the parent's (unknown) operand type.
def bpf_off : Operand<i16>;
def bpf_addr : Operand<i64> { let MIOperandInfo = (ops GPR, bpf_off); }

//===-- Base class ------------------------------------------------------===//

// Every BPF instruction is one 8-byte slot (LD_imm64 is 16 bytes in the
// encoding, but LLVM's table still says 8).  Properties are stated, never
// guessed from patterns.
class BPFOp<dag outs, dag ins> : Instruction {
  let Namespace = "BPF";
  let OutOperandList = outs;
  let InOperandList = ins;
  let AsmString = "";
  let Size = 8;
  let hasSideEffects = false;
  let mayLoad = false;
  let mayStore = false;
}

// Code-generator pseudos (expanded before emission).
class BPFPseudo<dag outs, dag ins> : BPFOp<outs, ins> {
  let isPseudo = true;
}

//===-- ALU: dst = dst OP src -------------------------------------------===//

// Two-address arithmetic in the four shapes: 64/32-bit, register/immediate.
multiclass ALU2<bit cheap> {
  let Constraints = "$dst = $lhs", isAsCheapAsAMove = cheap in {
    def _rr : BPFOp<(outs GPR:$dst), (ins GPR:$lhs, GPR:$rhs)>;
    def _ri : BPFOp<(outs GPR:$dst), (ins GPR:$lhs, bpf_imm:$rhs)>;
    def _rr_32 : BPFOp<(outs GPR32:$dst), (ins GPR32:$lhs, GPR32:$rhs)>;
    def _ri_32 : BPFOp<(outs GPR32:$dst), (ins GPR32:$lhs, bpf_imm:$rhs)>;
  }
}

// Simple ALU operations are as cheap as a move; multiply and divide are not.
defm ADD : ALU2<true>;
defm SUB : ALU2<true>;
defm OR : ALU2<true>;
defm AND : ALU2<true>;
defm XOR : ALU2<true>;
defm SLL : ALU2<true>;
defm SRL : ALU2<true>;
defm SRA : ALU2<true>;
defm MUL : ALU2<false>;
defm DIV : ALU2<false>;
defm MOD : ALU2<false>;
defm SDIV : ALU2<false>;
defm SMOD : ALU2<false>;

// Negation: one tied operand.
let Constraints = "$dst = $src", isAsCheapAsAMove = true in {
  def NEG_64 : BPFOp<(outs GPR:$dst), (ins GPR:$src)>;
  def NEG_32 : BPFOp<(outs GPR32:$dst), (ins GPR32:$src)>;
}

// Byte swaps (to big/little endian, unconditional) on the 64-bit register.
let Constraints = "$dst = $src" in
foreach kind = ["BE", "LE", "BSWAP"] in
  foreach width = [16, 32, 64] in
    def kind # width : BPFOp<(outs GPR:$dst), (ins GPR:$src)>;

//===-- Moves -----------------------------------------------------------===//

let isReMaterializable = true, isAsCheapAsAMove = true in {
  // Register moves are marked with side effects in LLVM's BPF backend.
  let hasSideEffects = true in {
    def MOV_rr : BPFOp<(outs GPR:$dst), (ins GPR:$src)>;
    def MOV_rr_32 : BPFOp<(outs GPR32:$dst), (ins GPR32:$src)>;
  }
  def MOV_ri : BPFOp<(outs GPR:$dst), (ins bpf_imm:$imm)>;
  def MOV_ri_32 : BPFOp<(outs GPR32:$dst), (ins bpf_imm:$imm)>;
  def LD_imm64 : BPFOp<(outs GPR:$dst), (ins bpf_u64imm:$imm)>;

  // Sign-extending moves (v4): from 8/16/32 bits into 64, from 8/16 into 32.
  foreach w = [8, 16, 32] in
    def MOVSX_rr_ # w : BPFOp<(outs GPR:$dst), (ins GPR:$src)>;
  foreach w = [8, 16] in
    def MOVSX_rr_32_ # w : BPFOp<(outs GPR32:$dst), (ins GPR32:$src)>;
}

// Zero-extension of a 32-bit register into a 64-bit one.
def MOV_32_64 : BPFOp<(outs GPR:$dst), (ins GPR32:$src)>;

// Address-space cast: dst = cast(src, from, to).
def ADDR_SPACE_CAST : BPFOp<(outs GPR:$dst),
                            (ins GPR:$src, bpf_imm:$from, bpf_imm:$to)>;

//===-- Loads and stores ------------------------------------------------===//

class BPFLoad<RegisterClass rc> : BPFOp<(outs rc:$dst), (ins bpf_addr:$addr)> {
  let mayLoad = true;
}
class BPFStore<dag src> : BPFOp<(outs), !con(src, (ins bpf_addr:$addr))> {
  let mayStore = true;
}

// 64-bit destinations: zero-extending loads of each width, sign-extending
// ones (v4) of the narrow widths.
foreach w = ["D", "W", "H", "B"] in {
  def LD # w : BPFLoad<GPR>;
  def ST # w : BPFStore<(ins GPR:$src)>;
  def ST # w # _imm : BPFStore<(ins bpf_imm:$src)>;
}
foreach w = ["W", "H", "B"] in {
  def LD # w # SX : BPFLoad<GPR>;
  def LD # w # 32 : BPFLoad<GPR32>;
  def ST # w # 32 : BPFStore<(ins GPR32:$src)>;
}

// Legacy packet loads: results land in R0, the context is R6, and the
// helper-call convention clobbers R0-R5.
let mayLoad = true, hasSideEffects = true, Defs = [R0, R1, R2, R3, R4, R5],
    Uses = [R6] in
foreach w = ["B", "H", "W"] in {
  def LD_ABS_ # w : BPFOp<(outs), (ins GPR:$skb, bpf_imm:$off)>;
  def LD_IND_ # w : BPFOp<(outs), (ins GPR:$skb, GPR:$idx)>;
}

// Loads of a map/global address by a pseudo that the backend resolves.
let mayLoad = true, mayStore = true, hasSideEffects = true in
def LD_pseudo : BPFOp<(outs GPR:$dst), (ins bpf_imm:$kind, bpf_u64imm:$val)>;

//===-- Atomics ---------------------------------------------------------===//

// Fetch-and-op: the old value comes back in the register that supplied the
// operand, hence the tie.  LLVM records the 64-bit add and the non-fetching
// bitwise forms with side effects instead of load/store.
class BPFAtomic<RegisterClass rc, bit memory>
    : BPFOp<(outs rc:$dst), (ins bpf_addr:$addr, rc:$val)> {
  let Constraints = "$dst = $val";
  let mayLoad = memory;
  let mayStore = memory;
  let hasSideEffects = !not(memory);
}
def XADDW : BPFAtomic<GPR, true>;
def XADDD : BPFAtomic<GPR, false>;
def XADDW32 : BPFAtomic<GPR32, false>;
foreach op = ["AND", "OR", "XOR"] in {
  def X # op # D : BPFAtomic<GPR, false>;
  def X # op # W32 : BPFAtomic<GPR32, false>;
}
foreach op = ["FADD", "FAND", "FOR", "FXOR", "CHG"] in {
  def X # op # D : BPFAtomic<GPR, true>;
  def X # op # W32 : BPFAtomic<GPR32, true>;
}
// Compare-and-exchange: the expected value is in R0 (W0) and the old value
// comes back there.
let mayLoad = true, mayStore = true in {
  let Defs = [R0], Uses = [R0] in
  def CMPXCHGD : BPFOp<(outs), (ins bpf_addr:$addr, GPR:$new)>;
  let Defs = [W0], Uses = [W0] in
  def CMPXCHGW32 : BPFOp<(outs), (ins bpf_addr:$addr, GPR32:$new)>;
}

//===-- Control flow ----------------------------------------------------===//

// Conditional jumps: compare two registers or a register with an immediate,
// 64- or 32-bit.
multiclass CondJump {
  def _rr : BPFOp<(outs), (ins GPR:$a, GPR:$b, bpf_target:$dest)>;
  def _ri : BPFOp<(outs), (ins GPR:$a, bpf_imm:$b, bpf_target:$dest)>;
  def _rr_32 : BPFOp<(outs), (ins GPR32:$a, GPR32:$b, bpf_target:$dest)>;
  def _ri_32 : BPFOp<(outs), (ins GPR32:$a, bpf_imm:$b, bpf_target:$dest)>;
}

let isBranch = true, isTerminator = true in {
  defm JEQ : CondJump;
  defm JNE : CondJump;
  defm JSET : CondJump;
  defm JUGT : CondJump;
  defm JUGE : CondJump;
  defm JULT : CondJump;
  defm JULE : CondJump;
  defm JSGT : CondJump;
  defm JSGE : CondJump;
  defm JSLT : CondJump;
  defm JSLE : CondJump;

  let isBarrier = true in {
    def JMP : BPFOp<(outs), (ins bpf_target:$dest)>;
    let hasSideEffects = true in
    def JMPL : BPFOp<(outs), (ins bpf_target:$dest)>;   // 32-bit offset (v4)
  }
  // may_goto: a conditional jump with no visible operands but the target.
  let hasSideEffects = true in
  def JCOND : BPFOp<(outs), (ins bpf_target:$dest)>;
}

let isReturn = true, isTerminator = true, isBarrier = true,
    isNotDuplicable = true in
def RET : BPFOp<(outs), (ins)>;

// Calls: arguments in R1-R5, result in R0; all of R0-R5 are clobbered.  R11
// is the internal stack-adjust register.
let isCall = true, Defs = [R0, R1, R2, R3, R4, R5], Uses = [R11] in {
  def JAL : BPFOp<(outs), (ins bpf_callee:$fn)>;
  def JALX : BPFOp<(outs), (ins GPR:$fn)>;
}

def NOP : BPFOp<(outs), (ins bpf_imm:$imm)>;

//===-- Pseudos ---------------------------------------------------------===//

let Defs = [R11], Uses = [R11] in {
  def ADJCALLSTACKDOWN : BPFPseudo<(outs), (ins bpf_imm:$amt, bpf_imm:$amt2)>;
  def ADJCALLSTACKUP : BPFPseudo<(outs), (ins bpf_imm:$amt, bpf_imm:$amt2)>;
}

// Frame-index address: dst = frame base + offset.
def FI_ri : BPFPseudo<(outs GPR:$dst), (ins bpf_addr:$addr)>;

// Select: dst = (lhs CC rhs) ? t : f, expanded to a diamond by a custom
// inserter.  Comparison width and result width vary independently.
class SelectRR<RegisterClass cmp, RegisterClass res>
    : BPFPseudo<(outs res:$dst),
                (ins cmp:$lhs, cmp:$rhs, bpf_imm:$cc, res:$t, res:$f)>;
class SelectRI<RegisterClass cmp, RegisterClass res>
    : BPFPseudo<(outs res:$dst),
                (ins cmp:$lhs, bpf_imm:$rhs, bpf_imm:$cc, res:$t, res:$f)>;

let usesCustomInserter = true in {
  def Select : SelectRR<GPR, GPR>;
  def Select_32 : SelectRR<GPR32, GPR32>;
  def Select_32_64 : SelectRR<GPR32, GPR>;
  def Select_64_32 : SelectRR<GPR, GPR32>;
  def Select_Ri : SelectRI<GPR, GPR>;
  def Select_Ri_32 : SelectRI<GPR32, GPR32>;
  def Select_Ri_32_64 : SelectRI<GPR32, GPR>;
  def Select_Ri_64_32 : SelectRI<GPR, GPR32>;

  // Inline memcpy of a constant length; scratch registers are appended.
  let mayLoad = true, mayStore = true in
  def MEMCPY : BPFPseudo<(outs),
                         (ins GPR:$dst, GPR:$src, bpf_imm:$len, bpf_imm:$align,
                          variable_ops)>;
}

// CO-RE relocatable accesses (patched by the loader), kept opaque.
let hasSideEffects = true in {
  def CORE_LD64 : BPFOp<(outs GPR:$dst),
                        (ins bpf_field:$kind, GPR:$base, bpf_field:$off)>;
  def CORE_LD32 : BPFOp<(outs GPR32:$dst),
                        (ins bpf_field:$kind, GPR:$base, bpf_field:$off)>;
  def CORE_ST : BPFOp<(outs),
                      (ins bpf_field:$kind, bpf_field:$width, GPR:$src,
                       bpf_field:$off)>;
  let Constraints = "$dst = $src" in
  def CORE_SHIFT : BPFOp<(outs GPR:$dst),
                         (ins bpf_field:$kind, GPR:$src, bpf_field:$amt)>;
}
