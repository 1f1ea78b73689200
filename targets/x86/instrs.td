// X86-64 machine instructions as the register allocator sees them (LLVM 19,
// x86_64-linux-gnu): the opcodes of the corpus MIR and their families (the
// 8/16/32/64-bit widths and the rr/ri/rm/mr/mi forms of each integer
// operation, the SS/SD and packed SSE2 forms the corpus uses).
//
// Written against LLVM 19's Target.td classes; facts follow LLVM 19's
// MCInstrDesc (targets/oracle/compare_instrs.py).  The target sets
// AllowRegisterRenaming = 1 (targets/oracle/x86-instrs-top.td).  LLVM gives
// no Size to X86 instructions (0); neither do we.
//
// Spill/reload/copy per allocatable class: the templates in targets/x86/x86.td
// (integer MOV*mr/rm, SSE/AVX/AVX-512 moves per subtarget, KMOV* for masks,
// MMX_MOVQ64*, the x87 LD_Fp*/ST_Fp* pseudos), the instructions at the end
// of this file.

//===-- Operand kinds ---------------------------------------------------===//

def x86_imm : Operand<i64> { let OperandType = "OPERAND_IMMEDIATE"; }
def x86_pcrel : Operand<i64> { let OperandType = "OPERAND_PCREL"; }
def x86_cc : Operand<i8>;
// Pointer-like register operands resolved by the subtarget (64-bit mode:
// GR64, GR64_NOSP, their NOREX subsets, the tail-call set).
def x86_ptr : PointerLikeRegClass<0>;
def x86_ptr_nosp : PointerLikeRegClass<1>;
def x86_ptr_norex : PointerLikeRegClass<2>;
def x86_ptr_norex_nosp : PointerLikeRegClass<3>;
def x86_ptr_tc : PointerLikeRegClass<4>;
// What each kind stands for is in x86.td (PointerRegClass).
def x86_disp8 : Operand<i8>;
def x86_disp32 : Operand<i32>;
// base, scale, index, displacement, segment.
def x86_mem : Operand<i64> {
  let OperandType = "OPERAND_MEMORY";
  let MIOperandInfo = (ops x86_ptr, x86_disp8, x86_ptr_nosp, x86_disp32,
                       SEGMENT_REG);
}
def x86_mem_norex : Operand<i64> {
  let OperandType = "OPERAND_MEMORY";
  let MIOperandInfo = (ops x86_ptr_norex, x86_disp8, x86_ptr_norex_nosp,
                       x86_disp32, SEGMENT_REG);
}
// LEA's address: concrete 64-bit registers, untyped.
def x86_lea64 : Operand<i64> {
  let MIOperandInfo = (ops GR64, x86_disp8, GR64_NOSP, x86_disp32, SEGMENT_REG);
}
def x86_tcptr : Operand<i64> { let MIOperandInfo = (ops x86_ptr_tc); }
// A tail call's memory address: base and index from the tail-call set,
// which holds no callee-saved register (the epilogue restores those first).
def x86_mem_tc : Operand<i64> {
  let OperandType = "OPERAND_MEMORY";
  let MIOperandInfo = (ops x86_ptr_tc, x86_disp8, x86_ptr_tc, x86_disp32,
                       SEGMENT_REG);
}

//===-- Base classes ----------------------------------------------------===//

class X86Op<dag outs, dag ins> : Instruction {
  let Namespace = "X86";
  let OutOperandList = outs;
  let InOperandList = ins;
  let AsmString = "";
  let hasSideEffects = false;
  let mayLoad = false;
  let mayStore = false;
}
class X86Pseudo<dag outs, dag ins> : X86Op<outs, ins> { let isPseudo = true; }

// A width: suffix, register class, and the suffix of its widest immediate form.
class W<string n, RegisterClass rc, string immsfx> {
  string s = n;
  RegisterClass r = rc;
  string i = immsfx;
}
defvar W8 = W<"8", GR8, "i">;
defvar W16 = W<"16", GR16, "i">;
defvar W32 = W<"32", GR32, "i">;
defvar W64 = W<"64", GR64, "i32">;
defvar AllW = [W8, W16, W32, W64];

//===-- Integer ALU -----------------------------------------------------===//

// dst = dst OP src, flags written (and read by ADC/SBB).
multiclass BinOp<string op, bit commutable, bit threeAddr, bit compare,
                 bit carry> {
  let Defs = [EFLAGS], Uses = !if(carry, [EFLAGS], []<Register>),
      isCompare = compare in {
    foreach w = AllW in {
      let Constraints = "$dst = $src" in {
        // rr converts to LEA only when it commutes (ADD); ri always can.
        let isCommutable = commutable,
            isConvertibleToThreeAddress = !and(threeAddr, commutable) in
        def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src, w.r:$rhs)>;
        let isConvertibleToThreeAddress = threeAddr in {
          def op # w.s # r # w.i : X86Op<(outs w.r:$dst),
                                         (ins w.r:$src, x86_imm:$imm)>;
          if !ne(w.s, "8") then
          def op # w.s # ri8 : X86Op<(outs w.r:$dst),
                                     (ins w.r:$src, x86_imm:$imm)>;
        }
        let mayLoad = true in
        def op # w.s # rm : X86Op<(outs w.r:$dst), (ins w.r:$src, x86_mem:$m)>;
      }
      let mayLoad = true, mayStore = true in {
        def op # w.s # mr : X86Op<(outs), (ins x86_mem:$m, w.r:$rhs)>;
        def op # w.s # m # w.i : X86Op<(outs), (ins x86_mem:$m, x86_imm:$imm)>;
        if !ne(w.s, "8") then
        def op # w.s # mi8 : X86Op<(outs), (ins x86_mem:$m, x86_imm:$imm)>;
      }
    }
  }
}
defm "" : BinOp<"ADD", true, true, false, false>;
defm "" : BinOp<"SUB", false, true, true, false>;
defm "" : BinOp<"AND", true, false, false, false>;
defm "" : BinOp<"OR", true, false, false, false>;
defm "" : BinOp<"XOR", true, false, false, false>;
defm "" : BinOp<"ADC", true, false, false, true>;
defm "" : BinOp<"SBB", false, false, false, true>;

