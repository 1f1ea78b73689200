// Instructions with implicit Defs/Uses lists, call and terminator flags set by let blocks.
include "minireg.td"
include "miniinstr.td"
def FLAGS : Reg<"flags">;
def SP : Reg<"sp">;
def LR : Reg<"lr">;
foreach i = 0-3 in def A#i : Reg<"a"#i>;
def GPR : RC;
let Defs = [FLAGS] in
def CMP : Instr { let InOperandList = (ins GPR:$a, GPR:$b); }
let isCall = true, Defs = [LR, A0, A1], Uses = [SP] in
def CALL : Instr { let InOperandList = (ins simm12:$target); }
let isTerminator = true, Uses = [FLAGS] in {
  def BEQ : Instr { let InOperandList = (ins simm12:$off); }
  def BNE : Instr { let InOperandList = (ins simm12:$off); }
}
