// Top file for llvm-tblgen-19 -gen-instr-info on targets/x86/instrs.td.
include "llvm/Target/Target.td"
include "registers.td"
include "instrs.td"
def X86InstrInfo : InstrInfo;
def X86 : Target {
  let InstructionSet = X86InstrInfo;
  let AllowRegisterRenaming = 1;
}