// ADD forms that the backend knows to be an OR of disjoint bits.
let Defs = [EFLAGS], Constraints = "$dst = $src",
    isConvertibleToThreeAddress = true in
foreach w = AllW in {
  let isCommutable = true in
  def ADD # w.s # rr_DB : X86Pseudo<(outs w.r:$dst), (ins w.r:$src, w.r:$rhs)>;
  def ADD # w.s # r # w.i # _DB : X86Pseudo<(outs w.r:$dst),
                                            (ins w.r:$src, x86_imm:$imm)>;
}

// Comparisons: flags only.
let Defs = [EFLAGS], isCompare = true in
foreach w = AllW in {
  def CMP # w.s # rr : X86Op<(outs), (ins w.r:$a, w.r:$b)>;
  def CMP # w.s # r # w.i : X86Op<(outs), (ins w.r:$a, x86_imm:$b)>;
  let mayLoad = true in {
    def CMP # w.s # rm : X86Op<(outs), (ins w.r:$a, x86_mem:$b)>;
    def CMP # w.s # mr : X86Op<(outs), (ins x86_mem:$a, w.r:$b)>;
    def CMP # w.s # m # w.i : X86Op<(outs), (ins x86_mem:$a, x86_imm:$b)>;
  }
  if !ne(w.s, "8") then {
    def CMP # w.s # ri8 : X86Op<(outs), (ins w.r:$a, x86_imm:$b)>;
    let mayLoad = true in
    def CMP # w.s # mi8 : X86Op<(outs), (ins x86_mem:$a, x86_imm:$b)>;
  }
  let isCommutable = true in
  def TEST # w.s # rr : X86Op<(outs), (ins w.r:$a, w.r:$b)>;
  def TEST # w.s # r # w.i : X86Op<(outs), (ins w.r:$a, x86_imm:$b)>;
  let mayLoad = true in {
    def TEST # w.s # m # w.i : X86Op<(outs), (ins x86_mem:$a, x86_imm:$b)>;
    def TEST # w.s # mr : X86Op<(outs), (ins x86_mem:$a, w.r:$b)>;
  }
}

// One-operand read-modify-write operations.
foreach w = AllW in {
  let Defs = [EFLAGS] in {
    let Constraints = "$dst = $src" in {
      let isConvertibleToThreeAddress = true in {
        def INC # w.s # r : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
        def DEC # w.s # r : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
      }
      def NEG # w.s # r : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
    }
    let mayLoad = true, mayStore = true in
    foreach op = ["INC", "DEC", "NEG"] in
      def op # w.s # m : X86Op<(outs), (ins x86_mem:$m)>;
  }
  let Constraints = "$dst = $src" in
  def NOT # w.s # r : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
  let mayLoad = true, mayStore = true in
  def NOT # w.s # m : X86Op<(outs), (ins x86_mem:$m)>;
}

// Shifts and rotates: by immediate, by CL, by one; register and memory.
foreach op = ["SHL", "SHR", "SAR", "ROL", "ROR"] in
  foreach w = AllW in {
    let Defs = [EFLAGS] in {
      let Constraints = "$dst = $src" in {
        let isConvertibleToThreeAddress = !eq(op, "SHL") in
        def op # w.s # ri : X86Op<(outs w.r:$dst),
                                  (ins w.r:$src, x86_imm:$amt)>;
        let Uses = [CL] in
        def op # w.s # rCL : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
        def op # w.s # r1 : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
      }
      let mayLoad = true, mayStore = true in {
        def op # w.s # mi : X86Op<(outs), (ins x86_mem:$m, x86_imm:$amt)>;
        let Uses = [CL] in
        def op # w.s # mCL : X86Op<(outs), (ins x86_mem:$m)>;
        def op # w.s # m1 : X86Op<(outs), (ins x86_mem:$m)>;
      }
    }
  }
// Double shifts.
let Defs = [EFLAGS], Constraints = "$dst = $src" in
foreach op = ["SHLD", "SHRD"] in
  foreach w = [W16, W32, W64] in {
    let isCommutable = true in
    def op # w.s # rri8 : X86Op<(outs w.r:$dst),
                                (ins w.r:$src, w.r:$src2, x86_imm:$amt)>;
    let Uses = [CL] in
    def op # w.s # rrCL : X86Op<(outs w.r:$dst), (ins w.r:$src, w.r:$src2)>;
  }

