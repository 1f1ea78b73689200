// Top file for llvm-tblgen-19 -gen-instr-info on targets/hexagon/instrs.td.
include "llvm/Target/Target.td"
include "registers.td"
include "instrs.td"
def HexagonInstrInfo : InstrInfo;
def Hexagon : Target {
  let InstructionSet = HexagonInstrInfo;
  let AllowRegisterRenaming = 1;
}
