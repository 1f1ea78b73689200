// BPF register file, modelled on what LLVM 19 compiles into its BPF backend.
//
// Eleven architectural 64-bit registers r0..r10 plus r11 (used internally by
// the kernel verifier / JIT), each with a 32-bit low half (w0..w11, reachable
// with -mcpu=v3 and later through `sub_32`).
//   r0      return value
//   r1-r5   arguments, clobbered by calls
//   r6-r9   callee-saved
//   r10     read-only frame pointer, r11 reserved

let Namespace = "BPF" in
def sub_32 : SubRegIndex<32>;

// Low 32-bit view: a plain register.
class BPFHalf<int num> : Register<"w" # num>, DwarfRegNum<[num]> {
  let Namespace = "BPF";
  let HWEncoding = num;
}

// Full 64-bit register, built over its 32-bit half.
class BPFFull<int num, BPFHalf lo>
    : RegisterWithSubRegs<"r" # num, [lo]>, DwarfRegNum<[num]> {
  let Namespace = "BPF";
  let HWEncoding = num;
  let SubRegIndices = [sub_32];
}

foreach n = 0...11 in {
  def W # n : BPFHalf<n>;
  def R # n : BPFFull<n, !cast<BPFHalf>("W" # n)>;
}

// Allocation order: the scratch/argument registers first, then the
// callee-saved ones, then the return register; r11 and the frame pointer r10
// come last (they are reserved at run time anyway).

def GPR32 : RegisterClass<"BPF", [i32], 64,
    (add (sequence "W%u", 1, 9), W0, W11, W10)>;

def GPR : RegisterClass<"BPF", [i64], 64,
    (add (sequence "R%u", 1, 9), R0, R11, R10)>;

// The BPF calling convention preserves r6-r9 and the frame pointer.
def CSR : CalleeSavedRegs<(add (sequence "R%u", 6, 10))>;
