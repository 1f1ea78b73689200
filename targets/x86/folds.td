// x86: memory-operand folds, the register operands the spiller may keep in a stack slot instead (our prelude's MemoryFold extension).
//
// The facts are x86's: each instruction below has a form that takes the
// same operand from memory (LLVM's fold tables say the same). A folded use
// reads the slot, a folded definition writes it, and a definition tied to
// its source (dst = dst OP x) folds into the read-modify-write form. Only
// forms that access exactly the register's bytes and keep every other
// operand in place are listed; commuted folds (TEST's second operand) are
// not expressible yet. Left out on purpose, as LLVM leaves them out unless
// optimizing for size: SSE conversions and square roots whose memory form
// updates only part of the destination (CVTSD2SS, CVTSS2SD, CVTSI2SD and
// friends, SQRTSS/SD), because folding the load adds a false dependency on
// the destination's old value.

// Every fold accesses the slot through the same address: base %stack.N,
// scale 1, no index, displacement 0, no segment. x86 is little-endian, so
// the low 8/16/32 bits of a spilled register are the slot's first bytes.
class X86Fold<string reg, int operand, string mem>
  : MemoryFold<!cast<Instruction>(reg), operand, !cast<Instruction>(mem),
               (ops TplSlot, 1, TplNoReg, 0, TplNoReg)> {
  let LittleEndian = true;
}

// Integer ALU: dst = dst OP rhs; compares of either operand.
foreach w = AllW in {
  foreach op = ["ADD", "SUB", "AND", "OR", "XOR", "ADC", "SBB"] in
    def : X86Fold<op # w.s # "rr", 2, op # w.s # "rm">;
  def : X86Fold<"CMP" # w.s # "rr", 1, "CMP" # w.s # "rm">;
  def : X86Fold<"CMP" # w.s # "rr", 0, "CMP" # w.s # "mr">;
  def : X86Fold<"CMP" # w.s # "r" # w.i, 0, "CMP" # w.s # "m" # w.i>;
  if !ne(w.s, "8") then
    def : X86Fold<"CMP" # w.s # "ri8", 0, "CMP" # w.s # "mi8">;
  def : X86Fold<"TEST" # w.s # "rr", 0, "TEST" # w.s # "mr">;
  def : X86Fold<"TEST" # w.s # "r" # w.i, 0, "TEST" # w.s # "m" # w.i>;
}

// Read-modify-write: the tied destination and its source become one memory
// operand.
foreach w = AllW in {
  foreach op = ["ADD", "SUB", "AND", "OR", "XOR", "ADC", "SBB"] in {
    def : X86Fold<op # w.s # "rr", 0, op # w.s # "mr">;
    def : X86Fold<op # w.s # "r" # w.i, 0, op # w.s # "m" # w.i>;
    if !ne(w.s, "8") then
      def : X86Fold<op # w.s # "ri8", 0, op # w.s # "mi8">;
  }
  foreach op = ["INC", "DEC", "NEG", "NOT"] in
    def : X86Fold<op # w.s # "r", 0, op # w.s # "m">;
  foreach op = ["SHL", "SHR", "SAR", "ROL", "ROR"] in {
    def : X86Fold<op # w.s # "ri", 0, op # w.s # "mi">;
    def : X86Fold<op # w.s # "rCL", 0, op # w.s # "mCL">;
    def : X86Fold<op # w.s # "r1", 0, op # w.s # "m1">;
  }
}

// Moves: a spilled destination is stored directly, a spilled source loaded.
foreach w = AllW in {
  def : X86Fold<"MOV" # w.s # "rr", 0, "MOV" # w.s # "mr">;
  def : X86Fold<"MOV" # w.s # "rr", 1, "MOV" # w.s # "rm">;
}
// A 64-bit immediate has no store form; a sign-extended 32-bit one has.
foreach w = [W8, W16, W32] in
  def : X86Fold<"MOV" # w.s # "ri", 0, "MOV" # w.s # "mi">;
def : X86Fold<"MOV64ri32", 0, "MOV64mi32">;
def : X86Fold<"SETCCr", 0, "SETCCm">;

// A register tested against itself is a compare of the slot with zero.
foreach w = AllW in
  def : X86Fold<"TEST" # w.s # "rr", 0, "CMP" # w.s # "m" # w.i> {
    let Address = (ops TplSlot, 1, TplNoReg, 0, TplNoReg, 0);
    let AlsoOperand = 1;
  }

// Multiply, divide, bit scans.
foreach w = [W16, W32, W64] in {
  def : X86Fold<"IMUL" # w.s # "rr", 2, "IMUL" # w.s # "rm">;
  def : X86Fold<"IMUL" # w.s # "rr" # w.i, 1, "IMUL" # w.s # "rm" # w.i>;
  def : X86Fold<"IMUL" # w.s # "rri8", 1, "IMUL" # w.s # "rmi8">;
  foreach op = ["BSF", "BSR"] in
    def : X86Fold<op # w.s # "rr", 1, op # w.s # "rm">;
  foreach op = ["MUL", "IMUL", "DIV", "IDIV"] in
    def : X86Fold<op # w.s # "r", 0, op # w.s # "m">;
  def : X86Fold<"CMOV" # w.s # "rr", 2, "CMOV" # w.s # "rm">;
}
foreach op = ["DIV", "IDIV"] in
  def : X86Fold<op # "8r", 0, op # "8m">;