// Multiply and divide.
foreach w = [W16, W32, W64] in {
  let Defs = [EFLAGS] in {
    let Constraints = "$dst = $src" in {
      let isCommutable = true in
      def IMUL # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src, w.r:$rhs)>;
      let mayLoad = true in
      def IMUL # w.s # rm : X86Op<(outs w.r:$dst), (ins w.r:$src, x86_mem:$m)>;
    }
    def IMUL # w.s # rr # w.i : X86Op<(outs w.r:$dst),
                                      (ins w.r:$src, x86_imm:$imm)>;
    def IMUL # w.s # rri8 : X86Op<(outs w.r:$dst),
                                  (ins w.r:$src, x86_imm:$imm)>;
    let mayLoad = true in {
      def IMUL # w.s # rm # w.i : X86Op<(outs w.r:$dst),
                                        (ins x86_mem:$m, x86_imm:$imm)>;
      def IMUL # w.s # rmi8 : X86Op<(outs w.r:$dst),
                                    (ins x86_mem:$m, x86_imm:$imm)>;
    }
  }
}
// Widening multiply and divide through the A/D register pair.
class AccRegs<string n, list<Register> lo, list<Register> hi> {
  string s = n;
  list<Register> a = lo;
  list<Register> d = hi;
}
foreach p = [AccRegs<"16", [AX], [DX]>, AccRegs<"32", [EAX], [EDX]>,
             AccRegs<"64", [RAX], [RDX]>] in {
  defvar rc = !cast<RegisterClass>("GR" # p.s);
  let Defs = !listconcat(p.a, p.d, [EFLAGS]) in {
    let Uses = p.a in {
      def MUL # p.s # r : X86Op<(outs), (ins rc:$src)>;
      def IMUL # p.s # r : X86Op<(outs), (ins rc:$src)>;
      let mayLoad = true in {
        def MUL # p.s # m : X86Op<(outs), (ins x86_mem:$src)>;
        def IMUL # p.s # m : X86Op<(outs), (ins x86_mem:$src)>;
      }
    }
    let Uses = !listconcat(p.a, p.d), hasSideEffects = true in
    foreach op = ["DIV", "IDIV"] in {
      def op # p.s # r : X86Op<(outs), (ins rc:$src)>;
      let mayLoad = true in
      def op # p.s # m : X86Op<(outs), (ins x86_mem:$src)>;
    }
  }
}
let Defs = [AL, AH, EFLAGS], Uses = [AX], hasSideEffects = true in
foreach op = ["DIV", "IDIV"] in {
  def op # 8r : X86Op<(outs), (ins GR8:$src)>;
  let mayLoad = true in
  def op # 8m : X86Op<(outs), (ins x86_mem:$src)>;
}
// Sign-extend the accumulator into the D register.
let Defs = [EAX, EDX], Uses = [EAX] in def CDQ : X86Op<(outs), (ins)>;
let Defs = [RAX, RDX], Uses = [RAX] in def CQO : X86Op<(outs), (ins)>;

// Bit scans, byte swap, bit tests.
foreach w = [W16, W32, W64] in {
  let Defs = [EFLAGS] in {
    foreach op = ["BSF", "BSR"] in {
      def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
      let mayLoad = true in
      def op # w.s # rm : X86Op<(outs w.r:$dst), (ins x86_mem:$src)>;
    }
    def BT # w.s # rr : X86Op<(outs), (ins w.r:$a, w.r:$b)>;
    def BT # w.s # ri8 : X86Op<(outs), (ins w.r:$a, x86_imm:$b)>;
    let Constraints = "$dst = $src" in
    foreach op = ["BTC", "BTR", "BTS"] in {
      def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src, w.r:$b)>;
      def op # w.s # ri8 : X86Op<(outs w.r:$dst), (ins w.r:$src, x86_imm:$b)>;
    }
  }
}
let Constraints = "$dst = $src" in {
  def BSWAP32r : X86Op<(outs GR32:$dst), (ins GR32:$src)>;
  def BSWAP64r : X86Op<(outs GR64:$dst), (ins GR64:$src)>;
}

// Bit counts (LZCNT, TZCNT, POPCNT) and BMI1/BMI2: three-operand forms
// whose destination is not tied, so none needs a copy; the memory forms
// take the operand the spiller may fold (folds.td).
foreach w = [W16, W32, W64] in
  let Defs = [EFLAGS] in
  foreach op = ["LZCNT", "TZCNT", "POPCNT"] in {
    def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
    let mayLoad = true in
    def op # w.s # rm : X86Op<(outs w.r:$dst), (ins x86_mem:$src)>;
  }
