// Top file for llvm-tblgen-19 -gen-instr-info on targets/bpf/instrs.td.
include "llvm/Target/Target.td"
include "registers.td"
include "instrs.td"
def BPFInstrInfo : InstrInfo;
def BPF : Target {
  let InstructionSet = BPFInstrInfo;
  let AllowRegisterRenaming = 0;
}