// Bit counts and BMI1/BMI2: the operand their memory form reads.
foreach w = [W16, W32, W64] in
  foreach op = ["LZCNT", "TZCNT", "POPCNT"] in
    def : X86Fold<op # w.s # "rr", 1, op # w.s # "rm">;
foreach w = [W32, W64] in {
  foreach op = ["BEXTR", "BZHI", "SHLX", "SHRX", "SARX", "BLSI", "BLSMSK",
                "BLSR"] in
    def : X86Fold<op # w.s # "rr", 1, op # w.s # "rm">;
  foreach op = ["ANDN", "PDEP", "PEXT"] in
    def : X86Fold<op # w.s # "rr", 2, op # w.s # "rm">;
  def : X86Fold<"RORX" # w.s # "ri", 1, "RORX" # w.s # "mi">;
  def : X86Fold<"MULX" # w.s # "Hrr", 1, "MULX" # w.s # "Hrm">;
  def : X86Fold<"MULX" # w.s # "rr", 2, "MULX" # w.s # "rm">;
}

// Zero and sign extension.
foreach op = ["MOVZX", "MOVSX"] in
  foreach e = ["16rr8", "32rr8", "32rr16", "64rr8", "64rr16"] in
    def : X86Fold<op # e, 1, op # !subst("rr", "rm", e)>;
def : X86Fold<"MOVSX64rr32", 1, "MOVSX64rm32">;
def : X86Fold<"MOVZX32rr8_NOREX", 1, "MOVZX32rm8_NOREX">;

// Indirect calls and jumps, pushes.
def : X86Fold<"CALL64r", 0, "CALL64m">;
def : X86Fold<"JMP64r", 0, "JMP64m">;
def : X86Fold<"PUSH64r", 0, "PUSH64rmm">;

// SSE scalar arithmetic and compares.
foreach f = [FpS, FpD] in {
  foreach op = ["ADD", "SUB", "MUL", "DIV", "MIN", "MAX"] in
    def : X86Fold<op # f.s # "rr", 2, op # f.s # "rm">;
  def : X86Fold<"CMP" # f.s # "rri", 2, "CMP" # f.s # "rmi">;
  foreach op = ["UCOMI", "COMI"] in
    def : X86Fold<op # f.s # "rr", 1, op # f.s # "rm">;
}

// Truncating FP-to-integer conversions (their destination is a whole
// general register, so no partial update).
foreach c = ["CVTTSD2SI", "CVTTSD2SI64", "CVTTSS2SI", "CVTTSS2SI64"] in
  def : X86Fold<c # "rr", 1, c # "rm">;

// Moves between register files: the other file's register is loaded from
// the slot directly (the low bytes of a wider slot on this little-endian
// target), or a spilled destination stored straight from the source.
def : X86Fold<"MOV64toSDrr", 1, "MOVSDrm_alt">;
def : X86Fold<"MOVDI2SSrr", 1, "MOVSSrm_alt">;
def : X86Fold<"MOVSDto64rr", 1, "MOV64rm">;
def : X86Fold<"MOVSS2DIrr", 1, "MOV32rm">;
def : X86Fold<"MOVDI2PDIrr", 1, "MOVDI2PDIrm">;
def : X86Fold<"MOV64toPQIrr", 1, "MOVQI2PQIrm">;
def : X86Fold<"MOVPDI2DIrr", 1, "MOV32rm">;
def : X86Fold<"MOVPQIto64rr", 1, "MOV64rm">;
def : X86Fold<"MOV64toSDrr", 0, "MOV64mr">;
def : X86Fold<"MOVDI2SSrr", 0, "MOV32mr">;
def : X86Fold<"MOVSDto64rr", 0, "MOVSDmr">;
def : X86Fold<"MOVSS2DIrr", 0, "MOVSSmr">;
def : X86Fold<"MOVPDI2DIrr", 0, "MOVPDI2DImr">;
def : X86Fold<"MOVPQIto64rr", 0, "MOVPQI2QImr">;

// Packed operations: dst = dst OP rhs (VR128 slots are 16-byte aligned,
// as these memory forms require).
foreach op = ["PADDB", "PADDW", "PADDD", "PADDQ", "PAND", "POR", "PXOR",
              "PCMPEQB", "PCMPEQW", "PCMPEQD", "PMULUDQ", "PMULLW",
              "PMAXUB", "PMINUB", "PAVGB", "PADDUSB", "PADDUSW",
              "ANDPS", "ANDPD", "ORPS", "ORPD", "XORPS", "XORPD",
              "PSUBB", "PSUBW", "PSUBD", "PSUBQ", "PANDN", "PCMPGTB", "PCMPGTW",
              "PCMPGTD", "PSUBUSB", "PSUBUSW", "PACKSSDW", "PACKSSWB",
              "PACKUSWB",
              "PUNPCKLBW", "PUNPCKLWD", "PUNPCKLDQ", "PUNPCKLQDQ",
              "PUNPCKHBW", "PUNPCKHWD", "PUNPCKHDQ", "PUNPCKHQDQ", "ANDNPS",
              "ANDNPD",
              "PSLLW", "PSLLD", "PSLLQ", "PSRLW", "PSRLD", "PSRLQ", "PSRAW",
              "PSRAD"] in
  def : X86Fold<op # "rr", 2, op # "rm">;

// Zero materialized by `xor` is stored as the immediate 0; the flags the
// `xor` clobbers must be dead there (the allocator checks each instance).
def : X86Fold<"MOV32r0", 0, "MOV32mi"> {
  let Address = (ops TplSlot, 1, TplNoReg, 0, TplNoReg, 0);
}