foreach w = [W32, W64] in {
  let Defs = [EFLAGS] in {
    // dst = ~src1 & src2: the memory form reads src2.
    def ANDN # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src1, w.r:$src2)>;
    let mayLoad = true in
    def ANDN # w.s # rm : X86Op<(outs w.r:$dst),
                                (ins w.r:$src1, x86_mem:$src2)>;
    // The source is the value (memory form: from memory), src2 the control.
    foreach op = ["BEXTR", "BZHI"] in {
      def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src1, w.r:$src2)>;
      let mayLoad = true in
      def op # w.s # rm : X86Op<(outs w.r:$dst),
                                (ins x86_mem:$src1, w.r:$src2)>;
    }
    foreach op = ["BLSI", "BLSMSK", "BLSR"] in {
      def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
      let mayLoad = true in
      def op # w.s # rm : X86Op<(outs w.r:$dst), (ins x86_mem:$src)>;
    }
  }
  // Shifts without flags: the shifted value may come from memory.
  foreach op = ["SHLX", "SHRX", "SARX"] in {
    def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src1, w.r:$src2)>;
    let mayLoad = true in
    def op # w.s # rm : X86Op<(outs w.r:$dst), (ins x86_mem:$src1, w.r:$src2)>;
  }
  def RORX # w.s # ri : X86Op<(outs w.r:$dst), (ins w.r:$src1, x86_imm:$src2)>;
  let mayLoad = true in
  def RORX # w.s # mi : X86Op<(outs w.r:$dst),
                              (ins x86_mem:$src1, x86_imm:$src2)>;
  // Bit deposit and extract: the mask may come from memory.
  foreach op = ["PDEP", "PEXT"] in {
    def op # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src1, w.r:$src2)>;
    let mayLoad = true in
    def op # w.s # rm : X86Op<(outs w.r:$dst), (ins w.r:$src1, x86_mem:$src2)>;
  }
}
// Unsigned multiply by the D register without flags: both halves, or (H)
// the high half only.
foreach w = [W32, W64] in
  let Uses = [!if(!eq(w.s, "32"), EDX, RDX)] in {
    def MULX # w.s # rr : X86Op<(outs w.r:$dst1, w.r:$dst2), (ins w.r:$src)>;
    def MULX # w.s # Hrr : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
    let mayLoad = true in {
      def MULX # w.s # rm : X86Op<(outs w.r:$dst1, w.r:$dst2),
                                  (ins x86_mem:$src)>;
      def MULX # w.s # Hrm : X86Op<(outs w.r:$dst), (ins x86_mem:$src)>;
    }
  }

//===-- Moves -----------------------------------------------------------===//

foreach w = AllW in {
  let isMoveReg = true in
  def MOV # w.s # rr : X86Op<(outs w.r:$dst), (ins w.r:$src)>;
  let isReMaterializable = true, isMoveImm = true,
      isAsCheapAsAMove = !ne(w.s, "64") in
  def MOV # w.s # ri : X86Op<(outs w.r:$dst), (ins x86_imm:$imm)>;
  let mayLoad = true, isReMaterializable = true in
  def MOV # w.s # rm : X86Op<(outs w.r:$dst), (ins x86_mem:$m)>;
  let mayStore = true in {
    def MOV # w.s # mr : X86Op<(outs), (ins x86_mem:$m, w.r:$src)>;
    def MOV # w.s # m # w.i : X86Op<(outs), (ins x86_mem:$m, x86_imm:$imm)>;
  }
}
let isReMaterializable = true, isMoveImm = true, isAsCheapAsAMove = true in
def MOV64ri32 : X86Op<(outs GR64:$dst), (ins x86_imm:$imm)>;
let isReMaterializable = true, isAsCheapAsAMove = true in {
  // xor r32, r32 (clobbers flags) and a zero-extended 32-bit immediate.
  let isMoveImm = true, Defs = [EFLAGS] in
  def MOV32r0 : X86Pseudo<(outs GR32:$dst), (ins)>;
  def MOV32ri64 : X86Pseudo<(outs GR64:$dst), (ins x86_imm:$imm)>;
}
// Byte moves restricted to registers without a REX prefix.
let isMoveReg = true in
def MOV8rr_NOREX : X86Op<(outs GR8_NOREX:$dst), (ins GR8_NOREX:$src)>;
let mayLoad = true, isReMaterializable = true in
def MOV8rm_NOREX : X86Op<(outs GR8_NOREX:$dst), (ins x86_mem_norex:$m)>;
let mayStore = true in
def MOV8mr_NOREX : X86Op<(outs), (ins x86_mem_norex:$m, GR8_NOREX:$src)>;

// Zero and sign extension.
class Ext<string n, RegisterClass d, RegisterClass s> {
  string name = n;
  RegisterClass dst = d;
  RegisterClass src = s;
}
foreach op = ["MOVZX", "MOVSX"] in
  foreach e = [Ext<"16rr8", GR16, GR8>, Ext<"32rr8", GR32, GR8>,
               Ext<"32rr16", GR32, GR16>,
               Ext<"64rr8", GR64, GR8>, Ext<"64rr16", GR64, GR16>] in {
    def op # e.name : X86Op<(outs e.dst:$dst), (ins e.src:$src)>;
    let mayLoad = true in
    def op # !subst("rr", "rm", e.name) : X86Op<(outs e.dst:$dst),
                                                (ins x86_mem:$m)>;
  }
def MOVSX64rr32 : X86Op<(outs GR64:$dst), (ins GR32:$src)>;
let mayLoad = true in
def MOVSX64rm32 : X86Op<(outs GR64:$dst), (ins x86_mem:$m)>;
def MOVZX32rr8_NOREX : X86Op<(outs GR32_NOREX:$dst), (ins GR8_NOREX:$src)>;
let mayLoad = true in
def MOVZX32rm8_NOREX : X86Op<(outs GR32_NOREX:$dst), (ins x86_mem_norex:$m)>;

// Address computation.
def LEA16r : X86Op<(outs GR16:$dst), (ins x86_mem:$a)>;
let isReMaterializable = true in {
  def LEA32r : X86Op<(outs GR32:$dst), (ins x86_mem:$a)>;
  def LEA64r : X86Op<(outs GR64:$dst), (ins x86_lea64:$a)>;
}
def LEA64_32r : X86Op<(outs GR32:$dst), (ins x86_lea64:$a)>;

