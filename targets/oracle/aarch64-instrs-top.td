// Top file for llvm-tblgen-19 -gen-instr-info on targets/aarch64/instrs.td.
include "llvm/Target/Target.td"
include "registers.td"
include "instrs.td"
def AArch64InstrInfo : InstrInfo;
def AArch64 : Target {
  let InstructionSet = AArch64InstrInfo;
  let AllowRegisterRenaming = 1;
}
