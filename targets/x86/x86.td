// x86: the prelude, the register file, the instructions, the memory-operand folds, and the spill/reload/copy templates.
include "regalloc.td"
include "registers.td"
include "instrs.td"
include "folds.td"

// The class each pointer-like operand kind of instrs.td stands for in 64-bit
// mode (System V), as LLVM's X86RegisterInfo::getPointerRegClass answers it:
// our prelude's PointerRegClass extension (not in LLVM's Target.td, so it is
// here and not in instrs.td, which the oracle tests read with Target.td).
def : PointerRegClass<0, GR64>;
def : PointerRegClass<1, GR64_NOSP>;
def : PointerRegClass<2, GR64_NOREX>;
def : PointerRegClass<3, GR64_NOREX_NOSP>;
def : PointerRegClass<4, GR64_TC>;

// Spill code as LLVM 19 emits it (X86InstrInfo::storeRegToStackSlot and
// friends, checked with llc-19 -stop-after=virtregrewriter on the corpus):
// the five-operand address `%stack.N, 1, $noreg, 0, $noreg` (base, scale,
// index, displacement, segment), the value after it for stores. Templates
// are our prelude's SpillTemplates extension (see regalloc.td); sub-classes
// (GR64_NOSP, GR32_ABCD, GR64_with_sub_8bit, ...) inherit them.
multiclass GPRTemplates<RegisterClass rc, Instruction st, Instruction ld, Instruction mv> {
  def NAME : SpillTemplates<rc> {
    let Spill  = (st TplSlot, 1, TplNoReg, 0, TplNoReg, TplReg);
    let Reload = (ld TplReg, TplSlot, 1, TplNoReg, 0, TplNoReg);
    let Copy   = (mv TplReg, TplSrc);
  }
}
defm GR8Templates       : GPRTemplates<GR8, MOV8mr, MOV8rm, MOV8rr>;
defm GR8_NOREXTemplates : GPRTemplates<GR8_NOREX, MOV8mr_NOREX, MOV8rm_NOREX, MOV8rr_NOREX>;
defm GR16Templates      : GPRTemplates<GR16, MOV16mr, MOV16rm, MOV16rr>;
defm GR32Templates      : GPRTemplates<GR32, MOV32mr, MOV32rm, MOV32rr>;
defm GR64Templates      : GPRTemplates<GR64, MOV64mr, MOV64rm, MOV64rr>;
// Scalar FP values live in XMM registers and are copied whole (MOVAPSrr).
defm FR32Templates  : GPRTemplates<FR32, MOVSSmr, MOVSSrm_alt, MOVAPSrr>;
defm FR64Templates  : GPRTemplates<FR64, MOVSDmr, MOVSDrm_alt, MOVAPSrr>;
defm VR128Templates : GPRTemplates<VR128, MOVAPSmr, MOVAPSrm, MOVAPSrr>;

// The stack pointer and the instruction pointer always (with their 32-, 16-
// and 8-bit views, which overlap them), the shadow-stack pointer, the x87 and
// SSE control/status registers and the segment registers, none of which the
// allocator may touch; R16-R31 too, because they exist only with APX (EGPR),
// which the x86-64 baseline lacks. RBP when the function keeps a frame
// pointer (x86-64 Linux at -O2 keeps one only when it must: variable-sized
// objects, a taken frame address, an opaque stack-pointer adjustment, or a
// realigned stack).
//
// The SysV x86-64 ABI keeps the stack 16-byte aligned at calls; a frame
// with an object aligned to more (an over-aligned local, say a 32-byte AVX
// vector) is realigned on entry, and LLVM then keeps a frame pointer
// (X86FrameLowering::hasFP consults hasStackRealignment). If such a
// function also moves its stack pointer at run time (variable-sized
// objects, an opaque adjustment), neither RSP nor RBP can address its
// locals, and LLVM 19 reserves RBX as the base pointer
// (X86RegisterInfo::hasBasePointer; EBX on x32, which this target does not
// describe). x86 has no frame-size rule: its 32-bit displacements reach.
def X86Reserved : ReservedRegisters {
  let Always = (add RSP, RIP, SSP, FPCW, FPSW, MXCSR, CS, DS, SS, ES, FS, GS,
                    (sequence "R%u", 16, 31));
  let FramePointer = (add RBP);
  let StackAlignment = 16;
  let BasePointer = (add RBX);
}