// Conditional moves and sets.
let Uses = [EFLAGS] in {
  foreach w = [W16, W32, W64] in {
    let Constraints = "$dst = $src" in {
      let isCommutable = true in
      def CMOV # w.s # rr : X86Op<(outs w.r:$dst),
                                  (ins w.r:$src, w.r:$t, x86_cc:$cc)>;
      let mayLoad = true in
      def CMOV # w.s # rm : X86Op<(outs w.r:$dst),
                                  (ins w.r:$src, x86_mem:$t, x86_cc:$cc)>;
    }
  }
  def SETCCr : X86Op<(outs GR8:$dst), (ins x86_cc:$cc)>;
  let mayStore = true in
  def SETCCm : X86Op<(outs), (ins x86_mem:$m, x86_cc:$cc)>;
}

//===-- Control flow, calls, stack --------------------------------------===//

let isBranch = true, isTerminator = true in {
  let Uses = [EFLAGS] in
  def JCC_1 : X86Op<(outs), (ins x86_pcrel:$dest, x86_cc:$cc)>;
  let isBarrier = true in {
    def JMP_1 : X86Op<(outs), (ins x86_pcrel:$dest)>;
    let isIndirectBranch = true in {
      def JMP64r : X86Op<(outs), (ins GR64:$dest)>;
      let mayLoad = true in
      def JMP64m : X86Op<(outs), (ins x86_mem:$dest)>;
    }
  }
}

let isCall = true, Uses = [RSP, SSP] in {
  def CALL64pcrel32 : X86Op<(outs), (ins x86_pcrel:$fn)>;
  def CALL64r : X86Op<(outs), (ins GR64:$fn)>;
  let mayLoad = true in
  def CALL64m : X86Op<(outs), (ins x86_mem:$fn)>;
  let isReturn = true, isTerminator = true, isBarrier = true in {
    def TCRETURNdi64 : X86Op<(outs), (ins x86_pcrel:$fn, x86_imm:$off)>;
    def TCRETURNri64 : X86Op<(outs), (ins x86_tcptr:$fn, x86_imm:$off)>;
    let mayLoad = true in
    def TCRETURNmi64 : X86Op<(outs), (ins x86_mem_tc:$fn, x86_imm:$off)>;
  }
}

let isReturn = true, isTerminator = true, isBarrier = true in {
  def RET : X86Op<(outs), (ins x86_imm:$pop, variable_ops)>;
  let hasSideEffects = true in
  def RET64 : X86Op<(outs), (ins variable_ops)>;
}

let Defs = [RSP, EFLAGS, SSP], Uses = [RSP, SSP] in {
  def ADJCALLSTACKDOWN64 : X86Op<(outs),
                                 (ins x86_imm:$amt, x86_imm:$amt2,
                                  x86_imm:$amt3)>;
  def ADJCALLSTACKUP64 : X86Op<(outs), (ins x86_imm:$amt, x86_imm:$amt2)>;
}

let Defs = [RSP], Uses = [RSP] in {
  let mayStore = true in {
    def PUSH64r : X86Op<(outs), (ins GR64:$src)>;
    def PUSH64i32 : X86Op<(outs), (ins x86_imm:$imm)>;
    let mayLoad = true in
    def PUSH64rmm : X86Op<(outs), (ins x86_mem:$src)>;
  }
  let mayLoad = true in
  def POP64r : X86Op<(outs GR64:$dst), (ins)>;
}

// Saves XMM argument registers for va_start when AL says so.
let Defs = [EFLAGS], mayStore = true, hasSideEffects = true in
def VASTART_SAVE_XMM_REGS : X86Op<(outs),
                                  (ins GR8:$al, x86_mem:$area, variable_ops)>;

//===-- SSE scalar floating point ---------------------------------------===//

class FW<string n, RegisterClass rc> {
  string s = n;
  RegisterClass r = rc;
}
defvar FpS = FW<"SS", FR32>;
defvar FpD = FW<"SD", FR64>;

foreach f = [FpS, FpD] in {
  let Uses = [MXCSR], mayRaiseFPException = true,
      Constraints = "$dst = $src" in {
    foreach op = ["ADD", "SUB", "MUL", "DIV", "MIN", "MAX"] in {
      let isCommutable = !or(!eq(op, "ADD"), !eq(op, "MUL")) in
      def op # f.s # rr : X86Op<(outs f.r:$dst), (ins f.r:$src, f.r:$rhs)>;
      let mayLoad = true in
      def op # f.s # rm : X86Op<(outs f.r:$dst), (ins f.r:$src, x86_mem:$m)>;
    }
    let isCommutable = true in
    def CMP # f.s # rri : X86Op<(outs f.r:$dst),
                                (ins f.r:$src, f.r:$rhs, x86_imm:$cc)>;
    let mayLoad = true in
    def CMP # f.s # rmi : X86Op<(outs f.r:$dst),
                                (ins f.r:$src, x86_mem:$m, x86_imm:$cc)>;
  }
  let Uses = [MXCSR], mayRaiseFPException = true in
  def SQRT # f.s # r : X86Op<(outs f.r:$dst), (ins f.r:$src)>;
  let Defs = [EFLAGS], Uses = [MXCSR], mayRaiseFPException = true in
  foreach op = ["UCOMI", "COMI"] in {
    def op # f.s # rr : X86Op<(outs), (ins f.r:$a, f.r:$b)>;
    let mayLoad = true in
    def op # f.s # rm : X86Op<(outs), (ins f.r:$a, x86_mem:$b)>;
  }
  // Scalar loads and stores.
  let mayLoad = true, isReMaterializable = true in {
    def MOV # f.s # rm : X86Op<(outs VR128:$dst), (ins x86_mem:$m)>;
    def MOV # f.s # rm_alt : X86Op<(outs f.r:$dst), (ins x86_mem:$m)>;
  }
  let mayStore = true in
  def MOV # f.s # mr : X86Op<(outs), (ins x86_mem:$m, f.r:$src)>;
  let Constraints = "$dst = $src", isCommutable = true in
  def MOV # f.s # rr : X86Op<(outs VR128:$dst), (ins VR128:$src, VR128:$lo)>;
}
let Uses = [MXCSR], mayRaiseFPException = true in {
  def CVTSD2SSrr : X86Op<(outs FR32:$dst), (ins FR64:$src)>;
  def CVTSS2SDrr : X86Op<(outs FR64:$dst), (ins FR32:$src)>;
  let mayLoad = true in {
    def CVTSD2SSrm : X86Op<(outs FR32:$dst), (ins x86_mem:$src)>;
    def CVTSS2SDrm : X86Op<(outs FR64:$dst), (ins x86_mem:$src)>;
  }
}
// Integer <-> FP conversions.  LLVM's 32-bit-integer-to-double forms are
// exact and carry no MXCSR use.
class Cvt<string n, RegisterClass d, RegisterClass s, bit mx> {
  string name = n;
  RegisterClass dst = d;
  RegisterClass src = s;
  bit mxcsr = mx;
}
foreach c = [Cvt<"CVTSI2SD", FR64, GR32, false>,
             Cvt<"CVTSI642SD", FR64, GR64, true>,
             Cvt<"CVTSI2SS", FR32, GR32, true>,
             Cvt<"CVTSI642SS", FR32, GR64, true>,
             Cvt<"CVTTSD2SI", GR32, FR64, true>,
             Cvt<"CVTTSD2SI64", GR64, FR64, true>,
             Cvt<"CVTTSS2SI", GR32, FR32, true>,
             Cvt<"CVTTSS2SI64", GR64, FR32, true>] in
  let Uses = !if(c.mxcsr, [MXCSR], []<Register>),
      mayRaiseFPException = c.mxcsr in {
    def c.name # rr : X86Op<(outs c.dst:$dst), (ins c.src:$src)>;
    let mayLoad = true in
    def c.name # rm : X86Op<(outs c.dst:$dst), (ins x86_mem:$src)>;
  }

// Constant pseudos.
let isReMaterializable = true, isAsCheapAsAMove = true in {
  def FsFLD0SS : X86Pseudo<(outs FR32:$dst), (ins)>;
  def FsFLD0SD : X86Pseudo<(outs FR64:$dst), (ins)>;
  def V_SET0 : X86Pseudo<(outs VR128:$dst), (ins)>;
  def V_SETALLONES : X86Pseudo<(outs VR128:$dst), (ins)>;
}

// Moves between the register files (bitcasts where the types differ).
let isBitcast = true in {
  def MOV64toSDrr : X86Op<(outs FR64:$dst), (ins GR64:$src)>;
  def MOVSDto64rr : X86Op<(outs GR64:$dst), (ins FR64:$src)>;
  def MOVDI2SSrr : X86Op<(outs FR32:$dst), (ins GR32:$src)>;
  def MOVSS2DIrr : X86Op<(outs GR32:$dst), (ins FR32:$src)>;
}
def MOVDI2PDIrr : X86Op<(outs VR128:$dst), (ins GR32:$src)>;
def MOV64toPQIrr : X86Op<(outs VR128:$dst), (ins GR64:$src)>;
def MOVPDI2DIrr : X86Op<(outs GR32:$dst), (ins VR128:$src)>;
def MOVPQIto64rr : X86Op<(outs GR64:$dst), (ins VR128:$src)>;
let mayLoad = true in {
  def MOVDI2PDIrm : X86Op<(outs VR128:$dst), (ins x86_mem:$m)>;
  def MOVQI2PQIrm : X86Op<(outs VR128:$dst), (ins x86_mem:$m)>;
}
let mayStore = true in {
  def MOVPDI2DImr : X86Op<(outs), (ins x86_mem:$m, VR128:$src)>;
  def MOVPQI2QImr : X86Op<(outs), (ins x86_mem:$m, VR128:$src)>;
  def MOVLPDmr : X86Op<(outs), (ins x86_mem:$m, VR128:$src)>;
}

//===-- SSE whole-register moves and packed operations ------------------===//

foreach m = ["MOVAPS", "MOVAPD", "MOVUPS", "MOVUPD", "MOVDQA", "MOVDQU"] in {
  // LLVM marks only the FP-domain register moves as plain moves.
  let isMoveReg = !ne(!substr(m, 0, 5), "MOVDQ") in
  def m # rr : X86Op<(outs VR128:$dst), (ins VR128:$src)>;
  let mayLoad = true, isReMaterializable = true in
  def m # rm : X86Op<(outs VR128:$dst), (ins x86_mem:$m)>;
  let mayStore = true in
  def m # mr : X86Op<(outs), (ins x86_mem:$m, VR128:$src)>;
}

// Two-operand packed operations: dst = dst OP src (register or memory).
multiclass Packed<bit commutable> {
  let Constraints = "$dst = $src" in {
    let isCommutable = commutable in
    def rr : X86Op<(outs VR128:$dst), (ins VR128:$src, VR128:$rhs)>;
    let mayLoad = true in
    def rm : X86Op<(outs VR128:$dst), (ins VR128:$src, x86_mem:$m)>;
  }
}
foreach op = ["PADDB", "PADDW", "PADDD", "PADDQ", "PAND", "POR", "PXOR",
              "PCMPEQB", "PCMPEQW", "PCMPEQD", "PMULUDQ", "PMULLW",
              "PMAXUB", "PMINUB", "PAVGB", "PADDUSB", "PADDUSW",
              "ANDPS", "ANDPD", "ORPS", "ORPD", "XORPS", "XORPD"] in
  defm op : Packed<true>;
foreach op = ["PSUBB", "PSUBW", "PSUBD", "PSUBQ", "PANDN", "PCMPGTB", "PCMPGTW",
              "PCMPGTD", "PSUBUSB", "PSUBUSW", "PACKSSDW", "PACKSSWB",
              "PACKUSWB",
              "PUNPCKLBW", "PUNPCKLWD", "PUNPCKLDQ", "PUNPCKLQDQ",
              "PUNPCKHBW", "PUNPCKHWD", "PUNPCKHDQ", "PUNPCKHQDQ", "ANDNPS",
              "ANDNPD"] in
  defm op : Packed<false>;

// Shifts of packed lanes by an immediate.
let Constraints = "$dst = $src" in
foreach op = ["PSLLW", "PSLLD", "PSLLQ", "PSRLW", "PSRLD", "PSRLQ", "PSRAW",
              "PSRAD",
              "PSLLDQ", "PSRLDQ"] in
  def op # ri : X86Op<(outs VR128:$dst), (ins VR128:$src, x86_imm:$amt)>;
// Shifts of packed lanes by the count in the low quadword of a register or
// of memory.
let Constraints = "$dst = $src" in
foreach op = ["PSLLW", "PSLLD", "PSLLQ", "PSRLW", "PSRLD", "PSRLQ", "PSRAW",
              "PSRAD"] in {
  def op # rr : X86Op<(outs VR128:$dst), (ins VR128:$src, VR128:$amt)>;
  let mayLoad = true in
  def op # rm : X86Op<(outs VR128:$dst), (ins VR128:$src, x86_mem:$amt)>;
}
// Shuffles with an immediate control.
foreach op = ["PSHUFD", "PSHUFHW", "PSHUFLW"] in
  def op # ri : X86Op<(outs VR128:$dst), (ins VR128:$src, x86_imm:$ctl)>;
// SHUFPD commutes by flipping its control bits; SHUFPS cannot.
let Constraints = "$dst = $src" in
foreach op = ["SHUFPS", "SHUFPD"] in
  let isCommutable = !eq(op, "SHUFPD") in
  def op # rri : X86Op<(outs VR128:$dst),
                       (ins VR128:$src, VR128:$src2, x86_imm:$ctl)>;
let Constraints = "$dst = $src", Uses = [MXCSR], mayRaiseFPException = true,
    isCommutable = true in
foreach op = ["CMPPS", "CMPPD"] in
  def op # rri : X86Op<(outs VR128:$dst),
                       (ins VR128:$src, VR128:$src2, x86_imm:$cc)>;
// Packed FP arithmetic (MXCSR-dependent, unlike the bitwise forms above).
let Uses = [MXCSR], mayRaiseFPException = true in {
  foreach op = ["ADDPS", "ADDPD", "MULPS", "MULPD"] in
    defm op : Packed<true>;
  foreach op = ["SUBPS", "SUBPD", "DIVPS", "DIVPD"] in
    defm op : Packed<false>;
}
// LLVM commutes UNPCKHPD alone (into MOVHLPS with the operands swapped).
foreach op = ["UNPCKLPS", "UNPCKLPD", "UNPCKHPS"] in
  defm op : Packed<false>;
defm UNPCKHPD : Packed<true>;
// Truncating conversions of a vector register's low lane.
let Uses = [MXCSR], mayRaiseFPException = true in
foreach op = ["CVTTSD2SI", "CVTTSS2SI"] in {
  def op # rr_Int : X86Op<(outs GR32:$dst), (ins VR128:$src)>;
  def op # 64rr_Int : X86Op<(outs GR64:$dst), (ins VR128:$src)>;
}
// The full memory fence: no operands, ordered against every access.
let hasSideEffects = true, mayLoad = true, mayStore = true in
def MFENCE : X86Op<(outs), (ins)>;
def PEXTRWrr : X86Op<(outs GR32:$dst), (ins VR128:$src, x86_imm:$idx)>;
let Constraints = "$dst = $src" in
def PINSRWrr : X86Op<(outs VR128:$dst),
                     (ins VR128:$src, GR32:$val, x86_imm:$idx)>;
def PMOVMSKBrr : X86Op<(outs GR32:$dst), (ins VR128:$src)>;
def MOVMSKPSrr : X86Op<(outs GR32:$dst), (ins VR128:$src)>;
def MOVMSKPDrr : X86Op<(outs GR32:$dst), (ins VR128:$src)>;

//===-- Spill code of the AVX, AVX-512, mask, MMX and x87 classes ------===//
//
// The stores, loads and copies LLVM 19's X86InstrInfo picks for the vector,
// mask, MMX and x87 register classes (storeRegToStackSlot and friends, per
// subtarget: SSE, AVX, AVX-512 without and with VL); the templates are in
// x86.td. The _NOVLX forms are pseudos that AVX-512 without VL expands into
// their 512-bit forms after allocation.

// A whole-register vector move: its name stem and register class.
class VMov<string n, RegisterClass rc> {
  string name = n;
  RegisterClass cls = rc;
}
foreach m = [VMov<"VMOVAPS", VR128>, VMov<"VMOVUPS", VR128>,
             VMov<"VMOVAPSY", VR256>, VMov<"VMOVUPSY", VR256>,
             VMov<"VMOVAPSZ128", VR128X>, VMov<"VMOVUPSZ128", VR128X>,
             VMov<"VMOVAPSZ256", VR256X>, VMov<"VMOVUPSZ256", VR256X>,
             VMov<"VMOVAPSZ", VR512>, VMov<"VMOVUPSZ", VR512>] in {
  let mayLoad = true, isReMaterializable = true in
  def m.name # rm : X86Op<(outs m.cls:$dst), (ins x86_mem:$src)>;
  let mayStore = true in
  def m.name # mr : X86Op<(outs), (ins x86_mem:$dst, m.cls:$src)>;
}
foreach m = ["VMOVAPSZ128", "VMOVUPSZ128", "VMOVAPSZ256", "VMOVUPSZ256"] in {
  defvar cls = !if(!eq(!substr(m, 8), "128"), VR128X, VR256X);
  let mayLoad = true, isReMaterializable = true in
  def m # rm_NOVLX : X86Pseudo<(outs cls:$dst), (ins x86_mem:$src)>;
  let mayStore = true in
  def m # mr_NOVLX : X86Pseudo<(outs), (ins x86_mem:$dst, cls:$src)>;
}
let isMoveReg = true in {
  def VMOVAPSrr : X86Op<(outs VR128:$dst), (ins VR128:$src)>;
  def VMOVAPSYrr : X86Op<(outs VR256:$dst), (ins VR256:$src)>;
  def VMOVAPSZ128rr : X86Op<(outs VR128X:$dst), (ins VR128X:$src)>;
  def VMOVAPSZ256rr : X86Op<(outs VR256X:$dst), (ins VR256X:$src)>;
  def VMOVAPSZrr : X86Op<(outs VR512:$dst), (ins VR512:$src)>;
}

// Scalar FP: the store, the load into a scalar class (_alt) and, for half
// and single precision, the load into a vector register.
foreach s = [["VMOVSS", "FR32", "VR128"], ["VMOVSD", "FR64", "VR128"],
             ["VMOVSSZ", "FR32X", "VR128X"], ["VMOVSDZ", "FR64X", "VR128X"],
             ["VMOVSHZ", "FR16X", "VR128X"]] in {
  defvar scalar = !cast<RegisterClass>(s[1]);
  let mayStore = true in
  def s[0] # mr : X86Op<(outs), (ins x86_mem:$dst, scalar:$src)>;
  let mayLoad = true, isReMaterializable = true in
  def s[0] # rm_alt : X86Op<(outs scalar:$dst), (ins x86_mem:$src)>;
}
let mayLoad = true, isReMaterializable = true in {
  def VMOVSSrm : X86Op<(outs VR128:$dst), (ins x86_mem:$src)>;
  def VMOVSSZrm : X86Op<(outs VR128X:$dst), (ins x86_mem:$src)>;
}

// Mask registers (AVX-512): the 16-, 32- and 64-bit moves; mask pairs
// (VP2INTERSECT) through pseudos.
foreach k = [["W", "VK16"], ["D", "VK32"], ["Q", "VK64"]] in {
  defvar cls = !cast<RegisterClass>(k[1]);
  let mayLoad = true in
  def KMOV # k[0] # km : X86Op<(outs cls:$dst), (ins x86_mem:$src)>;
  let mayStore = true in
  def KMOV # k[0] # mk : X86Op<(outs), (ins x86_mem:$dst, cls:$src)>;
}
let isMoveReg = true in {
  def KMOVWkk : X86Op<(outs VK16:$dst), (ins VK16:$src)>;
  def KMOVQkk : X86Op<(outs VK64:$dst), (ins VK64:$src)>;
}
let mayLoad = true in
def MASKPAIR16LOAD : X86Op<(outs VK16PAIR:$dst), (ins x86_mem:$src)>;
let mayStore = true in
def MASKPAIR16STORE : X86Op<(outs), (ins x86_mem:$dst, VK16PAIR:$src)>;

// MMX.
let mayLoad = true in
def MMX_MOVQ64rm : X86Op<(outs VR64:$dst), (ins x86_mem:$src)>;
let mayStore = true in
def MMX_MOVQ64mr : X86Op<(outs), (ins x86_mem:$dst, VR64:$src)>;
let isMoveReg = true, isBitcast = true in
def MMX_MOVQ64rr : X86Op<(outs VR64:$dst), (ins VR64:$src)>;

// x87: the stack registers' pseudo loads and stores (the FP stackifier
// turns them into FLD/FSTP); they read the control word and write the
// status word. There is no 80-bit store that keeps its value: ST_FpP80m
// pops, and the stackifier duplicates a value still live.
class Fp<string n, RegisterClass rc, string st> {
  string width = n;
  RegisterClass cls = rc;
  string store = st;
}
let Defs = [FPSW], Uses = [FPCW], mayRaiseFPException = true in
foreach w = [Fp<"32", RFP32, "ST_Fp32m">, Fp<"64", RFP64, "ST_Fp64m">,
             Fp<"80", RFP80, "ST_FpP80m">] in {
  let mayLoad = true in
  def LD_Fp # w.width # m : X86Op<(outs w.cls:$dst), (ins x86_mem:$src)>;
  let mayStore = true in
  def w.store : X86Op<(outs), (ins x86_mem:$dst, w.cls:$src)>;
}
